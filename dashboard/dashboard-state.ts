// Everything the dashboard knows, fed one record at a time by the Kafka reader and read by the
// HTTP server: the aggregates, the ring of recent records, the run index, the agreements (the
// feedback view), the threads (the threads view: thread scorers' records by thread and version,
// and each thread's latest score per scorer from the latest-score view), and a short log of the
// events sent to pages, each with an id (`<epoch>.<sequence>`) so a page that reconnects gets
// exactly what it missed, or — when the log no longer reaches back that far, or the server
// restarted (a new epoch) — a fresh snapshot. Every part is bounded (DashboardLimits).
// The parts around it: its bounds (dashboard-limits.ts), the events and their log
// (dashboard-event.ts, event-log.ts), the snapshot (dashboard-snapshot.ts).
import { randomBytes } from 'node:crypto';
import type { AgreementRecord } from '../src/kit/contracts/agreement-record.ts';
import type { DecisionRecord } from '../src/kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../src/kit/contracts/score-record.ts';
import { ScoreAggregates, skipSeriesOf } from './aggregates.ts';
import { AgreementStore } from './agreement-store.ts';
import { BoundedSet } from './bounded-set.ts';
import type { DashboardEvent, DecisionSummary, UnnumberedEvent } from './dashboard-event.ts';
import type { DashboardLimits } from './dashboard-limits.ts';
import type { AgreementsSource, DashboardCounts, Snapshot } from './dashboard-snapshot.ts';
import { EventLog } from './event-log.ts';
import { RecordRing } from './record-ring.ts';
import { summarize, traceUrlOf } from './record-summary.ts';
import type { RunEntry } from './run-index.ts';
import { RunIndex } from './run-index.ts';
import { SCORE_BIN_EDGES } from './score-bins.ts';
import { ThreadStore } from './thread-store.ts';
import type { TraceLink } from './trace-link.ts';
import { encodeBuckets } from './wire-buckets.ts';

export class DashboardState {
  readonly epoch = randomBytes(6).toString('hex');
  private readonly aggregates: ScoreAggregates;
  private readonly ring: RecordRing;
  private readonly runs: RunIndex;
  private readonly seen: BoundedSet;
  private readonly agreements: AgreementStore;
  private readonly threads: ThreadStore;
  private agreementsSource: AgreementsSource = { state: 'off' };
  private readonly events: EventLog;
  private readonly tallies = { records: 0, decisions: 0, duplicates: 0, outsideWindow: 0, invalid: 0, agreements: 0, latestScores: 0 };

  readonly limits: DashboardLimits;
  private readonly options: { now?: () => number; traceLink?: TraceLink | undefined };

  constructor(limits: DashboardLimits, options: { now?: () => number; traceLink?: TraceLink | undefined } = {}) {
    this.limits = limits;
    this.options = options;
    this.aggregates = new ScoreAggregates({ bucketMs: limits.bucketMs, windowMs: limits.windowMs, maxSeriesPerBucket: limits.maxSeriesPerBucket });
    this.ring = new RecordRing(limits.maxRecords, limits.maxRecordBytes);
    this.runs = new RunIndex(limits.maxRuns, limits.maxEntriesPerRun);
    this.seen = new BoundedSet(limits.dedupeCapacity);
    this.agreements = new AgreementStore({ maxWindows: limits.maxAgreementWindows, maxDisagreements: limits.maxDisagreements, windowMs: limits.windowMs });
    this.threads = new ThreadStore({ maxThreads: limits.maxThreads, maxVersions: limits.maxThreadVersions });
    this.events = new EventLog(this.epoch, limits.eventLog);
  }

