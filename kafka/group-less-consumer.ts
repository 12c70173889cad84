// The @platformatic/kafka Consumer that the group-less reads (read-range.ts, fetch-at.ts) use
// for its plain requests only — Metadata, ListOffsets, Fetch — and never to join its group:
// joinGroup and consume are never called, so no group is created on the broker, no ACL on a
// group is needed, and there is none to delete afterwards (Kafka Streams' restore consumer reads
// the same way: it assigns, never subscribes). The library insists on a group id; it stays local.
import { Consumer, FetchIsolationLevels, ListOffsetTimestamps } from '@platformatic/kafka';
import type { fetchV17 } from '@platformatic/kafka';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';

export type GroupLessConsumer = Consumer<Buffer, Buffer, Buffer, Buffer>;

/** The Fetch shapes the library's `fetch` takes and answers (the package exports them per API version only). */
export type FetchResponse = fetchV17.FetchResponse;
export type FetchResponsePartition = fetchV17.FetchResponsePartition;
export type FetchRequestTopic = fetchV17.FetchRequestTopic;

/** read_committed (the default everywhere here) skips aborted transactions and stops at the last stable offset. */
export type ReadIsolation = 'read_committed' | 'read_uncommitted';

export const isolationLevelOf = (isolation: ReadIsolation) => (isolation === 'read_committed' ? FetchIsolationLevels.READ_COMMITTED : FetchIsolationLevels.READ_UNCOMMITTED);

/** `isolation` also decides what listOffsets calls a partition's end: its last stable offset, or its high watermark. */
export function createGroupLessConsumer(connection: PlatformaticConnection, isolation: ReadIsolation): GroupLessConsumer {
  const reads = KAFKA_DEFAULTS.groupLessReads;
  return new Consumer({
    ...connection,
    groupId: `${connection.clientId}.group-less-reads`,
    autocommit: false,
    isolationLevel: isolationLevelOf(isolation),
    maxWaitTime: reads.fetchMaxWaitMs,
    retries: reads.clientRetries,
    retryDelay: reads.retryDelayMs,
  });
}

export type PartitionBounds = { readonly low: bigint; readonly high: bigint };

/**
 * Where each listed partition starts and ends (its last stable offset under read_committed),
 * by topic and partition index.
 */
export async function listPartitionBounds(consumer: GroupLessConsumer, partitions: Readonly<Record<string, number[]>>): Promise<Map<string, Map<number, PartitionBounds>>> {
  const topics = Object.keys(partitions);
  const [lows, highs] = await Promise.all([
    consumer.listOffsets({ topics, partitions: { ...partitions }, timestamp: ListOffsetTimestamps.EARLIEST }),
    consumer.listOffsets({ topics, partitions: { ...partitions }, timestamp: ListOffsetTimestamps.LATEST }),
  ]);
  const bounds = new Map<string, Map<number, PartitionBounds>>();
  for (const [topic, indexes] of Object.entries(partitions)) {
    const byPartition = new Map<number, PartitionBounds>();
    for (const partition of indexes) {
      const low = lows.get(topic)?.[partition];
      const high = highs.get(topic)?.[partition];
      if (low === undefined || high === undefined) throw new Error(`Kafka listed no offsets for ${topic}[${partition}]; check that the partition exists`);
      byPartition.set(partition, { low, high });
    }
    bounds.set(topic, byPartition);
  }
  return bounds;
}

/** The first offset at or after `timestampMs` of each listed partition; undefined where no record is that late. */
export async function listOffsetsAtTime(consumer: GroupLessConsumer, partitions: Readonly<Record<string, number[]>>, timestampMs: number): Promise<Map<string, Map<number, bigint | undefined>>> {
  const listed = await consumer.listOffsets({ topics: Object.keys(partitions), partitions: { ...partitions }, timestamp: BigInt(Math.trunc(timestampMs)) });
  const offsets = new Map<string, Map<number, bigint | undefined>>();
  for (const [topic, indexes] of Object.entries(partitions)) {
    offsets.set(topic, new Map(indexes.map((partition) => {
      const offset = listed.get(topic)?.[partition];
      return [partition, offset === undefined || offset < 0n ? undefined : offset] as const;
    })));
  }
  return offsets;
}
