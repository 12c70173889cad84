// Reads every partition of one topic for the monitor (`scorestream monitor`), from a point in
// time or from the beginning, in a consumer group of its own (unique per process: the monitor must
// see every partition, and its state is rebuilt from the topics, never from committed offsets).
// It never commits and deletes its group when it stops. `caughtUp` resolves once each partition
// was read up to where it stood at start; `stopAtStart` stops there (reading back the alerts).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kafka, KafkaMessage } from 'kafkajs';
import { MONITOR_GROUP_PREFIX } from '../../kafka/acl-roles.ts';
import { whileLeadersSettle } from '../../kafka/while-leaders-settle.ts';

export type TopicReaderOptions = {
  kafka: Kafka;
  topic: string;
  /** Epoch ms to start from (offsets by timestamp), or 'beginning'. */
  from: number | 'beginning';
  onMessage: (message: KafkaMessage, partition: number) => void;
  onError?: (error: unknown) => void;
  /** The prefix of its throwaway group (default the monitor's; the dashboard's reader of the alerts topic passes its own). */
  groupPrefix?: string;
};

export type TopicReader = { readonly caughtUp: Promise<void>; stop(): Promise<void> };

export async function startTopicReader(options: TopicReaderOptions): Promise<TopicReader> {
  const { kafka, topic } = options;
  const groupId = `${options.groupPrefix ?? MONITOR_GROUP_PREFIX}-${hostname().replace(/[^A-Za-z0-9._-]/g, '-')}-${randomBytes(4).toString('hex')}`;
  const admin = kafka.admin();
  await admin.connect();
  const pending = new Map<number, bigint>();
  let starts: { partition: number; offset: string }[];
  try {
    const highs = await whileLeadersSettle(() => admin.fetchTopicOffsets(topic));
    starts =
      options.from === 'beginning'
        ? highs.map(({ partition, low }) => ({ partition, offset: low }))
        : (await whileLeadersSettle(() => admin.fetchTopicOffsetsByTimestamp(topic, options.from as number))).map(({ partition, offset }) => ({ partition, offset }));
    for (const { partition, high } of highs) {
      const start = BigInt(starts.find((entry) => entry.partition === partition)?.offset ?? high);
      if (BigInt(high) > start) pending.set(partition, BigInt(high));
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
  await consumer.subscribe({ topics: [topic], fromBeginning: false });
  const running = consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      for (const message of batch.messages) options.onMessage(message, batch.partition);
      const target = pending.get(batch.partition);
      if (target !== undefined && BigInt(batch.lastOffset()) + 1n >= target) {
        pending.delete(batch.partition);
        if (pending.size === 0) markCaughtUp();
      }
    },
  });
  for (const start of starts) consumer.seek({ topic, ...start });
  running.catch((error: unknown) => options.onError?.(error));
  let stopped: Promise<void> | undefined;
  return {
    caughtUp,
    stop() {
      stopped ??= (async () => {
        await running.catch(() => undefined);
        await consumer.disconnect();
        await admin.deleteGroups([groupId]).catch(() => undefined);
        await admin.disconnect();
      })();
      return stopped;
    },
  };
}
