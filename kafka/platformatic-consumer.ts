// The seam's group consumer (kafka-transport.ts) on @platformatic/kafka. Its consumer offers one
// message stream for all assigned partitions, with no per-partition pause and no seek, and
// heartbeats by itself; the seam wants kafkajs-like batches per partition. So the messages are
// queued per partition here and handed over as batches (a partition at a time per handler, at
// most `partitionsConsumedConcurrently` at once):
//   - pause: a paused partition's queue is not delivered; the messages after the last resolved
//     offset stay queued and are delivered again on resume (kafkajs fetches them again);
//   - memory: past `maxQueuedMessages` queued in all, the stream is paused until half drained;
//   - seek, a join and a failed stream: the stream is replaced by a new one that starts where
//     each partition should (a seek's offset, else the first undelivered message, else the
//     group's commit), opened before the old one closes. Poking a live stream's next fetch
//     offsets races its fetch in flight, whose answer moves them again, and a stream closed
//     first would untrack its topics, which re-joins the group;
//   - a stream refused access (an ACL revoked, a login no longer valid) is not replaced: the
//     consumer crashes for good, as kafkajs' does, and the service stops with the ACL to grant;
//   - lag: the library's messages carry no high watermark (kafkajs' batches do), so the assigned
//     partitions' latest offsets are listed every `highWatermarkRefreshMs` and handed over with
//     each batch — the lag metric is at most that stale.
import { Consumer, MessagesStreamFallbackModes, MessagesStreamModes } from '@platformatic/kafka';
import type { ConsumerOptions, Message, MessagesStream } from '@platformatic/kafka';
import { isKafkaAccessRefusal } from './kafka-access-error.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import type { ConsumedMessage } from './kafka-records.ts';
import type { BatchControl, GroupConsumer, GroupConsumerOptions, GroupConsumerRun, PartitionOffset } from './kafka-transport.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';
import { toConsumedMessage } from './platformatic-records.ts';

type Queue = {
  readonly topic: string;
  readonly partition: number;
  messages: ConsumedMessage[];
  /** The offset after the last message queued (what the next message must not be below). */
  next: bigint | undefined;
  paused: number;
  busy: boolean;
  /** Bumped by every seek, join and stream replacement: a batch of an older generation is stale. */
  generation: number;
};

/** What of the library's Consumer this file uses (tests hand a fake in). */
export type PlatformaticConsumerLike = Pick<Consumer<Buffer, Buffer, Buffer, Buffer>, 'assignments' | 'consume' | 'commit' | 'listCommittedOffsets' | 'listOffsets' | 'close' | 'on'>;

export type PlatformaticConsumerOptions = GroupConsumerOptions & {
  connection: PlatformaticConnection;
  fetchMaxWaitMs?: number;
  maxQueuedMessages?: number;
  /** The library's consumer (default: a new @platformatic/kafka Consumer). */
  createConsumer?: (options: ConsumerOptions<Buffer, Buffer, Buffer, Buffer>) => PlatformaticConsumerLike;
};

const keyOf = (topic: string, partition: number) => `${topic}:${partition}`;

