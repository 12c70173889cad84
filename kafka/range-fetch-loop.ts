// The fetching half of a group-less read (read-range.ts) and of the group consumer
// (platformatic-consumer.ts): the partitions are grouped by their leader, one fetch is in flight
// per broker, and a partition whose messages are with the handler (or that its owner holds, a
// pause) is left out of the next fetch until the handler is done — back-pressure, and at most one
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
  /** How long a fetch waits at the broker when none of its partitions has anything. */
  readonly maxWaitMs: number;
  /**
   * The wait instead when a partition of the same broker is left out because its handler holds
   * it: that partition is fetched only after this fetch returns, so a long wait on idle partitions
   * would hold a busy one back (default maxWaitMs).
   */
  readonly busyMaxWaitMs?: number;
  /** A partition this says is held (paused) is not fetched; wake() once it is not. */
  readonly isHeld?: (read: PartitionRead) => boolean;
  /** Hands a partition's messages to the handler; the partition is fetched again once this settles. */
  readonly deliver: (read: PartitionRead, messages: ConsumedMessage[]) => Promise<void>;
  /** The partition reached where it stood at start, its messages up to there delivered. */
  readonly reachedTarget: (read: PartitionRead) => void;
  readonly warn: (message: string) => void;
  /** The read cannot go on. */
  readonly fail: (error: Error) => void;
};

export type FetchLoop = {
  /** Fetches what may be fetched now (after a held partition was let go, or a read was rewound). */
  wake(): void;
  /** No fetch or delivery is started after this; resolves once the deliveries under way settled. */
  stop(): Promise<void>;
};

const partitionName = (read: PartitionRead) => `${read.topic}[${read.partition}]`;
const namesOf = (reads: readonly PartitionRead[]) => reads.map(partitionName).join(', ');

export function startFetchLoop(options: FetchLoopOptions): FetchLoop {
  const loop = new PartitionFetchLoop(options);
  loop.start();
  return { wake: () => loop.pump(), stop: () => loop.stop() };
}

