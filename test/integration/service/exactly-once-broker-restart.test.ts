// Exactly-once across a broker outage: the broker stops for 15 s while judge calls are in flight
// and transactions are being committed, and comes back. Transactions that fail are aborted and their
// partitions rewound and claimed again; every run before, during and after the outage is scored,
// committed, and visible exactly once to read_committed readers. Uses its own named broker (same
// ports and data across the restart), so it cannot run against KAFKA_BROKERS.
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { resolveConfig } from '../../../src/config/resolve-config.ts';
import type { ScoreRecord } from '../../../src/index.ts';
import { startService } from '../../../consumers/start-service.ts';
import { ensureLocalBroker, stopLocalBroker } from '../../../scripts/kafka/index.ts';
import { answerLengthScorer, delayedJudgeModel, judgeScorer } from '../../fixtures/scorers.ts';
import { testRun } from '../../helpers/runs.ts';
import { silentLogger } from '../../helpers/service.ts';
import { expectExactlyOnce, pairCounts, readAll } from './delivery-helpers.ts';

describe.skipIf(process.env.KAFKA_BROKERS !== undefined)('exactly-once across a broker restart', () => {
  it('publishes every (run, scorer) exactly once when the broker goes away mid-stream and comes back', async () => {
    const name = `eos-restart-${randomBytes(4).toString('hex')}`;
    const broker = await ensureLocalBroker({ name });
    onTestFinished(async () => {
      await stopLocalBroker(name, { purge: true });
    });
    const kafka = new Kafka({ clientId: 'eos-restart-test', brokers: broker.brokers, logLevel: logLevel.NOTHING, retry: { retries: 20 } });
    const topics = { runs: 'runs', results: 'scores', deadLetter: 'dlq' };
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: 'runs', numPartitions: 2 }, { topic: 'scores' }, { topic: 'dlq' }] });
    await admin.disconnect();
    const produce = async (runIds: string[]) => {
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic: 'runs', acks: -1, messages: runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })) });
      await producer.disconnect();
    };
    const before = Array.from({ length: 30 }, (_, index) => `before-${index}`);
    await produce(before);

    const config = resolveConfig({
      kafka: { brokers: broker.brokers, clientId: 'eos-restart-service' },
      groupId: 'eos-restart-group',
      topics,
      delivery: 'exactly-once',
      concurrency: { runsInFlight: 8 },
      scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('slow-judge', delayedJudgeModel(500)) }],
    });
    const service = await startService({ config, logger: silentLogger(), consumer: { commitIntervalMs: 200 } });
    onTestFinished(async () => {
      await service.stop({ timeoutMs: 5_000 });
    });

    await expect.poll(() => service.stats.transactions, { timeout: 30_000 }).toBeGreaterThan(0);
    await stopLocalBroker(name);
    // Longer than the transactional producers' retries (about 10 s): transactions fail for real.
    await new Promise((resolve) => setTimeout(resolve, 15_000));
    await ensureLocalBroker({ name });

    const after = Array.from({ length: 20 }, (_, index) => `after-${index}`);
    await produce(after);
    const all = [...before, ...after];
    const offsets = async () => {
      const offsetsAdmin = kafka.admin();
      await offsetsAdmin.connect();
      const [entry] = await offsetsAdmin.fetchOffsets({ groupId: 'eos-restart-group', topics: ['runs'] });
      await offsetsAdmin.disconnect();
      return (entry?.partitions ?? []).reduce((sum, partition) => sum + Math.max(0, Number(partition.offset)), 0);
    };
    await expect.poll(offsets, { timeout: 120_000, interval: 500 }).toBe(all.length);
    await service.stop({ timeoutMs: 5_000 });
    const records = await readAll<ScoreRecord>(topics.results, { isolation: 'read_committed', kafka });
    expect(pairCounts(records).size).toBe(all.length * 2);
    expectExactlyOnce(records, all, ['answer-length', 'slow-judge']);
    // The failure path was taken: aborted transactions, and their runs scored again.
    expect(service.stats.transactionFailures).toBeGreaterThan(0);
    expect(service.stats.completed).toBeGreaterThan(all.length);
  });
});
