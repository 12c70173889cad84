// Reads whole topics from a point in time, as one reader: a consumer group of its own (unique per
// process, so it gets every partition), each partition sought to the offset for `sinceMs`, never
// committing, the group deleted when it stops. `caughtUp` resolves once every partition reached
// where it stood when the reader started. The feedback join uses it to rebuild its state from
// the topics themselves (agreement-join.ts). Reads only committed transactions.
import { randomBytes } from 'node:crypto';
import type { Kafka, KafkaMessage } from 'kafkajs';
import { whileLeadersSettle } from '../kafka/while-leaders-settle.ts';

export type TopicReaderOptions = {
  kafka: Kafka;
  topics: readonly string[];
  sinceMs: number;
  groupPrefix: string;
  /** Called per batch, in offset order within a partition; the next batch waits for it. */
  eachBatch: (topic: string, partition: number, messages: KafkaMessage[]) => Promise<void>;
  /** Told when the consumer crashed (an eachBatch that threw is retried by kafkajs, then restarts the consumer). */
  onWarning?: (message: string) => void;
};

export type TopicReader = {
  readonly caughtUp: Promise<void>;
  stop(): Promise<void>;
};

export async function startTopicReader(options: TopicReaderOptions): Promise<TopicReader> {
  const { kafka } = options;
  const groupId = `${options.groupPrefix}-${randomBytes(6).toString('hex')}`;
  const admin = kafka.admin();
  await admin.connect();
  const pending = new Map<string, bigint>();
  const starts: { topic: string; partition: number; offset: string }[] = [];
  try {
    for (const topic of options.topics) {
      const fromTimestamp = await whileLeadersSettle(() => admin.fetchTopicOffsetsByTimestamp(topic, options.sinceMs));
      const highs = await whileLeadersSettle(() => admin.fetchTopicOffsets(topic));
      for (const { partition, offset } of fromTimestamp) starts.push({ topic, partition, offset });
      for (const { partition, high } of highs) {
        const start = BigInt(fromTimestamp.find((entry) => entry.partition === partition)?.offset ?? high);
        if (BigInt(high) > start) pending.set(`${topic}\u0000${partition}`, BigInt(high));
      }
    }
  } catch (error) {
    await admin.disconnect();
    throw error;
  }
  let markCaughtUp!: () => void;
  const caughtUp = new Promise<void>((resolve) => (markCaughtUp = resolve));
  if (pending.size === 0) markCaughtUp();

  const consumer = kafka.consumer({ groupId, readUncommitted: false, maxWaitTimeInMs: 250, allowAutoTopicCreation: false });
  await consumer.connect();
  await consumer.subscribe({ topics: [...options.topics], fromBeginning: false });
  consumer.on(consumer.events.CRASH, (event) => options.onWarning?.(`the reader of ${options.topics.join(', ')} crashed (${String(event.payload.error)}); restart: ${event.payload.restart}`));
  const running = consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      await options.eachBatch(batch.topic, batch.partition, batch.messages);
      const key = `${batch.topic}\u0000${batch.partition}`;
      const target = pending.get(key);
      if (target !== undefined && BigInt(batch.lastOffset()) + 1n >= target) {
        pending.delete(key);
        if (pending.size === 0) markCaughtUp();
      }
    },
  });
  // Seeking right after run(): kafkajs applies it when the partition is first fetched.
  for (const start of starts) consumer.seek(start);
  let stopped = false;
  return {
    caughtUp: running.then(() => caughtUp),
    async stop() {
      if (stopped) return;
      stopped = true;
      await consumer.disconnect();
      await running.catch(() => undefined);
      await admin.deleteGroups([groupId]).catch(() => undefined);
      await admin.disconnect();
    },
  };
}