export function platformaticGroupConsumer(options: PlatformaticConsumerOptions): GroupConsumer {
  const { events } = options;
  const maxQueued = options.maxQueuedMessages ?? KAFKA_DEFAULTS.platformatic.maxQueuedMessages;
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
  const queues = new Map<string, Queue>();
  const pausedTopics = new Set<string>();
  let run: GroupConsumerRun | undefined;
  let stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  let generation = 0;
  let queued = 0;
  let handling = 0;
  let running = false;
  let streamPaused = false;
  let replacing: Promise<void> | undefined;
  let replaceAgain: boolean | undefined;
  let failures = 0;
  const seeks = new Map<string, bigint>();
  const highWatermarks = new Map<string, bigint>();
  let watermarkTimer: NodeJS.Timeout | undefined;

  /** The assigned partitions' latest offsets, for the lag; a failed listing keeps the last ones (the next try comes with the timer). */
  const refreshHighWatermarks = async () => {
    const topics = [...new Set((consumer.assignments ?? []).map((assignment) => assignment.topic))];
    if (!running || topics.length === 0) return;
    try {
      const latest = await consumer.listOffsets({ topics });
      for (const [topic, offsets] of latest) offsets.forEach((offset, partition) => highWatermarks.set(keyOf(topic, partition), offset));
    } catch {
      // Lag is a metric: a broker that does not answer now is the stream's to report, not this.
    }
  };
  const watchHighWatermarks = () => {
    clearInterval(watermarkTimer);
    void refreshHighWatermarks();
    watermarkTimer = setInterval(() => void refreshHighWatermarks(), KAFKA_DEFAULTS.platformatic.highWatermarkRefreshMs);
    watermarkTimer.unref();
  };

  const queueOf = (topic: string, partition: number): Queue => {
    const key = keyOf(topic, partition);
    let queue = queues.get(key);
    if (queue === undefined) queues.set(key, (queue = { topic, partition, messages: [], next: undefined, paused: 0, busy: false, generation }));
    return queue;
  };

  const drop = (queue: Queue, count: number) => {
    queue.messages.splice(0, count);
    queued -= count;
    if (streamPaused && queued <= maxQueued / 2) {
      streamPaused = false;
      stream?.resume();
    }
  };

  const enqueue = (message: Message<Buffer, Buffer, Buffer, Buffer>) => {
    const queue = queueOf(message.topic, message.partition);
    if (queue.next !== undefined && message.offset < queue.next) return; // read again by an overlapping fetch
    queue.messages.push(toConsumedMessage(message));
    queue.next = message.offset + 1n;
    queued += 1;
    if (queued >= maxQueued && !streamPaused) {
      streamPaused = true;
      stream?.pause();
    }
    scheduleSoon();
  };

  // After the messages of one fetch answer were all queued (the stream emits them in one go): one batch, not one per message.
  let scheduled = false;
  const scheduleSoon = () => {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      schedule();
    });
  };

  function schedule() {
    if (run === undefined || !running) return;
    for (const queue of queues.values()) {
      if (handling >= run.partitionsConsumedConcurrently) return;
      if (queue.busy || queue.paused > 0 || pausedTopics.has(queue.topic) || queue.messages.length === 0) continue;
      void handle(queue, run);
    }
  }

  async function handle(queue: Queue, current: GroupConsumerRun) {
    queue.busy = true;
    handling += 1;
    const batchGeneration = queue.generation;
    const stale = () => queue.generation !== batchGeneration;
    const messages = queue.messages.slice();
    const control: BatchControl = {
      pause() {
        queue.paused += 1;
        let resumed = false;
        return () => {
          if (resumed) return;
          resumed = true;
          queue.paused -= 1;
          schedule();
        };
      },
      // The client heartbeats on its own timer, whatever the handlers do.
      heartbeat: async () => undefined,
      isRunning: () => running,
      isStale: stale,
      resolveOffset(offset) {
        if (stale()) return;
        const resolved = BigInt(offset);
        let count = 0;
        while (count < queue.messages.length && BigInt(queue.messages[count]!.offset) <= resolved) count += 1;
        drop(queue, count);
      },
    };
    try {
      await current.eachBatch({ topic: queue.topic, partition: queue.partition, messages, highWatermark: highWatermarks.get(keyOf(queue.topic, queue.partition))?.toString() }, control);
    } catch (error) {
      // As kafkajs does with a throwing eachBatch: the unresolved messages are delivered again.
      events.crashed?.(error instanceof Error ? error : new Error(String(error)), true);
    } finally {
      queue.busy = false;
      handling -= 1;
      setImmediate(schedule);
    }
  }

  /** The next stream's start per assigned partition: a seek, else the first undelivered message, else the group's commit. */
  const startOffsets = (keepPositions: boolean) => {
    const offsets: Array<{ topic: string; partition: number; offset: bigint }> = [];
    for (const assignment of consumer.assignments ?? []) {
      for (const partition of assignment.partitions) {
        const key = keyOf(assignment.topic, partition);
        const queue = queues.get(key);
        const sought = seeks.get(key);
        const head = queue?.messages[0];
        const offset = sought ?? (keepPositions ? (head === undefined ? queue?.next : BigInt(head.offset)) : undefined);
        if (offset !== undefined) offsets.push({ topic: assignment.topic, partition, offset });
      }
    }
    return offsets;
  };

  /**
   * Replaces the stream. `keepPositions` (a seek): every partition goes on where it was, and the
   * sought ones start at their offset; otherwise (a join, a failed stream) every partition starts
   * again from the group's commit, as kafkajs does after a re-join.
   */
  const replaceStream = (keepPositions: boolean): Promise<void> => {
    if (replacing !== undefined) {
      // Once more when this one is done; a join wins over a seek (the commit is where every partition starts then).
      replaceAgain = replaceAgain === undefined ? keepPositions : replaceAgain && keepPositions;
      return replacing;
    }
    let keep = keepPositions;
    replacing = (async () => {
      for (;;) {
        const offsets = startOffsets(keep);
        seeks.clear();
        generation += 1;
        for (const queue of queues.values()) {
          queue.generation = generation;
          queued -= queue.messages.length;
          queue.messages = [];
          queue.next = undefined;
        }
        const old = stream;
        stream = undefined;
        old?.removeAllListeners('data');
        await openStream(offsets, keep);
        // Opened before the old one closes: the topics stay tracked, so the group is not re-joined.
        await old?.close().catch(() => undefined);
        if (replaceAgain === undefined || !running) break;
        keep = replaceAgain;
        replaceAgain = undefined;
      }
    })().finally(() => {
      replacing = undefined;
      replaceAgain = undefined;
    });
    return replacing;
  };

  async function openStream(offsets: Array<{ topic: string; partition: number; offset: bigint }>, manual: boolean) {
    const current = run!;
    const fallbackMode = current.fromBeginning ? MessagesStreamFallbackModes.EARLIEST : MessagesStreamFallbackModes.LATEST;
    // Manual mode starts the partitions given at their offset and the others at the earliest (or
    // latest) offset, so a partition with no position of ours is given the group's commit.
    let starts = offsets;
    if (manual) {
      const known = new Set(offsets.map(({ topic, partition }) => keyOf(topic, partition)));
      const missing = (consumer.assignments ?? []).map((assignment) => ({ topic: assignment.topic, partitions: assignment.partitions.filter((partition) => !known.has(keyOf(assignment.topic, partition))) })).filter((assignment) => assignment.partitions.length > 0);
      if (missing.length > 0) {
        const committed = await consumer.listCommittedOffsets({ topics: missing });
        starts = [...offsets];
        for (const { topic, partitions } of missing) {
          const byPartition = committed.get(topic) ?? [];
          for (const partition of partitions) {
            const offset = byPartition[partition];
            if (offset !== undefined && offset >= 0n) starts.push({ topic, partition, offset });
          }
        }
      }
    }
    const next = await consumer.consume({
      topics: [...current.topics],
      autocommit: false,
      mode: manual ? MessagesStreamModes.MANUAL : MessagesStreamModes.COMMITTED,
      fallbackMode,
      ...(manual ? { offsets: starts } : {}),
      sessionTimeout: options.sessionTimeoutMs,
      heartbeatInterval: options.heartbeatIntervalMs,
    });
    stream = next;
    streamPaused = false;
    if (pausedTopics.size > 0 && current.topics.every((topic) => pausedTopics.has(topic))) next.pause();
    next.on('data', (message) => {
      if (stream === next) enqueue(message);
    });
    next.on('error', (error: Error) => {
      if (stream === next) void streamFailed(error);
    });
  }

  /**
   * A stream that failed (a broker gone for longer than the client's retries) is replaced; after
   * `retries` failures in a row, or at once when Kafka refused access, the consumer crashed for
   * good. A refusal must not be retried: the replacement's consume() succeeds (the group still
   * lets it join) and its first fetch is refused again, so it would be replaced for ever.
   */
  async function streamFailed(error: Error) {
    if (!running) return;
    failures += 1;
    const restarting = failures <= options.retries && !isKafkaAccessRefusal(error);
    // Stopped, as a crashed kafkajs consumer is: no batch is handed over, no join or seek opens a stream again.
    if (!restarting) running = false;
    events.crashed?.(error, restarting);
    if (!restarting) return;
    stream = undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.min(KAFKA_DEFAULTS.platformatic.retryDelayMs * 2 ** (failures - 1), KAFKA_DEFAULTS.platformatic.maxRestartDelayMs)));
    if (!running) return;
    // Read again from the group's commit: the claims of the consumed partitions end with this "join".
    await replaceStream(false).then(
      () => {
        failures = 0;
        events.joined?.(assignmentOf());
      },
      (replaceError: unknown) => void streamFailed(replaceError instanceof Error ? replaceError : new Error(String(replaceError))),
    );
  }

  const assignmentOf = (): Record<string, number[]> => Object.fromEntries((consumer.assignments ?? []).map((assignment) => [assignment.topic, [...assignment.partitions]]));

  consumer.on('consumer:group:rebalance', () => events.rebalancing?.());
  consumer.on('consumer:group:join', () => {
    if (!running) return; // stopped, or crashed for good: the service is stopping
    // Every partition reads again from the group's commit (the sinks dropped what was not committed).
    generation += 1;
    for (const queue of queues.values()) queue.generation = generation;
    // Before the first stream exists (the join inside the first consume()) there is nothing to replace.
    if (stream !== undefined || replacing !== undefined) void replaceStream(false).catch((error: unknown) => void streamFailed(error instanceof Error ? error : new Error(String(error))));
    void refreshHighWatermarks();
    events.joined?.(assignmentOf());
  });

  return {
    async run(runOptions) {
      run = runOptions;
      running = true;
      await openStream([], false);
      watchHighWatermarks();
    },
    pause(topics) {
      for (const { topic, partitions } of topics) {
        if (partitions === undefined) pausedTopics.add(topic);
        else for (const partition of partitions) queueOf(topic, partition).paused += 1;
      }
      if (run !== undefined && run.topics.every((topic) => pausedTopics.has(topic))) stream?.pause();
    },
    seek(position: PartitionOffset) {
      // Stopped or crashed for good: dropped, as kafkajs drops it (a run starts from the group's commits).
      if (!running) return;
      seeks.set(keyOf(position.topic, position.partition), BigInt(position.offset));
      void replaceStream(true).catch((error: unknown) => void streamFailed(error instanceof Error ? error : new Error(String(error))));
    },
    async commitOffsets(offsets) {
      // leaderEpoch -1: no epoch check (kafkajs sends none either).
      await consumer.commit({ offsets: offsets.map(({ topic, partition, offset }) => ({ topic, partition, offset: BigInt(offset), leaderEpoch: -1 })) });
    },
    async disconnect() {
      running = false;
      clearInterval(watermarkTimer);
      await replacing?.catch(() => undefined);
      await stream?.close().catch(() => undefined);
      stream = undefined;
      await consumer.close(true);
    },
  };
}
