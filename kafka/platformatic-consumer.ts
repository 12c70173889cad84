// The seam's group consumer (kafka-transport.ts) on @platformatic/kafka, built as Kafka's own
// consumer is: the library's Consumer keeps the group membership (join, heartbeats, the
// assignment, commits), and the assigned partitions are fetched by the project's fetch loop
// (range-fetch-loop.ts), which fetches a partition only when its handler is done with the last
// batch and it is not paused — per-partition back-pressure, no messages held beyond one fetch per
// partition, and pause, resume and seek are positions of the partition's read, not a stream to
// replace. What happens when:
//   - a join (the first, or after a rebalance): every assigned partition reads from the group's
//     commit (where none, from its start or its end, as `fromBeginning` says); batches handed over
//     before are stale;
//   - a batch handler returns with messages unresolved (a pause, a retry not yet due, a stop):
//     the partition reads again from the first of them;
//   - a fetch fails for a passing reason (a leader moving, a broker restarting): the loop retries;
//     for any other reason, or when the group cannot be re-joined, the consumer restarts from the
//     group's commits, up to `retries` times in a row; a refusal (an ACL revoked, a login no
//     longer valid) crashes it for good at once, and the service stops with the ACL to grant.
import { Consumer, FetchIsolationLevels, ListOffsetTimestamps } from '@platformatic/kafka';
import { backoffDelayMs } from '../src/kit/backoff.ts';
import { CallLimiter } from '../src/kit/call-limiter.ts';
import { isKafkaAccessRefusal } from './kafka-access-error.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import type { BatchControl, GroupConsumer, GroupConsumerOptions, GroupConsumerRun, PartitionOffset } from './kafka-transport.ts';
import { newPartitionRead, rewindRead } from './partition-read.ts';
import type { PartitionRead } from './partition-read.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';
import { startFetchLoop } from './range-fetch-loop.ts';
import type { FetchLoop } from './range-fetch-loop.ts';
import type { ConsumedMessage } from './kafka-records.ts';

export type PlatformaticConsumerOptions = GroupConsumerOptions & {
  connection: PlatformaticConnection;
  /** How long a fetch waits at the broker when none of its partitions has anything (tests shorten it). */
  fetchMaxWaitMs?: number;
};

type LibraryConsumer = Consumer<Buffer, Buffer, Buffer, Buffer>;

