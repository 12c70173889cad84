// Helpers for the tests of the group-less Kafka edge (kafka/read-range.ts, kafka/fetch-at.ts,
// kafka/kafka-admin.ts): the platformatic connection to the test broker, fixtures written with
// kafkajs (plain records, committed and aborted transactions, a compacted topic the log cleaner
// has already compacted), a read that collects what it is handed, and a watch on the fetch
// requests a client makes (the library's diagnostics channel), to see what a read asks for.
import { tracingChannel } from 'node:diagnostics_channel';
import type { Message } from 'kafkajs';
import { onTestFinished } from 'vitest';
import { createFetchAt } from '../../kafka/fetch-at.ts';
import type { PlatformaticConnection } from '../../kafka/platformatic-options.ts';
import { readRange } from '../../kafka/read-range.ts';
import type { RangeRead, ReadRangeOptions } from '../../kafka/read-range.ts';
import { testBrokers, testKafka, uniqueName, useTopic } from './kafka.ts';

/** A connection to the test broker under a unique client id (the fetch watch tells clients apart by it). */
export function testConnection(prefix = 'group-less'): PlatformaticConnection {
  return { clientId: uniqueName(prefix), bootstrapBrokers: testBrokers() };
}

/** Writes `messages` (each may name its partition) with an idempotent producer. */
export async function produce(topic: string, messages: Message[]): Promise<void> {
  const producer = testKafka('scorestream-test-producer').producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    await producer.send({ topic, messages });
  } finally {
    await producer.disconnect();
  }
}

/** Writes one transaction per entry, committed or aborted, in order, with one transactional producer. */
export async function writeTransactions(topic: string, transactions: ReadonlyArray<{ outcome: 'commit' | 'abort'; messages: Message[] }>): Promise<void> {
  const producer = testKafka('scorestream-test-transactions').producer({ transactionalId: uniqueName('group-less-tx'), idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    for (const { outcome, messages } of transactions) {
      const transaction = await producer.transaction();
      await transaction.send({ topic, messages });
      if (outcome === 'commit') await transaction.commit();
      else await transaction.abort();
    }
  } finally {
    await producer.disconnect();
  }
}

export type Collected = { topic: string; partition: number; offset: string; key: string | null; value: string | null; headers: Record<string, string> };

/** readRange's options with the handler optional (distributed over its two ways to name partitions). */
type CollectOptions<Options = ReadRangeOptions> = Options extends unknown ? Omit<Options, 'onBatch'> & { onBatch?: ReadRangeOptions['onBatch'] } : never;

/** readRange, with every message it hands over collected (text) in the order handed over; stopped when the test ends. */
export function collectRange(connection: PlatformaticConnection, options: CollectOptions): { read: RangeRead; collected: Collected[]; batches: number[] } {
  const collected: Collected[] = [];
  const batches: number[] = [];
  const read = readRange(connection, {
    ...options,
    onBatch: async (topic, partition, messages) => {
      batches.push(messages.length);
      for (const message of messages) {
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([name, value]) => [name, String(value)]));
        collected.push({ topic, partition, offset: message.offset, key: message.key?.toString('utf8') ?? null, value: message.value?.toString('utf8') ?? null, headers });
      }
      await options.onBatch?.(topic, partition, messages);
    },
  });
  onTestFinished(() => read.stop());
  return { read, collected, batches };
}

export type WatchedFetch = { partitions: Array<{ partition: number; fetchOffset: bigint }> };

type FetchContext = { client?: { clientId?: string }; options?: { topics?: Array<{ partitions: Array<{ partition: number; fetchOffset: bigint }> }> } };

/** The fetch requests the client named `clientId` makes from now until the test ends (their offsets as asked). */
export function watchFetches(clientId: string): WatchedFetch[] {
  const fetches: WatchedFetch[] = [];
  const channel = tracingChannel<string, FetchContext>('plt:kafka:consumer:fetches');
  const ignore = () => undefined;
  const handlers = {
    start(context: FetchContext) {
      if (context.client?.clientId !== clientId) return;
      fetches.push({ partitions: (context.options?.topics ?? []).flatMap((topic) => topic.partitions.map(({ partition, fetchOffset }) => ({ partition, fetchOffset }))) });
    },
    end: ignore,
    asyncStart: ignore,
    asyncEnd: ignore,
    error: ignore,
  };
  channel.subscribe(handlers);
  onTestFinished(() => void channel.unsubscribe(handlers));
  return fetches;
}

/** Moves the start of `topic`'s `partition` to `offset`, as retention would (DeleteRecords). */
export async function deleteRecordsBefore(topic: string, partition: number, offset: number): Promise<void> {
  const admin = testKafka('scorestream-test-admin').admin();
  await admin.connect();
  try {
    // kafkajs finds the leader in metadata it must have loaded first.
    await admin.fetchTopicMetadata({ topics: [topic] });
    await admin.deleteTopicRecords({ topic, partitions: [{ partition, offset: String(offset) }] });
  } finally {
    await admin.disconnect();
  }
}

/** Resolves once `condition` holds, polling; rejects after `timeoutMs` saying what it waited for. */
export async function eventually(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A one-partition compacted topic the log cleaner has compacted: a=1 (offset 0) and a=2 (2), b=1
 * (1) and its tombstone (3), then c=1 (4), written after a segment roll so that the first segment
 * can be cleaned. Offsets 0 and 1 are gone once this resolves; 2, 3 and 4 remain.
 */
export async function compactedTopic(prefix: string): Promise<string> {
  const topic = await useTopic({ prefix, config: { 'cleanup.policy': 'compact', 'segment.ms': '100', 'min.cleanable.dirty.ratio': '0.0001', 'min.compaction.lag.ms': '0', 'delete.retention.ms': '60000' } });
  await produce(topic, [{ key: 'a', value: '1' }, { key: 'b', value: '1' }, { key: 'a', value: '2' }, { key: 'b', value: null }]);
  // A record after segment.ms rolls the segment: only a closed segment is cleaned.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await produce(topic, [{ key: 'c', value: '1' }]);
  const reader = createFetchAt(testConnection('compaction-probe'));
  try {
    const gone = async (offset: bigint) => !(await reader.fetchAt({ topic, partition: 0, offset })).found;
    await eventually(`the log cleaner to compact ${topic} (offsets 0 and 1 gone)`, async () => (await gone(0n)) && (await gone(1n)), 90_000);
  } finally {
    await reader.close();
  }
  return topic;
}
