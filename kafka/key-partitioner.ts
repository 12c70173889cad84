// The partitioner every Scorestream producer uses: kafkajs' DefaultPartitioner (the Java
// client's: murmur2 of the key, else round-robin), with the same hash computed in 32-bit integer
// arithmetic. kafkajs computes murmur2 on an emulated 64-bit Long, allocating as it goes, and the
// service writes three records per run event (the allocation measured: docs/benchmarks.md). Records
// land on exactly the partitions kafkajs and the Java client would choose (tested).
import type { ICustomPartitioner, PartitionerArgs } from 'kafkajs';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** The Java client's `Utils.murmur2` (a signed 32-bit hash). */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  switch (length & 3) {
    case 3:
      h ^= data[whole + 2]! << 16;
    // falls through
    case 2:
      h ^= data[whole + 1]! << 8;
    // falls through
    case 1:
      h ^= data[whole]!;
      h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

const toPositive = (value: number) => value & 0x7fffffff;

function keyBytes(key: Buffer | string): Uint8Array {
  return typeof key === 'string' ? Buffer.from(key) : key;
}

/** The non-negative hash a key places its record by; the partition is this modulo the partition count. */
export const placementHash = (placedBy: Buffer | string): number => toPositive(murmur2(keyBytes(placedBy)));

/**
 * Drop-in for kafkajs' `Partitioners.DefaultPartitioner` (pass as `createPartitioner`). A message
 * with a `partitionKey` (kafka-records.ts) is placed by it instead of its key: score and decision
 * records and retry messages are keyed by scoreId for compaction and placed by run id.
 */
export const keyPartitioner: ICustomPartitioner = () => {
  const counters = new Map<string, number>();
  return ({ topic, partitionMetadata, message }: PartitionerArgs) => {
    if (message.partition !== null && message.partition !== undefined) return message.partition;
    const placedBy = (message as { partitionKey?: string }).partitionKey ?? message.key;
    if (placedBy !== null && placedBy !== undefined) return placementHash(placedBy) % partitionMetadata.length;
    // No key: round-robin over partitions that have a leader, from a random start per topic.
    const next = (counters.get(topic) ?? Math.floor(Math.random() * 2 ** 31)) + 1;
    counters.set(topic, next);
    const available = partitionMetadata.filter((partition) => partition.leader >= 0);
    if (available.length > 0) return available[toPositive(next) % available.length]!.partitionId;
    return toPositive(next) % partitionMetadata.length;
  };
};
