// One input partition under exactly-once delivery, for as long as this instance owns it: its
// transactional producer, the records of finished messages (held in memory until the message is
// inside the partition's contiguous finished prefix), and the transactions that publish a
// prefix's records together with its offset. A held message keeps its run slot until its
// transaction ends, so memory stays bounded by `runsInFlight`.
import type { Logger } from 'pino';
import type { OutgoingRecord } from '../kafka/kafka-records.ts';
import { sendRecords } from '../producers/send-records.ts';
import type { SendRecordsOptions } from '../producers/send-records.ts';
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import { publishRefusalOf } from '../kafka/publish-refusal.ts';
import { PartitionProgress } from './partition-progress.ts';
import type { MessageOutput, MessageTicket, PartitionClaim } from './record-sink.ts';
import type { ServiceStats } from './service-stats.ts';
import type { TransactionalProducer } from '../kafka/kafka-transport.ts';

type Held = { offset: number; records: OutgoingRecord[]; release: () => void };
/** Records of no message, written after the message at offset `after` (-1: before any) was dispatched. */
type Detached = { after: number; records: OutgoingRecord[] };

export type TransactionalClaimOptions = {
  topic: string;
  partition: number;
  groupId: string;
  producer: TransactionalProducer;
  stats: ServiceStats;
  logger: Logger;
  /** Called whenever a finished message starts waiting for its transaction. */
  onHeld?: () => void;
  /** How a transaction's records are cut into requests, and what happens to a refused one (producers/send-records.ts). */
  send?: Pick<SendRecordsOptions, 'maxRequestBytes' | 'maxRequestRecords' | 'onRefused'>;
};

const defaultSend = { maxRequestBytes: KAFKA_DEFAULTS.publish.maxRequestBytes, maxRequestRecords: KAFKA_DEFAULTS.publish.maxBatchRecords, onRefused: () => undefined };

export type CommitOutcome = 'nothing' | 'busy' | 'committed' | 'failed';

export class TransactionalClaim implements PartitionClaim {
  readonly topic: string;
  readonly partition: number;
  readonly progress: PartitionProgress;
  fromOffset: number | undefined;
  private readonly options: TransactionalClaimOptions;
  private readonly held = new Map<number, Held>();
  private detachedRecords: Detached[] = [];

  /** Records of no message (a thread's timer close): in the next transaction whose prefix covers message `after`, right after its records. */
  detached(after: string | undefined): MessageOutput {
    return {
      publish: async (batch) => {
        if (this.ended) throw new Error('the partition claim ended: records of no message are not written under it');
        this.detachedRecords.push({ after: after === undefined ? -1 : Number(after), records: [...batch] });
        this.options.onHeld?.();
      },
    };
  }
  /** Offsets whose records are in the transaction in flight; they are released when it ends. */
  private readonly inTransaction = new Set<number>();
  private transaction: Promise<CommitOutcome> | undefined;
  private ended = false;
  private readonly endListeners: Array<() => void> = [];
  private firstOffset: number | undefined;
  private committedOffset: number | undefined;

  constructor(options: TransactionalClaimOptions) {
    this.options = options;
    this.topic = options.topic;
    this.partition = options.partition;
    this.progress = new PartitionProgress(options.topic, options.partition);
  }

  get active(): boolean {
    return !this.ended;
  }

  /** Finished messages waiting for their transaction. */
  get heldMessages(): number {
    return this.held.size;
  }

  /**
   * Where consumption must resume when this claim's work is thrown away: the last offset it
   * committed, else the group's committed offset it started from, else its first message.
   */
  get resumeOffset(): number | undefined {
    return this.committedOffset ?? this.fromOffset ?? this.firstOffset;
  }

  /**
   * Connects the producer and initialises its transactional id: that fences every earlier
   * producer of the partition (ours from a previous assignment, another instance's, a killed
   * process's) and completes or aborts its open transaction before we read the committed offset.
   */
  async fence(): Promise<void> {
    await this.options.producer.connect();
    const transaction = await this.options.producer.transaction();
    await transaction.abort(); // nothing was sent: ends locally, no request
  }