export function platformaticGroupConsumer(options: PlatformaticConsumerOptions): GroupConsumer {
  const consumer: LibraryConsumer = new Consumer({
    ...options.connection,
    groupId: options.groupId,
    sessionTimeout: options.sessionTimeoutMs,
    heartbeatInterval: options.heartbeatIntervalMs,
    retries: options.retries,
    retryDelay: KAFKA_DEFAULTS.platformatic.retryDelayMs,
    autocommit: false,
    isolationLevel: FetchIsolationLevels.READ_COMMITTED,
  });
  return new PlatformaticGroupConsumer(consumer, options);
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
const keyOf = (topic: string, partition: number) => `${topic}:${partition}`;

/** This member's partitions while it holds an assignment, and the loop fetching them. */
type Assignment = { readonly reads: ReadonlyMap<string, PartitionRead>; readonly loop: FetchLoop };

class PlatformaticGroupConsumer implements GroupConsumer {
  readonly #consumer: LibraryConsumer;
  readonly #options: PlatformaticConsumerOptions;
  #run: GroupConsumerRun | undefined;
  #limit: CallLimiter | undefined;
  #running = false;
  #assignment: Assignment | undefined;
  /** Bumped by every rebalance, join and stop: a batch handed over before is stale, a join computed before is dropped. */
  #generation = 0;
  /** Failures in a row without a join since. */
  #failures = 0;
  readonly #pausedTopics = new Set<string>();
  readonly #pausedPartitions = new Set<string>();
  /**
   * Pauses of a batch's handler (BatchControl.pause) not resumed yet, by partition, in this
   * assignment: a join starts without any (a handler of the assignment before may never resume
   * its own, as the retry gate replaces a partition's timer when a new batch comes).
   */
  readonly #holds = new Map<string, number>();

  constructor(consumer: LibraryConsumer, options: PlatformaticConsumerOptions) {
    this.#consumer = consumer;
    this.#options = options;
    consumer.on('consumer:group:rebalance', () => {
      this.#endAssignment();
      options.events.rebalancing?.();
    });
    consumer.on('consumer:group:join', () => void this.#joined());
    // A re-join that failed: the library sends no more heartbeats.
    consumer.on('error', (error: Error) => this.#failed(error, () => this.#consumer.joinGroup({}).then(() => undefined)));
  }

  async run(run: GroupConsumerRun): Promise<void> {
    this.#run = run;
    this.#limit = new CallLimiter(run.partitionsConsumedConcurrently);
    this.#running = true;
    this.#consumer.topics.trackAll(...run.topics);
    await this.#consumer.joinGroup({});
  }

  pause(topics: ReadonlyArray<{ topic: string; partitions?: number[] }>): void {
    for (const { topic, partitions } of topics) {
      if (partitions === undefined) this.#pausedTopics.add(topic);
      else for (const partition of partitions) this.#pausedPartitions.add(keyOf(topic, partition));
    }
  }

  seek(position: PartitionOffset): void {
    // Not running, or between a rebalance and the next join: the join reads from the group's commits.
    const read = this.#assignment?.reads.get(keyOf(position.topic, position.partition));
    if (!this.#running || read === undefined) return;
    rewindRead(read, BigInt(position.offset));
    this.#assignment?.loop.wake();
  }

  async commitOffsets(offsets: readonly PartitionOffset[]): Promise<void> {
    // leaderEpoch -1: no epoch check (kafkajs sends none either).
    await this.#consumer.commit({ offsets: offsets.map(({ topic, partition, offset }) => ({ topic, partition, offset: BigInt(offset), leaderEpoch: -1 })) });
  }

  async disconnect(): Promise<void> {
    this.#running = false;
    this.#endAssignment();
    await this.#consumer.close(true);
  }

  /** Stops fetching the partitions of the assignment that ends; their batches under way become stale. */
  #endAssignment(): void {
    this.#generation += 1;
    this.#holds.clear();
    // Not awaited: a handler may wait for the sink's claim to end, which follows this.
    void this.#assignment?.loop.stop();
    this.#assignment = undefined;
  }

  async #joined(): Promise<void> {
    if (!this.#running) return; // stopped, or crashed for good: the service is stopping
    this.#endAssignment();
    const generation = this.#generation;
    const assigned = Object.fromEntries((this.#consumer.assignments ?? []).map(({ topic, partitions }) => [topic, [...partitions]]));
    let reads: Map<string, PartitionRead>;
    try {
      reads = await this.#readsFrom(assigned);
    } catch (error) {
      if (generation === this.#generation) this.#failed(asError(error), () => this.#joined());
      return;
    }
    if (generation !== this.#generation || !this.#running) return;
    this.#failures = 0;
    this.#options.events.joined?.(assigned);
    this.#assignment = { reads, loop: this.#startLoop([...reads.values()], generation) };
  }

  /** Each assigned partition from the group's commit; where there is none, from its start or its end as the run says. */
  async #readsFrom(assigned: Record<string, number[]>): Promise<Map<string, PartitionRead>> {
    const reads = new Map<string, PartitionRead>();
    const topics = Object.keys(assigned);
    if (topics.length === 0) return reads;
    const timestamp = this.#run?.fromBeginning === false ? ListOffsetTimestamps.LATEST : ListOffsetTimestamps.EARLIEST;
    const [committed, fallback] = await Promise.all([
      this.#consumer.listCommittedOffsets({ topics: topics.map((topic) => ({ topic, partitions: assigned[topic]! })) }),
      this.#consumer.listOffsets({ topics, partitions: { ...assigned }, timestamp }),
    ]);
    for (const [topic, partitions] of Object.entries(assigned)) {
      for (const partition of partitions) {
        const commit = committed.get(topic)?.[partition];
        const start = commit !== undefined && commit >= 0n ? commit : fallback.get(topic)?.[partition];
        if (start === undefined) throw new Error(`Kafka listed no offsets for ${topic}[${partition}]; check that the partition exists`);
        reads.set(keyOf(topic, partition), newPartitionRead(topic, partition, start, start));
      }
    }
    return reads;
  }

  #startLoop(reads: PartitionRead[], generation: number): FetchLoop {
    const maxWaitMs = this.#options.fetchMaxWaitMs ?? KAFKA_DEFAULTS.platformatic.fetchMaxWaitMs;
    return startFetchLoop({
      consumer: this.#consumer,
      reads,
      isolation: 'read_committed',
      endAtTarget: false,
      maxBytesPerPartition: this.#options.maxBytesPerPartition,
      maxWaitMs,
      busyMaxWaitMs: Math.min(maxWaitMs, KAFKA_DEFAULTS.platformatic.busyFetchMaxWaitMs),
      isHeld: (read) => this.#isHeld(read),
      deliver: (read, messages) => this.#deliver(read, messages, generation),
      reachedTarget: () => undefined,
      // The loop retries a passing failure by itself; the service's log says when it recovered (a join).
      warn: () => undefined,
      fail: (error) => {
        if (generation === this.#generation) this.#failed(error, () => this.#joined());
      },
    });
  }

  #isHeld(read: PartitionRead): boolean {
    const key = keyOf(read.topic, read.partition);
    return this.#pausedTopics.has(read.topic) || this.#pausedPartitions.has(key) || (this.#holds.get(key) ?? 0) > 0;
  }

  /** One batch to the run's handler, at most partitionsConsumedConcurrently at once; what it left unresolved is fetched again. */
  async #deliver(read: PartitionRead, messages: ConsumedMessage[], generation: number): Promise<void> {
    const run = this.#run;
    const limit = this.#limit;
    if (run === undefined || limit === undefined) return;
    // The position the batch was fetched at: a seek since makes it stale.
    const epoch = read.epoch;
    let resolved: bigint | undefined;
    await limit.run(async () => {
      if (!this.#running || generation !== this.#generation || read.epoch !== epoch) return;
      const control = this.#controlOf(read, generation, epoch, (offset) => (resolved = offset));
      try {
        await run.eachBatch({ topic: read.topic, partition: read.partition, messages, highWatermark: read.end.toString() }, control);
      } catch (error) {
        // As kafkajs does with a throwing eachBatch: the unresolved messages are delivered again.
        this.#options.events.crashed?.(asError(error), true);
      }
    });
    const next = resolved === undefined ? BigInt(messages[0]!.offset) : resolved + 1n;
    if (read.epoch === epoch && next < read.next) rewindRead(read, next);
  }

  #controlOf(read: PartitionRead, generation: number, epoch: number, resolve: (offset: bigint) => void): BatchControl {
    const key = keyOf(read.topic, read.partition);
    const stale = () => generation !== this.#generation || read.epoch !== epoch;
    return {
      pause: () => {
        this.#holds.set(key, (this.#holds.get(key) ?? 0) + 1);
        let resumed = false;
        return () => {
          if (resumed || generation !== this.#generation) return;
          resumed = true;
          const holds = (this.#holds.get(key) ?? 1) - 1;
          if (holds > 0) this.#holds.set(key, holds);
          else this.#holds.delete(key);
          this.#assignment?.loop.wake();
        };
      },
      // The library heartbeats on its own timer, whatever the handlers do.
      heartbeat: async () => undefined,
      isRunning: () => this.#running,
      isStale: stale,
      resolveOffset: (offset) => {
        if (!stale()) resolve(BigInt(offset));
      },
    };
  }

  /**
   * The group could not be re-joined, or the assignment could not be read: `recover` is tried
   * again after a pause that doubles; after `retries` failures in a row, or at once when Kafka
   * refused access, the consumer crashed for good. A refusal is not retried: the group may still
   * let the member join, and the first fetch is refused again.
   */
  #failed(error: Error, recover: () => Promise<void>): void {
    if (!this.#running) return;
    this.#failures += 1;
    const restarting = this.#failures <= this.#options.retries && !isKafkaAccessRefusal(error);
    if (!restarting) {
      this.#running = false;
      this.#endAssignment();
    }
    this.#options.events.crashed?.(error, restarting);
    if (!restarting) return;
    const { retryDelayMs, maxRestartDelayMs } = KAFKA_DEFAULTS.platformatic;
    const delay = backoffDelayMs({ firstDelayMs: retryDelayMs, maxDelayMs: maxRestartDelayMs }, this.#failures);
    setTimeout(() => {
      if (this.#running) recover().catch((recoverError: unknown) => this.#failed(asError(recoverError), recover));
    }, delay).unref();
  }
}
