// The platformatic group consumer's per-partition queues (platformatic-consumer.ts): the library's
// one message stream sorted by partition, each queue waiting to be handed over as its partition's
// batch. What this bookkeeping keeps, and why:
//   - pause: a paused partition's (or topic's) queue is not delivered; the messages after the last
//     resolved offset stay queued and are delivered again on resume (kafkajs fetches them again);
//   - memory: past `maxQueued` messages queued in all, the stream is paused until half drained;
//   - staleness: every seek, join and stream replacement bumps the generation, and a batch handed
//     over under an older one is stale;
//   - positions: where each partition's next stream starts when the stream is replaced
//     (platformatic-replaceable-stream.ts).
import type { GroupAssignment, Message } from '@platformatic/kafka';
import type { ConsumedMessage } from './kafka-records.ts';
import { toConsumedMessage } from './platformatic-records.ts';

export type PartitionQueue = {
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

/** Where a partition's next stream starts. */
export type StartOffset = { topic: string; partition: number; offset: bigint };

/** The stream the memory bound pauses and resumes: whichever is current when the bound is crossed. */
export type StreamFlow = { pause(): void; resume(): void };

export const partitionKey = (topic: string, partition: number) => `${topic}:${partition}`;

export class PartitionQueues {
  readonly #queues = new Map<string, PartitionQueue>();
  readonly #pausedTopics = new Set<string>();
  readonly #maxQueued: number;
  readonly #flow: StreamFlow;
  #generation = 0;
  #queued = 0;
  /** The stream is paused for memory (a paused topic pauses it apart from this). */
  #full = false;

  constructor(maxQueued: number, flow: StreamFlow) {
    this.#maxQueued = maxQueued;
    this.#flow = flow;
  }

  /** The queues in the order their partitions were first seen (the order batches are handed over in). */
  values(): IterableIterator<PartitionQueue> {
    return this.#queues.values();
  }

  /** A partition's queue, created on first use (a pause may name a partition before its first message). */
  of(topic: string, partition: number): PartitionQueue {
    const key = partitionKey(topic, partition);
    let queue = this.#queues.get(key);
    if (queue === undefined) this.#queues.set(key, (queue = { topic, partition, messages: [], next: undefined, paused: 0, busy: false, generation: this.#generation }));
    return queue;
  }

  /** Queues a message of the stream; false when it was queued already (read again by an overlapping fetch). */
  push(message: Message<Buffer, Buffer, Buffer, Buffer>): boolean {
    const queue = this.of(message.topic, message.partition);
    if (queue.next !== undefined && message.offset < queue.next) return false;
    queue.messages.push(toConsumedMessage(message));
    queue.next = message.offset + 1n;
    this.#queued += 1;
    if (this.#queued >= this.#maxQueued && !this.#full) {
      this.#full = true;
      this.#flow.pause();
    }
    return true;
  }

  /** The messages of `queue` up to `offset` were taken: they are not delivered again. */
  resolve(queue: PartitionQueue, offset: bigint): void {
    let count = 0;
    while (count < queue.messages.length && BigInt(queue.messages[count]!.offset) <= offset) count += 1;
    queue.messages.splice(0, count);
    this.#queued -= count;
    if (this.#full && this.#queued <= this.#maxQueued / 2) {
      this.#full = false;
      this.#flow.resume();
    }
  }

  /** A batch of `queue` may be handed over now: none is being handled, neither it nor its topic is paused, and it has messages. */
  deliverable(queue: PartitionQueue): boolean {
    return !queue.busy && queue.paused === 0 && !this.#pausedTopics.has(queue.topic) && queue.messages.length > 0;
  }

  /** Stops delivering these topics (every partition when none are named). */
  pause(topics: ReadonlyArray<{ topic: string; partitions?: number[] }>): void {
    for (const { topic, partitions } of topics) {
      if (partitions === undefined) this.#pausedTopics.add(topic);
      else for (const partition of partitions) this.of(topic, partition).paused += 1;
    }
  }

  get anyTopicPaused(): boolean {
    return this.#pausedTopics.size > 0;
  }

  /** Every one of `topics` is paused whole: nothing the stream reads would be delivered. */
  allPaused(topics: readonly string[]): boolean {
    return topics.every((topic) => this.#pausedTopics.has(topic));
  }

  /** A join: every batch handed over so far is stale (its partitions are read again from the group's commit). */
  outdate(): void {
    this.#generation += 1;
    for (const queue of this.#queues.values()) queue.generation = this.#generation;
  }

  /** The stream is being replaced: every batch so far is stale and every queue empties (the next stream reads them again). */
  empty(): void {
    this.#generation += 1;
    for (const queue of this.#queues.values()) {
      queue.generation = this.#generation;
      this.#queued -= queue.messages.length;
      queue.messages = [];
      queue.next = undefined;
    }
  }

  /** A new stream flows: it starts unpaused for memory. */
  streamOpened(): void {
    this.#full = false;
  }

  /**
   * The next stream's start per assigned partition: a seek, else (`keepPositions`) the first
   * undelivered message or the offset after the last one queued, else none (the group's commit).
   */
  startOffsets(assignments: readonly GroupAssignment[], seeks: ReadonlyMap<string, bigint>, keepPositions: boolean): StartOffset[] {
    const offsets: StartOffset[] = [];
    for (const assignment of assignments) {
      for (const partition of assignment.partitions) {
        const key = partitionKey(assignment.topic, partition);
        const queue = this.#queues.get(key);
        const sought = seeks.get(key);
        const head = queue?.messages[0];
        const offset = sought ?? (keepPositions ? (head === undefined ? queue?.next : BigInt(head.offset)) : undefined);
        if (offset !== undefined) offsets.push({ topic: assignment.topic, partition, offset });
      }
    }
    return offsets;
  }
}
