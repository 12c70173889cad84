// Live counters of one service instance: what the terminal view shows and what the OTel
// metric instruments observe. Plain numbers updated in place, cheap on the hot path.
import type { EscalationTier } from '../src/kit/contracts/escalation.ts';
import type { ScoreRecord } from '../src/kit/contracts/score-record.ts';

export type ScorerTally = { scored: number; notScorable: number; failed: number; scoreSum: number };

/** Thread scoring's counters (docs/threads.md): the state gauges are per claimed by-thread partition. */
export type ThreadStats = {
  /** Turns and end events re-keyed to `{runs}-by-thread`. */
  rekeyed: number;
  /** Changelog records written. */
  stateWrites: number;
  /** Partitions whose thread state was restored from the changelog, and the records read doing so. */
  restores: number;
  restoredRecords: number;
  /** Milliseconds from each claim to its state restored (retries of a refused read included), summed; and the latest one's. */
  restoreMs: number;
  lastRestoreMs: number;
  /** Thread closes by why (idle, ended, max_turns, …): each is a thread score or decision per binding. */
  readonly closesByReason: Map<string, number>;
  /** Per claimed `topic[partition]`, read when observed: its threads, those with turns waiting to be scored, held turns and bytes. */
  readonly byPartition: Map<string, () => { threads: number; openThreads: number; heldTurns: number; bytes: number }>;
};

/** The batch tier's counters (docs/spend-and-replay.md, the batch tier); the gauges per claimed batch-tier partition. */
export type BatchStats = {
  /** Pairs deferred to the batch tier (each round of a multi-step judge counts). */
  deferred: number;
  /** Batches submitted to the provider, and the requests in them. */
  batchesSubmitted: number;
  requestsSubmitted: number;
  /** Polls of open batches, and batches found ended. */
  polls: number;
  batchesEnded: number;
  /** Requests answered (succeeded), failed inside their batch, and not answered (expired, cancelled: submitted again). */
  answered: number;
  failedAnswers: number;
  unanswered: number;
  /** Pairs scored again with their answers (the round's outcome: a record, a next round or a retry). */
  resumed: number;
  /** Open batches found in the state topic when a partition was claimed (polled, not submitted again). */
  restoredBatches: number;
  /** Per claimed `topic[partition]`, read when observed. */
  readonly byPartition: Map<string, () => BatchPartitionGauges>;
};

/** A claimed batch-tier partition's waits: requests not yet submitted, batches open, and per binding the pairs held and the oldest one's wait in ms. */
export type BatchPartitionGauges = {
  waitingRequests: number;
  openBatches: number;
  byScorer: ReadonlyArray<{ scorerId: string; scorerVersion?: string; pendingPairs: number; oldestWaitMs: number }>;
};

export class ServiceStats {
  readonly batch: BatchStats = { deferred: 0, batchesSubmitted: 0, requestsSubmitted: 0, polls: 0, batchesEnded: 0, answered: 0, failedAnswers: 0, unanswered: 0, resumed: 0, restoredBatches: 0, byPartition: new Map() };
  readonly threads: ThreadStats = { rekeyed: 0, stateWrites: 0, restores: 0, restoredRecords: 0, restoreMs: 0, lastRestoreMs: 0, closesByReason: new Map(), byPartition: new Map() };
  consumed = 0;
  deadLettered = 0;
  readonly deadLettersByCode = new Map<string, number>();
  readonly skipsByReason = new Map<string, number>();
  /** (run, scorer) pairs skipped because a budget was exhausted, by the budget's name. */
  readonly budgetExhaustedByBudget = new Map<string, number>();
  /** Bindings with `escalate` (docs/spend-and-replay.md, escalation): their pairs by scorer and tier (escalated, sampled, not_escalated). */
  readonly escalations = new Map<string, Map<EscalationTier, number>>();
  /** First scores by scorer (countRecord): re-scores on feedback are not in it. */
  readonly byScorer = new Map<string, ScorerTally>();
  /** Run events whose propagated trace context was not sampled (scored or skipped, by `traceSampling`). */
  unsampledTraces = 0;
  /** Events whose records were all acknowledged. */
  completed = 0;
  inFlight = 0;
  readonly pausedPartitions = new Set<string>();
  /** Consumer lag per `topic[partition]`, from the latest fetched batch. */
  readonly lagByPartition = new Map<string, number>();
  commits = 0;
  /** Messages that finished after their claim ended: not committed by us (RecordSink.assignmentEnded; also an exactly-once partition reset). */
  staleCompletions = 0;
  /** Exactly-once: transactions committed (records plus offsets), and those that failed and were aborted. */
  transactions = 0;
  transactionFailures = 0;
  publishRetries = 0;
  /** Records over maxRecordBytes that went out shed of evidence or as `record_too_large` (docs/delivery.md, record sizes). */
  recordsTruncated = 0;
  /** Records the broker refused for what they are (kafka/publish-refusal.ts), replaced by a smaller form or dropped. */
  recordsRefused = 0;
  /** Records that could not be written at all (not even their smallest form): logged as errors. */
  recordsDropped = 0;
  /** Retry topic (docs/delivery.md, retries): pairs deferred to it, attempts made from it, pairs failed for good after retries.maxAgeMs. */
  retriesDeferred = 0;
  retriesAttempted = 0;
  retriesExhausted = 0;
  /** Pairs waiting on the retry topic per `topic[partition]`: behind its high watermark at the latest fetch or due check. */
  readonly retryWaitingByPartition = new Map<string, number>();
  /**
   * Re-score requests of the feedback join (docs/feedback.md, re-scoring), by what became of them:
   * `admitted` (scored again, or deferred or skipped with a decision), `not_enabled` (its binding has
   * no `rescoreOn` for the reason), `binding_not_found`, `run_unavailable` (also a decision).
   */
  readonly rescores = new Map<string, number>();
  /** Event timestamp → record acknowledged, in ms; the last few thousand, for percentiles. */
  readonly latenciesMs: number[] = [];
  private latencyCursor = 0;

