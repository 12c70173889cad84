// The broker goes away under a running service — with judge calls in flight — and comes back:
// records that could not be published are retried until acknowledged, the consumer reconnects,
// and every run before, during and after the outage is scored and committed. Uses its own named
// broker (same ports and data across the restart), so it cannot run against KAFKA_BROKERS.
import { randomBytes } from 'node:crypto';
import type { Kafka } from 'kafkajs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import type { ScoreRecord } from '../../../src/index.ts';
import { startService } from '../../../service/start-service.ts';
import { answerLengthScorer, judgeScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { useRestartableBroker } from '../../helpers/restartable-broker.ts';
import { silentLogger, testKafkaClient, testServiceFetchWait } from '../../helpers/service.ts';

const pairs = (records: ScoreRecord[]) => new Set(records.map((record) => `${record.runId}/${record.scorerId}`));

async function readPairs(kafka: Kafka, topic: string, expected: number, timeoutMs: number): Promise<ScoreRecord[]> {
  const consumer = kafka.consumer({ groupId: `restart-reader-${randomBytes(4).toString('hex')}`, maxWaitTimeInMs: 100 });
  const records: ScoreRecord[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${pairs(records).size} of ${expected} (run, scorer) pairs within ${timeoutMs} ms`)), timeoutMs);
      void consumer.run({
        eachMessage: async ({ message }) => {
          records.push(JSON.parse(message.value!.toString('utf8')) as ScoreRecord);
          if (pairs(records).size >= expected) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
    return records;
  } finally {
    await consumer.disconnect();
  }
}

describe.skipIf(process.env.KAFKA_BROKERS !== undefined)('broker restart', () => {
  it('scores every run across a broker restart with judge calls in flight', async () => {
    const { brokers, kafka, topics, produce, restart, committedTotal } = await useRestartableBroker('restart');
    const before = Array.from({ length: 20 }, (_, index) => `before-${index}`);
    await produce(before);

    const config = resolveConfig({
      kafka: { brokers, clientId: 'restart-service', client: testKafkaClient() },
      groupId: 'restart-group',
      topics,
      scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('slow-judge', mockJudge({ answer: { score: 0.8 }, delayMs: 1500 })) }],
    });
    const logger = silentLogger();
    const service = await startService({ config, logger, ...testServiceFetchWait, consumer: { commitIntervalMs: 200, publishRetryDelayMs: 100 } });
    onTestFinished(async () => {
      await service.stop({ timeoutMs: 5_000 });
    });

    // Stop the broker while the judge calls of the first runs are in flight.
    await expect.poll(() => service.stats.inFlight, { timeout: 30_000 }).toBeGreaterThan(0);
    await restart(3_000);

    const after = Array.from({ length: 20 }, (_, index) => `after-${index}`);
    await produce(after);
    const records = await readPairs(kafka, topics.results, (before.length + after.length) * 2, 120_000);
    expect(pairs(records).size).toBe((before.length + after.length) * 2);
    await expect.poll(() => committedTotal('restart-group'), { timeout: 60_000, interval: 500 }).toBe(before.length + after.length);
  });
});
