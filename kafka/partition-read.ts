// The state of one partition in a group-less read (read-range.ts) and what one fetch's answer
// does to it — pure, so the cases that matter are tested on hand-made answers: records to
// deliver (read_committed applied across fetches, aborted-transactions.ts), the next offset (past
// the last batch, markers included, so a tail of markers only still ends the read), and a fetch
// that brought nothing although the partition is behind its end: either the fetch's byte budget
// went to other partitions (the partition is then fetched alone, where the broker must answer
// with its first batch), or, fetched alone, nothing lies between the offset and the end — a gap
// compaction left — and the read moves on to the end.
import type { FetchResponsePartition } from './group-less-consumer.ts';
import { createAbortedTransactionFilter, lastOffsetOf } from './aborted-transactions.ts';
import type { AbortedTransactionFilter } from './aborted-transactions.ts';
import type { ConsumedMessage } from './kafka-records.ts';
import { messagesOfBatches } from './record-batch-messages.ts';

export type PartitionRead = {
  readonly topic: string;
  readonly partition: number;
  /** The next offset to fetch. */
  next: bigint;
  /** Where the partition stood when the read started: its high watermark, under read_committed its last stable offset. */
  readonly target: bigint;
  /** The latest end (last stable offset, or high watermark) the broker reported. */
  end: bigint;
  /** Its previous fetch brought nothing although it was behind: fetch it alone next. */
  fetchAlone: boolean;
  /** Its messages are with the handler: it is not fetched again until the handler is done (back-pressure). */
  delivering: boolean;
  /** A fetch of it is in flight. */
  fetching: boolean;
  /** It reached `target` (and, when the read ends there, it is finished). */
  reachedTarget: boolean;
  /** Bumped by every move of `next` from outside (rewindRead): an answer to a fetch sent before it is dropped. */
  epoch: number;
  readonly filter: AbortedTransactionFilter;
};

export function newPartitionRead(topic: string, partition: number, start: bigint, target: bigint): PartitionRead {
  return { topic, partition, next: start, target, end: target, fetchAlone: false, delivering: false, fetching: false, reachedTarget: start >= target, epoch: 0, filter: createAbortedTransactionFilter() };
}

/**
 * Moves the read to `offset` from outside the fetch loop (a seek, or messages its handler left
 * unresolved): the next fetch starts there, an answer to a fetch already sent is dropped, and the
 * aborted transactions noted so far are forgotten (the next fetch lists those ahead of `offset`).
 */
export function rewindRead(read: PartitionRead, offset: bigint): void {
  read.next = offset;
  read.epoch += 1;
  read.fetchAlone = false;
  read.filter.reset();
}

export type FetchedPartitionOptions = {
  readonly committed: boolean;
  /** The partition was the only one of its fetch. */
  readonly fetchedAlone: boolean;
  /** Messages at or past this offset are not delivered (a read that ends where the partition stood at start). */
  readonly before?: bigint | undefined;
};

/**
 * Applies one fetch's answer for `read` (undefined: the answer left the partition out, as an
 * incremental fetch session does when there is nothing new) and returns the messages to deliver.
 */
export function takeFetchedPartition(read: PartitionRead, answer: FetchResponsePartition | undefined, options: FetchedPartitionOptions): ConsumedMessage[] {
  if (answer !== undefined) {
    const reportedEnd = options.committed ? answer.lastStableOffset : answer.highWatermark;
    if (reportedEnd >= 0n) read.end = reportedEnd;
  }
  const batches = answer?.records ?? [];
  const last = batches.at(-1);
  if (last === undefined) {
    if (read.next < read.end) {
      if (options.fetchedAlone) {
        read.next = read.end;
        read.fetchAlone = false;
      } else {
        read.fetchAlone = true;
      }
    }
    return [];
  }
  const visible = options.committed ? read.filter.committedBatches(batches, answer?.abortedTransactions) : batches;
  const messages = messagesOfBatches(visible, { from: read.next, before: options.before });
  const after = lastOffsetOf(last) + 1n;
  if (after > read.next) read.next = after;
  read.fetchAlone = false;
  return messages;
}