  countSkip(reason: string): void {
    this.skipsByReason.set(reason, (this.skipsByReason.get(reason) ?? 0) + 1);
  }

  /** A pair of a binding with `escalate`, by the tier that decided: counted at its record (escalated, sampled) or its decision (not_escalated). */
  countEscalation(scorerId: string, tier: EscalationTier): void {
    let byTier = this.escalations.get(scorerId);
    if (byTier === undefined) this.escalations.set(scorerId, (byTier = new Map()));
    byTier.set(tier, (byTier.get(tier) ?? 0) + 1);
  }

  countRescore(outcome: string): void {
    this.rescores.set(outcome, (this.rescores.get(outcome) ?? 0) + 1);
  }

  countBudgetExhausted(budget: string): void {
    this.budgetExhaustedByBudget.set(budget, (this.budgetExhaustedByBudget.get(budget) ?? 0) + 1);
  }

  countDeadLetter(code: string): void {
    this.deadLettered += 1;
    this.deadLettersByCode.set(code, (this.deadLettersByCode.get(code) ?? 0) + 1);
  }

  /** A first score into its scorer's tally; a re-score on feedback is not one more score (otel/service-metrics.ts counts it apart). */
  countRecord(record: { readonly rescore?: unknown; readonly scorerId: string; readonly status: ScoreRecord['status']; readonly score?: number | undefined; readonly escalation?: { readonly tier: EscalationTier } | undefined }): void {
    if (record.rescore !== undefined) return;
    if (record.escalation !== undefined) this.countEscalation(record.scorerId, record.escalation.tier);
    let tally = this.byScorer.get(record.scorerId);
    if (tally === undefined) this.byScorer.set(record.scorerId, (tally = { scored: 0, notScorable: 0, failed: 0, scoreSum: 0 }));
    if (record.status === 'scored') {
      tally.scored += 1;
      tally.scoreSum += record.score ?? 0;
    } else if (record.status === 'not_scorable') tally.notScorable += 1;
    else tally.failed += 1;
  }

  recordLatency(ms: number): void {
    if (this.latenciesMs.length < 4096) this.latenciesMs.push(ms);
    else {
      this.latenciesMs[this.latencyCursor] = ms;
      this.latencyCursor = (this.latencyCursor + 1) % 4096;
    }
  }

  totals(): { scored: number; notScorable: number; failed: number; skipped: number } {
    let scored = 0;
    let notScorable = 0;
    let failed = 0;
    for (const tally of this.byScorer.values()) {
      scored += tally.scored;
      notScorable += tally.notScorable;
      failed += tally.failed;
    }
    let skipped = 0;
    for (const count of this.skipsByReason.values()) skipped += count;
    return { scored, notScorable, failed, skipped };
  }

  retriesWaiting(): number {
    let waiting = 0;
    for (const value of this.retryWaitingByPartition.values()) waiting += value;
    return waiting;
  }

  totalLag(): number {
    let lag = 0;
    for (const value of this.lagByPartition.values()) lag += value;
    return lag;
  }
}
