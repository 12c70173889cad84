// Exactly-once across a broker outage: the broker stops for 15 s while judge calls are in flight
// and transactions are being committed, and comes back. Transactions that fail are aborted and their
// partitions rewound and claimed again; every run before, during and after the outage is scored,
// committed, and visible exactly once to read_committed readers. Uses its own named broker (same
// ports and data across the restart), so it cannot run against KAFKA_BROKERS.
import { describe, expect, it, onTestFinished } from 'vitest';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import type { ScoreRecord } from '../../../src/index.ts';
import { startService } from '../../../service/start-service.ts';
import { answerLengthScorer, judgeScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { readAll } from '../../helpers/read-all.ts';
import { useRestartableBroker } from '../../helpers/restartable-broker.ts';
import { silentLogger, testKafkaClient, testServiceFetchWait } from '../../helpers/service.ts';
import { expectExactlyOnce, pairCounts } from './delivery-helpers.ts';

describe.skipIf(process.env.KAFKA_BROKERS !== undefined)('exactly-once across a broker restart', () => {
  it('publishes every (run, scorer) exactly once when the broker goes away mid-stream and comes back', async () => {
    const { brokers, kafka, topics, produce, restart, committedTotal } = await useRestartableBroker('eos-restart');
    const before = Array.from({ length: 30 }, (_, index) => `before-${index}`);
    await produce(before);

    const config = resolveConfig({
      kafka: { brokers, clientId: 'eos-restart-service', client: testKafkaClient() },
      groupId: 'eos-restart-group',
      topics,
      delivery: 'exactly-once',
      concurrency: { runsInFlight: 8 },
      scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('slow-judge', mockJudge({ answer: { score: 0.8 }, delayMs: 500 })) }],
    });
    const logger = silentLogger();
    const service = await startService({ config, logger, ...testServiceFetchWait, consumer: { commitIntervalMs: 200 } });
    onTestFinished(async () => {
      await service.stop({ timeoutMs: 5_000 });
    });

    await expect.poll(() => service.stats.transactions, { timeout: 30_000 }).toBeGreaterThan(0);
    // Longer than the transactional producers' retries (about 10 s): transactions fail for real.
    await restart(15_000);

    const after = Array.from({ length: 20 }, (_, index) => `after-${index}`);
    await produce(after);
    const all = [...before, ...after];
    await expect.poll(() => committedTotal('eos-restart-group'), { timeout: 120_000, interval: 500 }).toBe(all.length);
    await service.stop({ timeoutMs: 5_000 });
    const records = await readAll<ScoreRecord>(topics.results, { isolation: 'read_committed', kafka });
    expect(pairCounts(records).size).toBe(all.length * 2);
    expectExactlyOnce(records, all, ['answer-length', 'slow-judge']);
    // The failure path was taken: aborted transactions, and their runs scored again.
    expect(service.stats.transactionFailures).toBeGreaterThan(0);
    expect(service.stats.completed).toBeGreaterThan(all.length);
  });
});
