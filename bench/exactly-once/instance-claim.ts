// One input partition under layout (B), one transactional producer per instance: the partition's
// finished prefix and the records its messages hold for the instance's next transaction. Unlike
// the shipped TransactionalClaim (consumers/transactional-claim.ts) it owns no producer and runs no
// transaction of its own: the instance sink (instance-transactional-sink.ts) takes every claim's
// prefix into one. A held message keeps its run slot until that transaction ends, as today.
import type { OutgoingRecord } from '../../kafka/kafka-records.ts';
import { PartitionProgress } from '../../consumers/partition-progress.ts';
import type { MessageOutput, MessageTicket, PartitionClaim } from '../../consumers/record-sink.ts';

export type HeldMessage = { offset: number; records: OutgoingRecord[]; release: () => void };

/** A claim's part of a transaction: its held messages below `offset`, the next offset to consume. */
export type ClaimPrefix = { offset: string; messages: HeldMessage[] };

export class InstanceClaim implements PartitionClaim {
  readonly topic: string;
  readonly partition: number;
  readonly progress: PartitionProgress;
  /**
   * Nothing to skip: under KIP-447 the consumer's own committed-offset fetch waits for pending
   * transactional offsets (require_stable), so no read-back after fencing is needed. The benchmark
   * starts every run on a fresh group, where it does not matter either way.
   */
  readonly fromOffset = undefined;
  private readonly held = new Map<number, HeldMessage>();
  private readonly onHeld: () => void;
  private ended = false;
  private readonly endListeners: Array<() => void> = [];

  constructor(topic: string, partition: number, onHeld: () => void) {
    this.topic = topic;
    this.partition = partition;
    this.progress = new PartitionProgress(topic, partition);
    this.onHeld = onHeld;
  }

  get active(): boolean {
    return !this.ended;
  }

  get heldMessages(): number {
    return this.held.size;
  }

  detached(): MessageOutput {
    return {
      publish: async () => {
        throw new Error('layout (B) of the exactly-once benchmark writes no records of no message');
      },
    };
  }

  open(offset: string, release: () => void): MessageTicket {
    const value = Number(offset);
    this.progress.dispatched(offset);
    const records: OutgoingRecord[] = [];
    let settled = false;
    return {
      output: {
        publish: async (batch) => {
          records.push(...batch);
        },
      },
      finished: () => {
        if (settled) return;
        settled = true;
        if (this.ended) {
          release();
          return;
        }
        this.held.set(value, { offset: value, records, release });
        this.progress.completed(offset);
        this.onHeld();
      },
      abandoned: () => {
        if (settled) return;
        settled = true;
        release();
      },
    };
  }

  /** The finished prefix not yet committed, with its held messages in offset order; undefined when it did not move. */
  takePrefix(): ClaimPrefix | undefined {
    const offset = this.progress.commitCandidate();
    if (offset === undefined) return undefined;
    const end = Number(offset);
    const messages = [...this.held.values()].filter((entry) => entry.offset < end).sort((left, right) => left.offset - right.offset);
    return { offset, messages };
  }

  /** After the transaction that carried `prefix`: its messages leave memory (committed, or to be read again). */
  settle(prefix: ClaimPrefix, committed: boolean): void {
    for (const entry of prefix.messages) if (this.held.delete(entry.offset)) entry.release();
    if (committed) this.progress.markCommitted(prefix.offset);
  }

  onEnd(listener: () => void): void {
    if (this.ended) listener();
    else this.endListeners.push(listener);
  }

  /** Held messages not in a transaction are dropped (the partition's next owner reads them again); returns how many. */
  end(inTransaction: ReadonlySet<HeldMessage>): number {
    if (this.ended) return 0;
    this.ended = true;
    for (const listener of this.endListeners.splice(0)) listener();
    let dropped = 0;
    for (const [offset, entry] of this.held) {
      if (inTransaction.has(entry)) continue; // released when its transaction ends
      this.held.delete(offset);
      entry.release();
      dropped += 1;
    }
    return dropped;
  }
}