  open(offset: string, release: () => void): MessageTicket {
    const value = Number(offset);
    this.progress.dispatched(offset);
    this.firstOffset ??= value;
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
          this.options.stats.staleCompletions += 1;
          release();
          return;
        }
        this.held.set(value, { offset: value, records, release });
        this.progress.completed(offset);
        this.options.onHeld?.();
      },
      abandoned: () => {
        if (settled) return;
        settled = true;
        release();
      },
    };
  }

  /**
   * One transaction for the finished prefix not yet committed: its held records and the prefix's
   * offset (`sendOffsets`), then commit. One at a time per claim ('busy' while one is in flight).
   * On failure the transaction is aborted and nothing advances; the caller resets the partition.
   */
  commit(): Promise<CommitOutcome> {
    if (this.transaction !== undefined) return Promise.resolve('busy');
    if (this.ended) return Promise.resolve('nothing');
    const candidate = this.progress.commitCandidate();
    // Detached records go once every message dispatched before them is in a transaction: this one's prefix, or one committed.
    const covered = candidate === undefined ? (this.committedOffset ?? 0) : Number(candidate);
    const detached = this.detachedRecords.filter((entry) => entry.after < covered);
    if (candidate === undefined && detached.length === 0) return Promise.resolve('nothing');
    this.detachedRecords = this.detachedRecords.filter((entry) => entry.after >= covered);
    const end = candidate === undefined ? 0 : Number(candidate);
    const batch = [...this.held.values()].filter((entry) => entry.offset < end).sort((left, right) => left.offset - right.offset);
    for (const entry of batch) this.inTransaction.add(entry.offset);
    const running = this.runTransaction(batch, candidate, detached).finally(() => {
      // Committed or not, these messages leave memory: committed, or to be re-scored.
      for (const entry of batch) {
        this.inTransaction.delete(entry.offset);
        if (this.held.delete(entry.offset)) entry.release();
      }
      this.transaction = undefined;
    });
    this.transaction = running;
    return running;
  }

  /** Resolves once no transaction is in flight. */
  async settled(): Promise<void> {
    while (this.transaction !== undefined) await this.transaction;
  }

  onEnd(listener: () => void): void {
    if (this.ended) listener();
    else this.endListeners.push(listener);
  }

  /** The claim's work will not be committed by it any more: held messages are dropped (re-scored by the next owner). */
  end(): number {
    if (this.ended) return 0;
    this.ended = true;
    for (const listener of this.endListeners.splice(0)) listener();
    let dropped = 0;
    this.detachedRecords = []; // re-made by the next claim (a thread state restored from what was committed)
    for (const [offset, entry] of this.held) {
      if (this.inTransaction.has(offset)) continue; // released when its transaction ends
      this.held.delete(offset);
      entry.release();
      dropped += 1;
    }
    return dropped;
  }

  /** After end(): lets a transaction in flight finish (it is fenced if the partition moved on), then disconnects. */
  async dispose(): Promise<void> {
    await this.settled();
    await this.options.producer.disconnect().catch((error: unknown) => {
      this.options.logger.debug({ err: error, topic: this.topic, partition: this.partition }, 'disconnecting a transactional producer failed');
    });
  }

  private async runTransaction(batch: Held[], offset: string | undefined, detached: Detached[]): Promise<CommitOutcome> {
    const { producer, groupId, stats, logger } = this.options;
    const records = inOrder(batch, detached);
    const transact = async (oneByOne: boolean) => {
      const transaction = await producer.transaction();
      try {
        const send = (requestRecords: OutgoingRecord[]) => transaction.send(requestRecords);
        const failed = (await sendRecords(send, records, { ...(this.options.send ?? defaultSend), oneByOne, rejectRefusedRequest: true })).find((result) => result !== undefined);
        if (failed !== undefined) throw failed;
        if (offset !== undefined) await transaction.sendOffsets({ groupId, topic: this.topic, partition: this.partition, offset });
        await transaction.commit();
      } catch (error) {
        // Fenced or broker gone: the abort may fail too; the broker then aborts it when the next
        // owner initialises the transactional id, or at the transaction timeout.
        await transaction.abort().catch(() => undefined);
        throw error;
      }
    };
    try {
      // A record the broker refuses is not retried for ever: the transaction (whose other
      // partitions' batches may be written already) is redone one record per request, so the
      // refused one alone is replaced by its stand-in (docs/delivery.md, record sizes).
      await transact(false).catch((error: unknown) => {
        if (publishRefusalOf(error) === undefined) throw error;
        return transact(true);
      });
    } catch (error) {
      stats.transactionFailures += 1;
      logger.warn(
        { err: error, topic: this.topic, partition: this.partition, offset, messages: batch.length, records: records.length },
        'transaction failed and was aborted; the partition resumes from its last committed offset and these runs are scored again',
      );
      return 'failed';
    }
    if (offset !== undefined) {
      this.progress.markCommitted(offset);
      this.committedOffset = Number(offset);
    }
    stats.transactions += 1;
    stats.commits += 1;
    return 'committed';
  }
}

/** The messages' records in offset order, each detached batch right after the message it followed. */
function inOrder(batch: readonly Held[], detached: readonly Detached[]): OutgoingRecord[] {
  if (detached.length === 0) return batch.flatMap((entry) => entry.records);
  const records: OutgoingRecord[] = [];
  let next = 0;
  const flushThrough = (offset: number) => {
    while (next < detached.length && detached[next]!.after <= offset) records.push(...detached[next++]!.records);
  };
  flushThrough(-1);
  for (const entry of batch) {
    flushThrough(entry.offset - 1);
    records.push(...entry.records);
    flushThrough(entry.offset);
  }
  while (next < detached.length) records.push(...detached[next++]!.records);
  return records;
}
