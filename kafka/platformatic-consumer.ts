// The seam's group consumer (kafka-transport.ts) on @platformatic/kafka. Its consumer offers one
// message stream for all assigned partitions, with no per-partition pause and no seek, and
// heartbeats by itself; the seam wants kafkajs-like batches per partition. So the messages are
// queued per partition and handed over as batches (a partition at a time per handler, at most
// `partitionsConsumedConcurrently` at once). This file hands the batches over and answers the
// group's joins and the stream's failures; the parts beside it:
//   - pause and memory: the queues (platformatic-partition-queues.ts) hold a paused partition's
//     messages for its resume, and pause the stream past `maxQueuedMessages`;
//   - seek, a join and a failed stream: the stream is replaced by a new one that starts where each
//     partition should (platformatic-replaceable-stream.ts);
//   - a stream refused access (an ACL revoked, a login no longer valid) is not replaced: the
//     consumer crashes for good, as kafkajs' does, and the service stops with the ACL to grant;
//   - lag: the partitions' latest offsets go with each batch (platformatic-high-watermarks.ts).
import { Consumer } from '@platformatic/kafka';
import type { ConsumerOptions, Message } from '@platformatic/kafka';
import { backoffDelayMs } from '../src/kit/backoff.ts';
import { isKafkaAccessRefusal } from './kafka-access-error.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import type { BatchControl, GroupConsumer, GroupConsumerOptions, GroupConsumerRun, PartitionOffset } from './kafka-transport.ts';
import { HighWatermarks } from './platformatic-high-watermarks.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';
import { PartitionQueues } from './platformatic-partition-queues.ts';
import type { PartitionQueue } from './platformatic-partition-queues.ts';
import { ReplaceableStream } from './platformatic-replaceable-stream.ts';
import type { StreamSink } from './platformatic-replaceable-stream.ts';

/** What of the library's Consumer this consumer uses (tests hand a fake in). */
export type PlatformaticConsumerLike = Pick<Consumer<Buffer, Buffer, Buffer, Buffer>, 'assignments' | 'consume' | 'commit' | 'listCommittedOffsets' | 'listOffsets' | 'close' | 'on'>;

export type PlatformaticConsumerOptions = GroupConsumerOptions & {
  connection: PlatformaticConnection;
  fetchMaxWaitMs?: number;
  maxQueuedMessages?: number;
  /** The library's consumer (default: a new @platformatic/kafka Consumer). */
  createConsumer?: (options: ConsumerOptions<Buffer, Buffer, Buffer, Buffer>) => PlatformaticConsumerLike;
};

export function platformaticGroupConsumer(options: PlatformaticConsumerOptions): GroupConsumer {
  const consumer = (options.createConsumer ?? ((consumerOptions) => new Consumer(consumerOptions)))({
    ...options.connection,
    groupId: options.groupId,
    sessionTimeout: options.sessionTimeoutMs,
    heartbeatInterval: options.heartbeatIntervalMs,
    maxBytesPerPartition: options.maxBytesPerPartition,
    maxWaitTime: options.fetchMaxWaitMs ?? KAFKA_DEFAULTS.platformatic.fetchMaxWaitMs,
    retries: options.retries,
    retryDelay: KAFKA_DEFAULTS.platformatic.retryDelayMs,
    autocommit: false,
  });
  return new PlatformaticGroupConsumer(consumer, options);
}

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

class PlatformaticGroupConsumer implements GroupConsumer, StreamSink {
  readonly #consumer: PlatformaticConsumerLike;
  readonly #options: PlatformaticConsumerOptions;
  readonly #queues: PartitionQueues;
  readonly #stream: ReplaceableStream;
  readonly #highWatermarks: HighWatermarks;
  #run: GroupConsumerRun | undefined;
  #running = false;
  /** Batches being handled now. */
  #handling = 0;
  /** Stream failures in a row. */
  #failures = 0;
  #scheduled = false;

