// The fetching half of a group-less read (read-range.ts): the partitions are grouped by their
// leader, one fetch is in flight per broker, and a partition whose messages are with the handler
// is left out of the next fetch until the handler is done — back-pressure, and at most one
// fetch's records held per partition. A retriable failure (a leader moving, a broker restarting)
// holds the partitions it touched back, and they are fetched again once fresh metadata names
// their leaders, after a pause that doubles while failures go on; the read gives up only on an
// error that retrying cannot mend (range-fetch-failures.ts sorts them).
import { backoffDelayMs } from '../src/kit/backoff.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import { KafkaReadError } from './kafka-read-error.ts';
import type { ConsumedMessage } from './kafka-records.ts';
import { isolationLevelOf } from './group-less-consumer.ts';
import type { FetchRequestTopic, FetchResponse, GroupLessConsumer, ReadIsolation } from './group-less-consumer.ts';
import { takeFetchedPartition } from './partition-read.ts';
import type { PartitionRead } from './partition-read.ts';
import { describePlatformaticError, isRetriablePlatformaticError } from './platformatic-errors.ts';
import { handleFetchFailure } from './range-fetch-failures.ts';
import type { PartitionLeader } from './range-fetch-failures.ts';

export type FetchLoopOptions = {
  readonly consumer: GroupLessConsumer;
  readonly reads: readonly PartitionRead[];
  readonly isolation: ReadIsolation;
  /** Each partition ends where it stood at start (else the read follows it live). */
  readonly endAtTarget: boolean;
  readonly maxBytesPerPartition: number;
  readonly maxWaitMs: number;
  /** Hands a partition's messages to the handler; the partition is fetched again once this settles. */
  readonly deliver: (read: PartitionRead, messages: ConsumedMessage[]) => Promise<void>;
  /** The partition reached where it stood at start, its messages up to there delivered. */
  readonly reachedTarget: (read: PartitionRead) => void;
  readonly warn: (message: string) => void;
  /** The read cannot go on. */
  readonly fail: (error: Error) => void;
};

export type FetchLoop = {
  /** No fetch or delivery is started after this; resolves once the deliveries under way settled. */
  stop(): Promise<void>;
};

const partitionName = (read: PartitionRead) => `${read.topic}[${read.partition}]`;
const namesOf = (reads: readonly PartitionRead[]) => reads.map(partitionName).join(', ');