  /** Told by the reader which agreements topic it reads, if any, and whether it exists. */
  setAgreementsSource(source: AgreementsSource): void {
    this.agreementsSource = source;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** A message that was not a valid record: counted, shown on the page, otherwise ignored. */
  countInvalid(): void {
    this.tallies.invalid += 1;
  }

  ingestScore(record: ScoreRecord, bytes: number): DashboardEvent | undefined {
    const at = Date.parse(record.scoredAt);
    if (!this.seen.add(`s\u0000${record.scoreId}`)) {
      this.tallies.duplicates += 1;
      if (this.ring.get(record.scoreId) !== undefined) this.ring.add({ record, summary: summarize(record, this.options.traceLink), bytes });
      return undefined;
    }
    const counted = this.aggregates.addRecord(record, at, this.now());
    if (counted === undefined) {
      this.tallies.outsideWindow += 1;
      return undefined;
    }
    this.tallies.records += 1;
    const summary = summarize(record, this.options.traceLink);
    this.ring.add({ record, summary, bytes });
    this.runs.add(record.runId, {
      kind: 'score',
      scoreId: record.scoreId,
      scorer: record.scorerId,
      status: record.status,
      ...(record.status === 'scored' ? { score: record.score } : {}),
      detail: summary.reason,
      at,
      ...(summary.rescore === undefined ? {} : { rescore: summary.rescore }),
    });
    const thread = this.threads.add(record);
    return this.emit({ type: 'record', data: { summary, start: counted.start, tally: counted.tally, ...(thread === undefined ? {} : { thread }) } });
  }

  ingestDecision(decision: DecisionRecord): DashboardEvent | undefined {
    const at = Date.parse(decision.decidedAt);
    if (!this.seen.add(`d\u0000${decision.runId}\u0000${decision.scorerId}\u0000${decision.scorerVersion ?? ''}\u0000${decision.reason}`)) {
      this.tallies.duplicates += 1;
      return undefined;
    }
    const counted = this.aggregates.addDecision(decision, at, this.now());
    if (counted === undefined) {
      this.tallies.outsideWindow += 1;
      return undefined;
    }
    this.tallies.decisions += 1;
    const summary: DecisionSummary = { runId: decision.runId, scorer: decision.scorerId, ...skipSeriesOf(decision), reason: decision.reason, at, ...(decision.detail === undefined ? {} : { detail: decision.detail }) };
    this.runs.add(decision.runId, { kind: 'decision', scorer: decision.scorerId, reason: decision.reason, at, ...(decision.detail === undefined ? {} : { detail: decision.detail }) });
    const thread = this.threads.addDecision(decision);
    return this.emit({ type: 'decision', data: { decision: summary, start: counted.start, tally: counted.tally, ...(thread === undefined ? {} : { thread }) } });
  }

  /**
   * A record of the latest-score view: the thread's latest score by its scorer, however old. It
   * goes to the threads view only — the same record on the results topic is what the charts, the
   * table and the run index count (within the look-back), so it is neither counted nor deduplicated
   * here — and an event goes out only when it is new to its kept thread.
   */
  ingestLatestScore(record: ScoreRecord): DashboardEvent | undefined {
    this.tallies.latestScores += 1;
    if (this.threads.holds(record)) return undefined;
    const thread = this.threads.add(record);
    return thread === undefined ? undefined : this.emit({ type: 'thread', data: { thread } });
  }

  ingestAgreement(record: AgreementRecord): DashboardEvent | undefined {
    // The same publication read twice; a pair published again (a later measuredAt) replaces it.
    const key = record.kind === 'pair' ? `a\u0000${record.agreementId}\u0000${record.measuredAt}` : undefined;
    if (key !== undefined && !this.seen.add(key)) {
      this.tallies.duplicates += 1;
      return undefined;
    }
    const now = this.now();
    if (record.kind === 'window') {
      const window = this.agreements.addWindow(record, now);
      if (window === undefined) return this.outside();
      this.tallies.agreements += 1;
      return this.emit({ type: 'agreement', data: { window } });
    }
    const counted = this.agreements.addPair(record, now);
    if (counted === undefined) return this.outside();
    this.tallies.agreements += 1;
    if (counted.disagreement !== undefined) return this.emit({ type: 'agreement', data: { disagreement: counted.disagreement } });
    return counted.resolved === undefined ? undefined : this.emit({ type: 'agreement', data: { resolved: counted.resolved } });
  }

  private outside(): undefined {
    this.tallies.outsideWindow += 1;
    return undefined;
  }

  snapshot(): Snapshot {
    const now = this.now();
    return {
      epoch: this.epoch,
      lastEventId: this.events.lastEventId(),
      now,
      windowMs: this.limits.windowMs,
      bucketMs: this.limits.bucketMs,
      binEdges: SCORE_BIN_EDGES,
      buckets: encodeBuckets(this.aggregates.view(now)),
      recent: this.ring.recent(this.limits.recentLimit),
      traceLinks: this.options.traceLink !== undefined,
      counts: this.counts(),
      agreements: { ...this.agreementsSource, ...this.agreements.view(now) },
      threads: this.threads.view(),
    };
  }

  counts(): DashboardCounts {
    return { ...this.tallies, ringRecords: this.ring.size, ringBytes: this.ring.bytes, runs: this.runs.size, buckets: this.aggregates.bucketCount, agreementWindows: this.agreements.windowCount, disagreements: this.agreements.disagreementCount, threads: this.threads.size };
  }

  /** The events after `lastEventId`, or undefined when only a snapshot can bring the page up to date. */
  eventsAfter(lastEventId: string): DashboardEvent[] | undefined {
    return this.events.eventsAfter(lastEventId);
  }

  subscribe(listener: (event: DashboardEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  recordDetail(scoreId: string): { record: ScoreRecord; traceUrl?: string } | undefined {
    const entry = this.ring.get(scoreId);
    if (entry === undefined) return undefined;
    const traceUrl = traceUrlOf(entry.record, this.options.traceLink);
    return { record: entry.record, ...(traceUrl === undefined ? {} : { traceUrl }) };
  }

  run(runId: string): { entries: RunEntry[]; kept: (string | undefined)[] } | undefined {
    const entries = this.runs.get(runId);
    if (entries === undefined) return undefined;
    // Which score entries can still be opened (their whole record is in the ring).
    return { entries, kept: entries.map((entry) => (entry.kind === 'score' && this.ring.get(entry.scoreId) !== undefined ? entry.scoreId : undefined)) };
  }

  traceUrlFor(ids: { traceId?: string; spanId?: string }): string | undefined {
    return traceUrlOf({ trace: ids }, this.options.traceLink);
  }

  private emit(event: UnnumberedEvent): DashboardEvent {
    return this.events.emit(event);
  }
}