  constructor(consumer: PlatformaticConsumerLike, options: PlatformaticConsumerOptions) {
    this.#consumer = consumer;
    this.#options = options;
    this.#queues = new PartitionQueues(options.maxQueuedMessages ?? KAFKA_DEFAULTS.platformatic.maxQueuedMessages, { pause: () => this.#stream.pause(), resume: () => this.#stream.resume() });
    this.#stream = new ReplaceableStream({ consumer, settings: options, queues: this.#queues, sink: this });
    this.#highWatermarks = new HighWatermarks(consumer, () => this.#running);
    consumer.on('consumer:group:rebalance', () => options.events.rebalancing?.());
    consumer.on('consumer:group:join', () => this.#joined());
  }

  async run(run: GroupConsumerRun): Promise<void> {
    this.#run = run;
    this.#running = true;
    await this.#stream.start(run);
    this.#highWatermarks.watch();
  }

  pause(topics: ReadonlyArray<{ topic: string; partitions?: number[] }>): void {
    this.#queues.pause(topics);
    if (this.#run !== undefined && this.#queues.allPaused(this.#run.topics)) this.#stream.pause();
  }

  seek(position: PartitionOffset): void {
    // Stopped or crashed for good: dropped, as kafkajs drops it (a run starts from the group's commits).
    if (!this.#running) return;
    void this.#stream.seek(position.topic, position.partition, BigInt(position.offset)).catch(this.#replaceFailed);
  }

  async commitOffsets(offsets: readonly PartitionOffset[]): Promise<void> {
    // leaderEpoch -1: no epoch check (kafkajs sends none either).
    await this.#consumer.commit({ offsets: offsets.map(({ topic, partition, offset }) => ({ topic, partition, offset: BigInt(offset), leaderEpoch: -1 })) });
  }

  async disconnect(): Promise<void> {
    this.#running = false;
    this.#highWatermarks.stop();
    await this.#stream.close();
    await this.#consumer.close(true);
  }

  isRunning(): boolean {
    return this.#running;
  }

  /** A message of the current stream. */
  enqueue(message: Message<Buffer, Buffer, Buffer, Buffer>): void {
    if (this.#queues.push(message)) this.#scheduleSoon();
  }

  /**
   * A stream that failed (a broker gone for longer than the client's retries) is replaced; after
   * `retries` failures in a row, or at once when Kafka refused access, the consumer crashed for
   * good. A refusal must not be retried: the replacement's consume() succeeds (the group still
   * lets it join) and its first fetch is refused again, so it would be replaced for ever.
   */
  async streamFailed(error: Error): Promise<void> {
    if (!this.#running) return;
    this.#failures += 1;
    const restarting = this.#failures <= this.#options.retries && !isKafkaAccessRefusal(error);
    // Stopped, as a crashed kafkajs consumer is: no batch is handed over, no join or seek opens a stream again.
    if (!restarting) this.#running = false;
    this.#options.events.crashed?.(error, restarting);
    if (!restarting) return;
    this.#stream.forget();
    const { retryDelayMs, maxRestartDelayMs } = KAFKA_DEFAULTS.platformatic;
    await new Promise((resolve) => setTimeout(resolve, backoffDelayMs({ firstDelayMs: retryDelayMs, maxDelayMs: maxRestartDelayMs }, this.#failures)));
    if (!this.#running) return;
    // Read again from the group's commit: the claims of the consumed partitions end with this "join".
    await this.#stream.replace(false).then(
      () => {
        this.#failures = 0;
        this.#options.events.joined?.(this.#assignment());
      },
      (replaceError: unknown) => void this.streamFailed(asError(replaceError)),
    );
  }

  readonly #replaceFailed = (error: unknown) => void this.streamFailed(asError(error));

  #joined(): void {
    if (!this.#running) return; // stopped, or crashed for good: the service is stopping
    // Every partition reads again from the group's commit (the sinks dropped what was not committed).
    this.#queues.outdate();
    if (this.#stream.opened) void this.#stream.replace(false).catch(this.#replaceFailed);
    void this.#highWatermarks.refresh();
    this.#options.events.joined?.(this.#assignment());
  }

  #assignment(): Record<string, number[]> {
    return Object.fromEntries((this.#consumer.assignments ?? []).map((assignment) => [assignment.topic, [...assignment.partitions]]));
  }

  // After the messages of one fetch answer were all queued (the stream emits them in one go): one batch, not one per message.
  #scheduleSoon(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(this.#scheduleQueued);
  }

  readonly #scheduleQueued = () => {
    this.#scheduled = false;
    this.#schedule();
  };

  readonly #schedule = () => {
    const run = this.#run;
    if (run === undefined || !this.#running) return;
    for (const queue of this.#queues.values()) {
      if (this.#handling >= run.partitionsConsumedConcurrently) return;
      if (this.#queues.deliverable(queue)) void this.#handle(queue, run);
    }
  };

  async #handle(queue: PartitionQueue, run: GroupConsumerRun): Promise<void> {
    queue.busy = true;
    this.#handling += 1;
    const control = this.#controlOf(queue);
    const messages = queue.messages.slice();
    try {
      await run.eachBatch({ topic: queue.topic, partition: queue.partition, messages, highWatermark: this.#highWatermarks.of(queue.topic, queue.partition) }, control);
    } catch (error) {
      // As kafkajs does with a throwing eachBatch: the unresolved messages are delivered again.
      this.#options.events.crashed?.(asError(error), true);
    } finally {
      queue.busy = false;
      this.#handling -= 1;
      setImmediate(this.#schedule);
    }
  }

  /** What the handler of `queue`'s batch may do; the batch is stale once the queue's generation moved on. */
  #controlOf(queue: PartitionQueue): BatchControl {
    const generation = queue.generation;
    const stale = () => queue.generation !== generation;
    return {
      pause: () => {
        queue.paused += 1;
        let resumed = false;
        return () => {
          if (resumed) return;
          resumed = true;
          queue.paused -= 1;
          this.#schedule();
        };
      },
      // The client heartbeats on its own timer, whatever the handlers do.
      heartbeat: async () => undefined,
      isRunning: () => this.#running,
      isStale: stale,
      resolveOffset: (offset) => {
        if (!stale()) this.#queues.resolve(queue, BigInt(offset));
      },
    };
  }
}
