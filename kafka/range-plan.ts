// Where a group-less read (read-range.ts) starts and ends each partition, decided once when it
// starts: the partitions (every one of the topics named, or those listed), each partition's
// start (its log start, the first offset at or after a time — the end where no record is that
// late, as kafkajs' fetchTopicOffsetsByTimestamp answers — or an offset given, moved into the
// partition's bounds with a warning when retention deleted it or it lies past the end), and its
// target: where it stood, its high watermark or, under read_committed, its last stable offset.
import { KafkaReadError } from './kafka-read-error.ts';
import { listOffsetsAtTime, listPartitionBounds } from './group-less-consumer.ts';
import type { GroupLessConsumer, PartitionBounds } from './group-less-consumer.ts';
import { newPartitionRead } from './partition-read.ts';
import type { PartitionRead } from './partition-read.ts';
import { whilePlatformaticLeadersSettle } from './platformatic-leaders-settle.ts';

export type TopicPartition = { readonly topic: string; readonly partition: number };
export type PartitionStart = TopicPartition & { readonly offset: bigint };

/** Where each partition's read starts. */
export type ReadFrom = 'beginning' | { readonly timestampMs: number } | { readonly offsets: readonly PartitionStart[] };

/** Every partition of each topic, or the partitions listed. */
export type RangePartitions = { readonly topics: readonly string[]; readonly partitions?: never } | { readonly partitions: readonly TopicPartition[]; readonly topics?: never };

export type RangePlanOptions = {
  readonly from: ReadFrom;
  readonly warn: (message: string) => void;
  /** How long leaders not yet known are waited for (KAFKA_DEFAULTS.topics.leaderWaitMs). */
  readonly leaderWaitMs?: number | undefined;
};

export async function planRange(consumer: GroupLessConsumer, which: RangePartitions, options: RangePlanOptions): Promise<PartitionRead[]> {
  const settle = <T>(request: () => Promise<T>) => whilePlatformaticLeadersSettle(request, options.leaderWaitMs === undefined ? {} : { timeoutMs: options.leaderWaitMs });
  const topics = which.topics !== undefined ? [...new Set(which.topics)] : [...new Set(which.partitions.map(({ topic }) => topic))];
  // Tracked, so that the client can name topics by id and back on brokers whose Fetch predates topic ids.
  consumer.topics.trackAll(...topics);
  const metadata = await settle(() => consumer.metadata({ topics }));
  const partitionCount = (topic: string) => metadata.topics.get(topic)?.partitionsCount ?? 0;
  const wanted: TopicPartition[] = which.topics !== undefined ? topics.flatMap((topic) => Array.from({ length: partitionCount(topic) }, (_, partition) => ({ topic, partition }))) : dedupe(which.partitions);
  for (const { topic, partition } of wanted) {
    if (partition >= partitionCount(topic)) throw new KafkaReadError(`the topic '${topic}' has no partition ${partition} (it has ${partitionCount(topic)}); read only partitions that exist`, { topic, partition });
  }
  const byTopic: Record<string, number[]> = {};
  for (const { topic, partition } of wanted) (byTopic[topic] ??= []).push(partition);
  const bounds = await settle(() => listPartitionBounds(consumer, byTopic));
  const from = options.from;
  const atTime = typeof from === 'object' && 'timestampMs' in from ? await settle(() => listOffsetsAtTime(consumer, byTopic, from.timestampMs)) : undefined;
  return wanted.map(({ topic, partition }) => {
    const bound = bounds.get(topic)?.get(partition);
    if (bound === undefined) throw new KafkaReadError(`Kafka listed no offsets for ${topic}[${partition}]`, { topic, partition, canRetry: true });
    const start = from === 'beginning' ? bound.low : atTime !== undefined ? (atTime.get(topic)?.get(partition) ?? bound.high) : givenStart(topic, partition, from, bound, options.warn);
    return newPartitionRead(topic, partition, start, bound.high);
  });
}

function givenStart(topic: string, partition: number, from: ReadFrom, bound: PartitionBounds, warn: (message: string) => void): bigint {
  const given = typeof from === 'object' && 'offsets' in from ? from.offsets.find((start) => start.topic === topic && start.partition === partition) : undefined;
  if (given === undefined) throw new KafkaReadError(`no start offset was given for ${topic}[${partition}]: list one in from.offsets for every partition read`, { topic, partition });
  if (given.offset < bound.low) {
    warn(`offset ${given.offset} of ${topic}[${partition}] is no longer on the topic (retention deleted it): reading from ${bound.low}, where the partition now starts`);
    return bound.low;
  }
  if (given.offset > bound.high) {
    warn(`offset ${given.offset} of ${topic}[${partition}] is past the partition's end (${bound.high}): reading from there`);
    return bound.high;
  }
  return given.offset;
}

function dedupe(partitions: readonly TopicPartition[]): TopicPartition[] {
  const seen = new Set<string>();
  return partitions.filter(({ topic, partition }) => {
    const key = `${topic}\u0000${partition}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