class PartitionFetchLoop {
  readonly #options: FetchLoopOptions;
  readonly #leaders = new Map<PartitionRead, PartitionLeader>();
  readonly #busyNodes = new Set<number>();
  /** Held back after a retriable failure until fresh metadata names their leaders. */
  readonly #waiting: Set<PartitionRead>;
  readonly #deliveries = new Set<Promise<void>>();
  readonly #topics: string[];
  #failures = 0;
  #recovery: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: FetchLoopOptions) {
    this.#options = options;
    this.#waiting = new Set(options.reads);
    this.#topics = [...new Set(options.reads.map((read) => read.topic))];
  }

  start(): void {
    this.#refreshLeaders().then(this.pump, (error: unknown) => {
      if (isRetriablePlatformaticError(error)) this.#retryLater([], error, `the metadata of ${this.#topics.join(', ')}`);
      else this.#fail(new KafkaReadError(`could not read ${this.#topics.join(', ')}: ${describePlatformaticError(error)}; check that the topics exist`, { cause: error }));
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#recovery);
    await Promise.allSettled([...this.#deliveries]);
  }

  readonly pump = (): void => {
    if (this.#stopped) return;
    const { endAtTarget, isHeld } = this.#options;
    const byNode = new Map<number, PartitionRead[]>();
    for (const read of this.#options.reads) {
      if (read.delivering || read.fetching || this.#waiting.has(read) || (endAtTarget && read.reachedTarget) || isHeld?.(read) === true) continue;
      const node = this.#leaders.get(read)?.node ?? -1;
      if (node < 0) {
        this.#retryLater([read], new Error('no leader known'), partitionName(read));
        continue;
      }
      if (this.#busyNodes.has(node)) continue;
      byNode.set(node, [...(byNode.get(node) ?? []), read]);
    }
    for (const [node, candidates] of byNode) {
      const alone = candidates.find((read) => read.fetchAlone);
      void this.#fetchFrom(node, alone === undefined ? candidates : [alone]);
    }
  };

  readonly #fail = (error: Error) => {
    if (this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#recovery);
    this.#options.fail(error);
  };

  readonly #noteProgress = (read: PartitionRead) => {
    if (read.reachedTarget || read.next < read.target) return;
    read.reachedTarget = true;
    this.#options.reachedTarget(read);
  };

  async #refreshLeaders(): Promise<void> {
    const metadata = await this.#options.consumer.metadata({ topics: this.#topics, forceUpdate: true });
    for (const read of this.#options.reads) {
      const topic = metadata.topics.get(read.topic);
      this.#leaders.set(read, { node: topic?.partitions[read.partition]?.leader ?? -1, topicId: topic?.id ?? '' });
    }
    for (const read of [...this.#waiting]) if ((this.#leaders.get(read)?.node ?? -1) >= 0) this.#waiting.delete(read);
  }

  // One recovery at a time: a pause, fresh metadata, and the held partitions go again.
  readonly #retryLater = (held: readonly PartitionRead[], error: unknown, where: string) => {
    for (const read of held) this.#waiting.add(read);
    this.#failures += 1;
    if (this.#failures === 1) this.#options.warn(`reading ${where} failed (${describePlatformaticError(error)}); retrying until Kafka answers`);
    if (this.#recovery !== undefined || this.#stopped) return;
    const timings = KAFKA_DEFAULTS.groupLessReads;
    const pause = backoffDelayMs({ firstDelayMs: timings.retryDelayMs, maxDelayMs: timings.maxRetryDelayMs }, this.#failures);
    this.#recovery = setTimeout(() => {
      this.#recovery = undefined;
      this.#refreshLeaders().then(
        () => (this.#waiting.size > 0 ? this.#retryLater([], new Error('no leader known yet'), namesOf([...this.#waiting])) : this.pump()),
        (refreshError: unknown) => {
          if (isRetriablePlatformaticError(refreshError)) this.#retryLater([], refreshError, `the metadata of ${this.#topics.join(', ')}`);
          else this.#fail(new KafkaReadError(`could not read ${this.#topics.join(', ')}: ${describePlatformaticError(refreshError)}; check that the topics exist and that this client may read them`, { cause: refreshError }));
        },
      );
    }, pause);
  };

  #handOver(read: PartitionRead, messages: ConsumedMessage[]): void {
    read.delivering = true;
    const delivery = this.#options.deliver(read, messages).then(
      () => {
        read.delivering = false;
        // Stopped meanwhile: the handler may not have seen these messages, so they count for nothing.
        if (this.#stopped) return;
        this.#noteProgress(read);
        this.pump();
      },
      (error: unknown) => {
        read.delivering = false;
        const first = messages[0]?.offset;
        const last = messages.at(-1)?.offset;
        this.#fail(new KafkaReadError(`the handler of ${partitionName(read)} failed on offsets ${first}–${last}: ${error instanceof Error ? error.message : String(error)}`, { topic: read.topic, partition: read.partition, cause: error }));
      },
    );
    this.#deliveries.add(delivery);
    void delivery.finally(() => this.#deliveries.delete(delivery));
  }

  /**
   * Applies the answer to each partition of the request whose position did not move meanwhile (a
   * rewound one is fetched again) and that was not held meanwhile (a paused one is fetched again
   * from the same offset once let go).
   */
  #take(group: readonly PartitionRead[], epochs: readonly number[], response: FetchResponse): void {
    const answers = new Map(response.responses.flatMap((topic) => topic.partitions.map((answer) => [`${topic.topicId}:${answer.partitionIndex}`, answer] as const)));
    const { isolation, endAtTarget, isHeld } = this.#options;
    group.forEach((read, index) => {
      if (read.epoch !== epochs[index] || isHeld?.(read) === true) return;
      const answer = answers.get(`${this.#leaders.get(read)?.topicId}:${read.partition}`);
      const messages = takeFetchedPartition(read, answer, { committed: isolation === 'read_committed', fetchedAlone: group.length === 1, before: endAtTarget ? read.target : undefined });
      if (messages.length > 0) this.#handOver(read, messages);
      else this.#noteProgress(read);
    });
  }

  /** The broker's wait for data: short while a partition of this broker is with its handler (it waits for this fetch to return). */
  #maxWaitFor(node: number): number {
    const { maxWaitMs, busyMaxWaitMs } = this.#options;
    if (busyMaxWaitMs === undefined) return maxWaitMs;
    const busy = this.#options.reads.some((read) => read.delivering && this.#leaders.get(read)?.node === node);
    return busy ? busyMaxWaitMs : maxWaitMs;
  }

  async #fetchFrom(node: number, group: readonly PartitionRead[]): Promise<void> {
    const { consumer, maxBytesPerPartition, isolation } = this.#options;
    this.#busyNodes.add(node);
    for (const read of group) read.fetching = true;
    const epochs = group.map((read) => read.epoch);
    try {
      const response = await consumer.fetch({
        node,
        topics: requestOf(group, this.#leaders, maxBytesPerPartition),
        maxWaitTime: this.#maxWaitFor(node),
        minBytes: 1,
        maxBytes: maxBytesPerPartition * group.length,
        isolationLevel: isolationLevelOf(isolation),
      });
      if (this.#stopped) return;
      this.#failures = 0;
      this.#take(group, epochs, response);
    } catch (error) {
      if (!this.#stopped) await this.#fetchFailed(node, group, error);
    } finally {
      this.#busyNodes.delete(node);
      for (const read of group) read.fetching = false;
      this.pump();
    }
  }

  async #fetchFailed(node: number, group: readonly PartitionRead[], error: unknown): Promise<void> {
    const context = { consumer: this.#options.consumer, leaders: this.#leaders, warn: this.#options.warn, retryLater: this.#retryLater, fail: this.#fail, noteProgress: this.#noteProgress };
    await handleFetchFailure(context, node, group, error).catch((listError: unknown) => {
      if (isRetriablePlatformaticError(listError)) this.#retryLater(group, listError, namesOf(group));
      else this.#fail(new KafkaReadError(`could not find where ${namesOf(group)} now start: ${describePlatformaticError(listError)}`, { cause: listError }));
    });
  }
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