export function startFetchLoop(options: FetchLoopOptions): FetchLoop {
  const { consumer, reads } = options;
  const leaders = new Map<PartitionRead, PartitionLeader>();
  const busyNodes = new Set<number>();
  /** Held back after a retriable failure until fresh metadata names their leaders. */
  const waiting = new Set<PartitionRead>(reads);
  const deliveries = new Set<Promise<void>>();
  const timings = KAFKA_DEFAULTS.groupLessReads;
  let failures = 0;
  let recovery: NodeJS.Timeout | undefined;
  let stopped = false;
  const topics = [...new Set(reads.map((read) => read.topic))];

  const fail = (error: Error) => {
    if (stopped) return;
    stopped = true;
    clearTimeout(recovery);
    options.fail(error);
  };

  const noteProgress = (read: PartitionRead) => {
    if (read.reachedTarget || read.next < read.target) return;
    read.reachedTarget = true;
    options.reachedTarget(read);
  };

  const refreshLeaders = async () => {
    const metadata = await consumer.metadata({ topics, forceUpdate: true });
    for (const read of reads) {
      const topic = metadata.topics.get(read.topic);
      leaders.set(read, { node: topic?.partitions[read.partition]?.leader ?? -1, topicId: topic?.id ?? '' });
    }
    for (const read of [...waiting]) if ((leaders.get(read)?.node ?? -1) >= 0) waiting.delete(read);
  };

  // One recovery at a time: a pause, fresh metadata, and the held partitions go again.
  const retryLater = (held: readonly PartitionRead[], error: unknown, where: string) => {
    for (const read of held) waiting.add(read);
    failures += 1;
    if (failures === 1) options.warn(`reading ${where} failed (${describePlatformaticError(error)}); retrying until Kafka answers`);
    if (recovery !== undefined || stopped) return;
    const pause = backoffDelayMs({ firstDelayMs: timings.retryDelayMs, maxDelayMs: timings.maxRetryDelayMs }, failures);
    recovery = setTimeout(() => {
      recovery = undefined;
      refreshLeaders().then(
        () => (waiting.size > 0 ? retryLater([], new Error('no leader known yet'), namesOf([...waiting])) : pump()),
        (refreshError: unknown) => {
          if (isRetriablePlatformaticError(refreshError)) retryLater([], refreshError, `the metadata of ${topics.join(', ')}`);
          else fail(new KafkaReadError(`could not read ${topics.join(', ')}: ${describePlatformaticError(refreshError)}; check that the topics exist and that this client may read them`, { cause: refreshError }));
        },
      );
    }, pause);
  };

  const handOver = (read: PartitionRead, messages: ConsumedMessage[]) => {
    read.delivering = true;
    const delivery = options.deliver(read, messages).then(
      () => {
        read.delivering = false;
        // Stopped meanwhile: the handler may not have seen these messages, so they count for nothing.
        if (stopped) return;
        noteProgress(read);
        pump();
      },
      (error: unknown) => {
        read.delivering = false;
        const first = messages[0]?.offset;
        const last = messages.at(-1)?.offset;
        fail(new KafkaReadError(`the handler of ${partitionName(read)} failed on offsets ${first}–${last}: ${error instanceof Error ? error.message : String(error)}`, { topic: read.topic, partition: read.partition, cause: error }));
      },
    );
    deliveries.add(delivery);
    void delivery.finally(() => deliveries.delete(delivery));
  };

  const take = (group: readonly PartitionRead[], response: FetchResponse) => {
    const answers = new Map(response.responses.flatMap((topic) => topic.partitions.map((answer) => [`${topic.topicId}:${answer.partitionIndex}`, answer] as const)));
    for (const read of group) {
      const answer = answers.get(`${leaders.get(read)?.topicId}:${read.partition}`);
      const messages = takeFetchedPartition(read, answer, { committed: options.isolation === 'read_committed', fetchedAlone: group.length === 1, before: options.endAtTarget ? read.target : undefined });
      if (messages.length > 0) handOver(read, messages);
      else noteProgress(read);
    }
  };

  const fetchFrom = async (node: number, group: readonly PartitionRead[]) => {
    busyNodes.add(node);
    for (const read of group) read.fetching = true;
    try {
      const response = await consumer.fetch({
        node,
        topics: requestOf(group, leaders, options.maxBytesPerPartition),
        maxWaitTime: options.maxWaitMs,
        minBytes: 1,
        maxBytes: options.maxBytesPerPartition * group.length,
        isolationLevel: isolationLevelOf(options.isolation),
      });
      if (stopped) return;
      failures = 0;
      take(group, response);
    } catch (error) {
      if (!stopped) {
        await handleFetchFailure({ consumer, leaders, warn: options.warn, retryLater, fail, noteProgress }, node, group, error).catch((listError: unknown) => {
          if (isRetriablePlatformaticError(listError)) retryLater(group, listError, namesOf(group));
          else fail(new KafkaReadError(`could not find where ${namesOf(group)} now start: ${describePlatformaticError(listError)}`, { cause: listError }));
        });
      }
    } finally {
      busyNodes.delete(node);
      for (const read of group) read.fetching = false;
      pump();
    }
  };

  const pump = () => {
    if (stopped) return;
    const byNode = new Map<number, PartitionRead[]>();
    for (const read of reads) {
      if (read.delivering || read.fetching || waiting.has(read) || (options.endAtTarget && read.reachedTarget)) continue;
      const node = leaders.get(read)?.node ?? -1;
      if (node < 0) {
        retryLater([read], new Error('no leader known'), partitionName(read));
        continue;
      }
      if (busyNodes.has(node)) continue;
      byNode.set(node, [...(byNode.get(node) ?? []), read]);
    }
    for (const [node, candidates] of byNode) {
      const alone = candidates.find((read) => read.fetchAlone);
      void fetchFrom(node, alone === undefined ? candidates : [alone]);
    }
  };

  refreshLeaders().then(pump, (error: unknown) => {
    if (isRetriablePlatformaticError(error)) retryLater([], error, `the metadata of ${topics.join(', ')}`);
    else fail(new KafkaReadError(`could not read ${topics.join(', ')}: ${describePlatformaticError(error)}; check that the topics exist`, { cause: error }));
  });

  return {
    async stop() {
      stopped = true;
      clearTimeout(recovery);
      await Promise.allSettled([...deliveries]);
    },
  };
}

/** The fetch request of `group`: each partition from its next offset. */
function requestOf(group: readonly PartitionRead[], leaders: ReadonlyMap<PartitionRead, PartitionLeader>, maxBytesPerPartition: number): FetchRequestTopic[] {
  const byTopic = new Map<string, FetchRequestTopic>();
  for (const read of group) {
    const topicId = leaders.get(read)?.topicId ?? '';
    const topic = byTopic.get(topicId) ?? { topicId, partitions: [] };
    // No leader epochs: the read does not detect log truncation, and a stale epoch would only fail the fetch.
    topic.partitions.push({ partition: read.partition, fetchOffset: read.next, partitionMaxBytes: maxBytesPerPartition, currentLeaderEpoch: -1, lastFetchedEpoch: -1 });
    byTopic.set(topicId, topic);
  }
  return [...byTopic.values()];
}
