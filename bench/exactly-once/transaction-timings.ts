// What each committed transaction of a benchmark run cost, and its summary: how many there were,
// how many records each carried, and the p50/p99 of two times — the whole transaction (begun to
// committed: what a held record waits once its transaction starts) and EndTxn alone (the commit
// request, where the coordinator writes its markers).
import { percentile } from '../pipeline/latency-stages.ts';

export type TransactionTiming = {
  /** From the producer's beginTransaction to the commit's answer. */
  totalMs: number;
  /** The records' produce requests. */
  sendMs: number;
  /** AddOffsetsToTxn and the TxnOffsetCommit requests. */
  offsetsMs: number;
  /** EndTxn (commit). */
  endMs: number;
  records: number;
  /** Input partitions whose offsets the transaction committed. */
  partitions: number;
};

export type TimingSummary = {
  transactions: number;
  recordsPerTransaction: number;
  partitionsPerTransaction: number;
  totalMs: { p50: number; p99: number };
  endMs: { p50: number; p99: number };
  /** Medians of the phases, to say where a transaction's time goes. */
  sendMsP50: number;
  offsetsMsP50: number;
};

export class TransactionTimings {
  private readonly timings: TransactionTiming[] = [];

  record(timing: TransactionTiming): void {
    this.timings.push(timing);
  }

  get count(): number {
    return this.timings.length;
  }

  summary(): TimingSummary {
    const sorted = (pick: (timing: TransactionTiming) => number) => this.timings.map(pick).sort((left, right) => left - right);
    const total = sorted((timing) => timing.totalMs);
    const end = sorted((timing) => timing.endMs);
    const count = this.timings.length;
    const sum = (pick: (timing: TransactionTiming) => number) => this.timings.reduce((accumulated, timing) => accumulated + pick(timing), 0);
    return {
      transactions: count,
      recordsPerTransaction: count === 0 ? 0 : sum((timing) => timing.records) / count,
      partitionsPerTransaction: count === 0 ? 0 : sum((timing) => timing.partitions) / count,
      totalMs: { p50: percentile(total, 0.5), p99: percentile(total, 0.99) },
      endMs: { p50: percentile(end, 0.5), p99: percentile(end, 0.99) },
      sendMsP50: percentile(sorted((timing) => timing.sendMs), 0.5),
      offsetsMsP50: percentile(sorted((timing) => timing.offsetsMs), 0.5),
    };
  }
}
