// Reads a range of one or more topics without a consumer group: the readers that rebuild state
// from Kafka (a changelog partition restored, the feedback join's and the monitor's topics read
// back, the dashboard's view filled and then followed live). A consumer group joined only to
// read costs seconds per read and an ACL prefix per reader; a read that only reads needs none, as
// Kafka Streams' restore consumer assigns and never subscribes. Where each partition starts and
// ends is fixed when the read starts (range-plan.ts); fetching, back-pressure and recovery are the
// fetch loop's (range-fetch-loop.ts); read_committed is applied across fetches
// (aborted-transactions.ts). One Consumer per read, never joined, closed when the read ends.
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import { KafkaReadError } from './kafka-read-error.ts';
import type { ConsumedMessage } from './kafka-records.ts';
import { createGroupLessConsumer } from './group-less-consumer.ts';
import type { ReadIsolation } from './group-less-consumer.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';
import { describePlatformaticError } from './platformatic-errors.ts';
import { planRange } from './range-plan.ts';
import type { RangePartitions, ReadFrom } from './range-plan.ts';
import { startFetchLoop } from './range-fetch-loop.ts';
import type { FetchLoop } from './range-fetch-loop.ts';

export type { PartitionStart, ReadFrom, TopicPartition } from './range-plan.ts';
export type { ReadIsolation } from './group-less-consumer.ts';

/** 'end-at-start': each partition ends where it stood when the read started. 'follow': the read goes on live after that. */
export type ReadUntil = 'end-at-start' | 'follow';

export type ReadRangeOptions = RangePartitions & {
  readonly from: ReadFrom;
  readonly until: ReadUntil;
  /**
   * A partition's next messages, in offset order (never empty). The partition is not fetched
   * again until the returned promise settles; a handler that throws ends the read (done rejects).
   */
  readonly onBatch: (topic: string, partition: number, messages: ConsumedMessage[]) => void | Promise<void>;
  /** Default read_committed: aborted transactions are never delivered, and the end is the last stable offset. */
  readonly isolation?: ReadIsolation;
  /** Told what the read did about trouble it got over: a start retention deleted, a broker that failed for a while. */
  readonly onWarning?: (message: string) => void;
  /** Default KAFKA_DEFAULTS.groupLessReads.maxBytesPerPartition; the broker still sends one larger first batch. */
  readonly maxBytesPerPartition?: number;
  /** Default KAFKA_DEFAULTS.groupLessReads.fetchMaxWaitMs. */
  readonly fetchMaxWaitMs?: number;
  /** How long leaders not yet known at the start are waited for (default KAFKA_DEFAULTS.topics.leaderWaitMs). */
  readonly leaderWaitMs?: number;
};

export type RangeRead = {
  /** Resolves once every partition was read (and handled) up to where it stood when the read started; rejects when the read failed or was stopped first. */
  readonly caughtUp: Promise<void>;
  /** end-at-start: resolves when every partition was read to its end; follow: when stopped. Rejects with a KafkaReadError when the read could not go on. */
  readonly done: Promise<void>;
  /** Stops the read: no handler is called after it resolves; `done` resolves. */
  stop(): Promise<void>;
};

type Deferred = { promise: Promise<void>; resolve(): void; reject(error: Error): void; settled: boolean };

function deferred(): Deferred {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((onResolve, onReject) => ((resolve = onResolve), (reject = onReject)));
  // Marked handled: a caller that awaits only `done` must not see `caughtUp`'s rejection as unhandled.
  promise.catch(() => undefined);
  const entry: Deferred = { promise, settled: false, resolve: () => ((entry.settled = true), resolve()), reject: (error) => ((entry.settled = true), reject(error)) };
  return entry;
}

function validate(options: ReadRangeOptions): void {
  const listed = options.topics ?? options.partitions;
  if (listed === undefined || listed.length === 0) throw new TypeError('readRange: options.topics (every partition of each) or options.partitions ({ topic, partition } list) must name at least one');
  if (options.until !== 'end-at-start' && options.until !== 'follow') throw new TypeError(`readRange: options.until must be 'end-at-start' or 'follow', got ${String(options.until)}`);
  if (typeof options.onBatch !== 'function') throw new TypeError('readRange: options.onBatch must be a function taking (topic, partition, messages)');
  const from = options.from;
  if (from !== 'beginning' && !(typeof from === 'object' && from !== null && (Number.isFinite((from as { timestampMs?: unknown }).timestampMs) || Array.isArray((from as { offsets?: unknown }).offsets)))) {
    throw new TypeError("readRange: options.from must be 'beginning', { timestampMs } or { offsets: [{ topic, partition, offset }] }");
  }
}

/** Starts reading at once; throws a TypeError for options that cannot work. */
export function readRange(connection: PlatformaticConnection, options: ReadRangeOptions): RangeRead {
  validate(options);
  const isolation = options.isolation ?? 'read_committed';
  const warn = (message: string) => options.onWarning?.(message);
  const consumer = createGroupLessConsumer(connection, isolation);
  const caughtUp = deferred();
  const done = deferred();
  let loop: FetchLoop | undefined;
  let ending: Promise<void> | undefined;

  // The first end wins: finished, failed or stopped. The consumer is closed once no handler runs.
  const end = (error?: Error) => {
    ending ??= (async () => {
      await loop?.stop();
      await consumer.close().catch(() => undefined);
      if (error !== undefined) {
        if (!caughtUp.settled) caughtUp.reject(error);
        done.reject(error);
        return;
      }
      if (!caughtUp.settled) caughtUp.reject(new KafkaReadError(`the read of ${describeTargets(options)} was stopped before it caught up`));
      done.resolve();
    })();
    return ending;
  };

  void (async () => {
    try {
      const reads = await planRange(consumer, options, { from: options.from, warn, leaderWaitMs: options.leaderWaitMs });
      if (ending !== undefined) return;
      let behind = reads.filter((read) => !read.reachedTarget).length;
      const reachedTarget = () => {
        behind -= 1;
        if (behind > 0) return;
        caughtUp.resolve();
        if (options.until === 'end-at-start') void end();
      };
      if (behind === 0) {
        behind = 1;
        reachedTarget();
        if (options.until === 'end-at-start') return;
      }
      const endAtTarget = options.until === 'end-at-start';
      loop = startFetchLoop({
        consumer,
        reads: endAtTarget ? reads.filter((read) => !read.reachedTarget) : reads,
        isolation,
        endAtTarget,
        maxBytesPerPartition: options.maxBytesPerPartition ?? KAFKA_DEFAULTS.groupLessReads.maxBytesPerPartition,
        maxWaitMs: options.fetchMaxWaitMs ?? KAFKA_DEFAULTS.groupLessReads.fetchMaxWaitMs,
        deliver: async (read, messages) => {
          if (ending === undefined) await options.onBatch(read.topic, read.partition, messages);
        },
        reachedTarget,
        warn,
        fail: (error) => void end(error),
      });
    } catch (error) {
      const cause = KafkaReadError.isInstance(error) ? error : new KafkaReadError(`could not start reading ${describeTargets(options)}: ${describePlatformaticError(error)}; check that the topics exist and that this client may read them`, { cause: error });
      void end(cause);
    }
  })();

  return {
    caughtUp: caughtUp.promise,
    done: done.promise,
    stop: () => end(),
  };
}

function describeTargets(options: RangePartitions): string {
  return options.topics !== undefined ? options.topics.join(', ') : options.partitions.map(({ topic, partition }) => `${topic}[${partition}]`).join(', ');
}
