// A broker of the test's own, for tests that stop and restart it: a named local broker keeps its
// ports and data across a restart (the shared integration broker cannot be restarted). Purged when
// the test finishes. Not available against KAFKA_BROKERS (callers skip then).
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import { onTestFinished } from 'vitest';
import { ensureLocalBroker, stopLocalBroker } from '../../local/kafka/index.ts';
import { createTopicsWithLeaders } from './kafka.ts';
import { testRun } from './runs.ts';

export type RestartableBroker = {
  brokers: string[];
  kafka: Kafka;
  /** runs (2 partitions), scores, dlq — created on this broker. */
  topics: { runs: string; results: string; deadLetter: string };
  produce(runIds: string[]): Promise<void>;
  /** Stops the broker, waits `downMs`, starts it again on the same address and data. */
  restart(downMs: number): Promise<void>;
  /** The group's committed offsets on the runs topic, summed over partitions. */
  committedTotal(groupId: string): Promise<number>;
};

export async function useRestartableBroker(prefix: string): Promise<RestartableBroker> {
  const name = `${prefix}-${randomBytes(4).toString('hex')}`;
  const broker = await ensureLocalBroker({ name });
  onTestFinished(async () => {
    await stopLocalBroker(name, { purge: true });
  });
  const kafka = new Kafka({ clientId: `${prefix}-test`, brokers: broker.brokers, logLevel: logLevel.NOTHING, retry: { retries: 20 } });
  const topics = { runs: 'runs', results: 'scores', deadLetter: 'dlq' };
  await createTopicsWithLeaders(kafka, [{ topic: topics.runs, numPartitions: 2 }, { topic: topics.results }, { topic: topics.deadLetter }]);
  return {
    brokers: broker.brokers,
    kafka,
    topics,
    async produce(runIds) {
      // Idempotent: retries across the restart must not write a run twice (offsets are counted).
      const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
      await producer.connect();
      await producer.send({ topic: topics.runs, acks: -1, messages: runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })) });
      await producer.disconnect();
    },
    async restart(downMs) {
      await stopLocalBroker(name);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await ensureLocalBroker({ name });
    },
    async committedTotal(groupId) {
      const offsetsAdmin = kafka.admin();
      await offsetsAdmin.connect();
      try {
        const [entry] = await offsetsAdmin.fetchOffsets({ groupId, topics: [topics.runs] });
        return (entry?.partitions ?? []).reduce((sum, partition) => sum + Math.max(0, Number(partition.offset)), 0);
      } finally {
        await offsetsAdmin.disconnect();
      }
    },
  };
}
