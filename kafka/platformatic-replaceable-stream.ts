// The platformatic group consumer's one message stream (platformatic-consumer.ts), replaced whole
// where kafkajs would seek or fetch again: on a seek, a join and a failed stream, a new stream is
// opened that starts where each partition should (a seek's offset, else the first undelivered
// message, else the group's commit; PartitionQueues.startOffsets), before the old one closes.
// Poking a live stream's next fetch offsets races its fetch in flight, whose answer moves them
// again, and a stream closed first would untrack its topics, which re-joins the group.
// Replacements run one at a time; those asked for meanwhile are folded into one more.
import { MessagesStreamFallbackModes, MessagesStreamModes } from '@platformatic/kafka';
import type { Consumer, GroupAssignment, Message, MessagesStream } from '@platformatic/kafka';
import type { GroupConsumerOptions, GroupConsumerRun } from './kafka-transport.ts';
import { partitionKey } from './platformatic-partition-queues.ts';
import type { PartitionQueues, StartOffset } from './platformatic-partition-queues.ts';

/** Where the current stream's messages and failure go: the consumer that owns it. */
export type StreamSink = {
  enqueue(message: Message<Buffer, Buffer, Buffer, Buffer>): void;
  streamFailed(error: Error): Promise<void>;
  /** False once stopped or crashed for good: no further replacement is made. */
  isRunning(): boolean;
};

export type ReplaceableStreamParts = {
  consumer: Pick<Consumer<Buffer, Buffer, Buffer, Buffer>, 'assignments' | 'consume' | 'listCommittedOffsets'>;
  settings: Pick<GroupConsumerOptions, 'sessionTimeoutMs' | 'heartbeatIntervalMs'>;
  queues: PartitionQueues;
  sink: StreamSink;
};

export class ReplaceableStream {
  readonly #consumer: ReplaceableStreamParts['consumer'];
  readonly #settings: ReplaceableStreamParts['settings'];
  readonly #queues: PartitionQueues;
  readonly #sink: StreamSink;
  readonly #seeks = new Map<string, bigint>();
  #run: GroupConsumerRun | undefined;
  #stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  #replacing: Promise<void> | undefined;
  #replaceAgain: boolean | undefined;

  constructor({ consumer, settings, queues, sink }: ReplaceableStreamParts) {
    this.#consumer = consumer;
    this.#settings = settings;
    this.#queues = queues;
    this.#sink = sink;
  }

  /** Opens a run's first stream, every partition from the group's commit. */
  async start(run: GroupConsumerRun): Promise<void> {
    this.#run = run;
    await this.#open([], false);
  }

  /** A stream exists or is on its way; before the first one (the join inside its consume()) there is nothing to replace. */
  get opened(): boolean {
    return this.#stream !== undefined || this.#replacing !== undefined;
  }

  pause(): void {
    this.#stream?.pause();
  }

  resume(): void {
    this.#stream?.resume();
  }

  /** The partition is read from `offset` next: the stream is replaced, every other partition going on where it was. */
  seek(topic: string, partition: number, offset: bigint): Promise<void> {
    this.#seeks.set(partitionKey(topic, partition), offset);
    return this.replace(true);
  }

  /** The stream failed: nothing of it is taken any more, and the replacement has none to close. */
  forget(): void {
    this.#stream = undefined;
  }

  /**
   * Replaces the stream. `keepPositions` (a seek): every partition goes on where it was, and the
   * sought ones start at their offset; otherwise (a join, a failed stream) every partition starts
   * again from the group's commit, as kafkajs does after a re-join.
   */
  replace(keepPositions: boolean): Promise<void> {
    if (this.#replacing !== undefined) {
      // Once more when this one is done; a join wins over a seek (the commit is where every partition starts then).
      this.#replaceAgain = this.#replaceAgain === undefined ? keepPositions : this.#replaceAgain && keepPositions;
      return this.#replacing;
    }
    this.#replacing = this.#replaceUntilSettled(keepPositions).finally(() => {
      this.#replacing = undefined;
      this.#replaceAgain = undefined;
    });
    return this.#replacing;
  }

  /** Ends the stream for good (the consumer stops), after a replacement under way. */
  async close(): Promise<void> {
    await this.#replacing?.catch(() => undefined);
    await this.#stream?.close().catch(() => undefined);
    this.#stream = undefined;
  }

  async #replaceUntilSettled(keepPositions: boolean): Promise<void> {
    let keep = keepPositions;
    for (;;) {
      await this.#replaceOnce(keep);
      if (this.#replaceAgain === undefined || !this.#sink.isRunning()) break;
      keep = this.#replaceAgain;
      this.#replaceAgain = undefined;
    }
  }

  async #replaceOnce(keepPositions: boolean): Promise<void> {
    const offsets = this.#queues.startOffsets(this.#consumer.assignments ?? [], this.#seeks, keepPositions);
    this.#seeks.clear();
    this.#queues.empty();
    const old = this.#stream;
    this.#stream = undefined;
    old?.removeAllListeners('data');
    await this.#open(offsets, keepPositions);
    // Opened before the old one closes: the topics stay tracked, so the group is not re-joined.
    await old?.close().catch(() => undefined);
  }

  async #open(offsets: StartOffset[], manual: boolean): Promise<void> {
    const run = this.#run!;
    // Manual mode starts the partitions given at their offset and the others at the earliest (or
    // latest) offset, so a partition with no position of ours is given the group's commit.
    const missing = manual ? this.#withoutPosition(offsets) : [];
    const starts = missing.length === 0 ? offsets : [...offsets, ...(await this.#commitsOf(missing))];
    const next = await this.#consumer.consume({
      topics: [...run.topics],
      autocommit: false,
      mode: manual ? MessagesStreamModes.MANUAL : MessagesStreamModes.COMMITTED,
      fallbackMode: run.fromBeginning ? MessagesStreamFallbackModes.EARLIEST : MessagesStreamFallbackModes.LATEST,
      ...(manual ? { offsets: starts } : {}),
      sessionTimeout: this.#settings.sessionTimeoutMs,
      heartbeatInterval: this.#settings.heartbeatIntervalMs,
    });
    this.#stream = next;
    this.#queues.streamOpened();
    if (this.#queues.anyTopicPaused && this.#queues.allPaused(run.topics)) next.pause();
    next.on('data', (message) => {
      if (this.#stream === next) this.#sink.enqueue(message);
    });
    next.on('error', (error: Error) => {
      if (this.#stream === next) void this.#sink.streamFailed(error);
    });
  }

  /** The assigned partitions `offsets` gives no start, by topic. */
  #withoutPosition(offsets: readonly StartOffset[]): GroupAssignment[] {
    const known = new Set(offsets.map(({ topic, partition }) => partitionKey(topic, partition)));
    return (this.#consumer.assignments ?? []).map((assignment) => ({ topic: assignment.topic, partitions: assignment.partitions.filter((partition) => !known.has(partitionKey(assignment.topic, partition))) })).filter((assignment) => assignment.partitions.length > 0);
  }

  /** The group's commits of these partitions; a partition never committed has none. */
  async #commitsOf(missing: GroupAssignment[]): Promise<StartOffset[]> {
    const committed = await this.#consumer.listCommittedOffsets({ topics: missing });
    const starts: StartOffset[] = [];
    for (const { topic, partitions } of missing) {
      const byPartition = committed.get(topic) ?? [];
      for (const partition of partitions) {
        const offset = byPartition[partition];
        if (offset !== undefined && offset >= 0n) starts.push({ topic, partition, offset });
      }
    }
    return starts;
  }
}
