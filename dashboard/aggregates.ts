// Time-bucketed aggregates of score records and skip decisions, bounded whatever the traffic:
// buckets of a fixed width over the look-back window only (older ones are dropped), and at most
// `maxSeriesPerBucket` scorer × version × agent × tenant series per bucket (further combinations
// share one `(other)` series). `not_scorable` and `failed` are counted as states, never as scores:
// only `scored` records enter the sums, the histogram and the verdict counts. A re-score (a record
// with `rescore`, scored again because a person disagreed: docs/feedback.md) is its run's second
// opinion, asked for only on disagreements: counting it as one more score would count the run
// twice and lean the figures towards the disputed runs, so it enters none of those counts (whatever
// its status) and is counted in `rescores` instead. Skips are tallied
// per scorer, agent, tenant and reason; a decision that does not name its run's agent (from a
// service that predates it) counts under UNKNOWN.
import type { DecisionRecord } from '../src/kit/contracts/decision-record.ts';
import type { RecordSpend } from '../src/kit/contracts/record-spend.ts';
import type { ScoreRecord } from '../src/kit/contracts/score-record.ts';
import { SCORE_BIN_COUNT, scoreBinIndex } from './score-bins.ts';

export const OTHER = '(other)';
export const NO_TENANT = '(none)';
/** The agent or tenant of a decision that does not say (decisions of older services, traces that yielded no run). */
export const UNKNOWN = '(not recorded)';

export type SeriesTally = {
  scorer: string;
  /** The binding's version; '' without one. */
  version: string;
  agent: string;
  tenant: string;
  scored: number;
  notScorable: number;
  failed: number;
  /** Sum of the scored records' scores, and of their squares (the variance of a mean compared). */
  sum: number;
  sumSquares: number;
  /** Scored records with a pass and with a fail verdict. */
  pass: number;
  fail: number;
  /** Scored records per score bin (score-bins.ts), and the sum of their scores per bin. */
  bins: number[];
  binSums: number[];
  /** Re-score records, of any status: counted here only, in none of the counts above. */
  rescores: number;
  /**
   * Judge spend: the records' `spend` summed — re-scores' too, whatever their status, since their
   * calls were paid — model calls, tokens (input, of which read from a prompt cache; output), the
   * priced cost in `currency` ('' before any), and calls whose model had no price.
   */
  judgeCalls: number;
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  cost: number;
  currency: string;
  unpricedCalls: number;
};

export type SkipTally = { scorer: string; agent: string; tenant: string; reason: string; count: number };

export type BucketView = { start: number; series: SeriesTally[]; skips: SkipTally[] };

type Bucket = { start: number; series: Map<string, SeriesTally>; skips: Map<string, SkipTally> };

export type AggregateOptions = {
  bucketMs: number;
  windowMs: number;
  maxSeriesPerBucket: number;
  /** Distinct (scorer, agent, tenant, reason) skip tallies per bucket; skip reasons are a short list, the others are not. */
  maxSkipKeysPerBucket?: number;
};

const tenantOf = (metadata: { tenantId?: string | undefined } | undefined) => (metadata?.tenantId === undefined || metadata.tenantId === '' ? NO_TENANT : metadata.tenantId);

export function seriesOf(record: ScoreRecord): { scorer: string; version: string; agent: string; tenant: string } {
  return { scorer: record.scorerId, version: record.scorerVersion ?? '', agent: record.entity.id, tenant: tenantOf(record.metadata) };
}

/** The agent and tenant a skip is counted under: the run's, or UNKNOWN when the decision does not say. */
export function skipSeriesOf(decision: DecisionRecord): { agent: string; tenant: string } {
  if (decision.entity === undefined && decision.metadata === undefined) return { agent: UNKNOWN, tenant: UNKNOWN };
  return { agent: decision.entity?.id ?? UNKNOWN, tenant: tenantOf(decision.metadata) };
}

export class ScoreAggregates {
  readonly bucketMs: number;
  readonly windowMs: number;
  private readonly maxSeries: number;
  private readonly maxSkipKeys: number;
  private readonly buckets = new Map<number, Bucket>();

  constructor(options: AggregateOptions) {
    if (!(options.bucketMs > 0) || !(options.windowMs >= options.bucketMs)) throw new RangeError('aggregates: bucketMs must be positive and at most windowMs');
    this.bucketMs = options.bucketMs;
    this.windowMs = options.windowMs;
    this.maxSeries = Math.max(1, options.maxSeriesPerBucket);
    this.maxSkipKeys = Math.max(1, options.maxSkipKeysPerBucket ?? 200);
  }

  /** Buckets kept at most: the window plus the bucket being filled and one of clock skew. */
  get maxBuckets(): number {
    return Math.ceil(this.windowMs / this.bucketMs) + 2;
  }

  get bucketCount(): number {
    return this.buckets.size;
  }

  /** Counts a record at `atMs`; returns the series tally it changed, or undefined when it is older than the window. */
  addRecord(record: ScoreRecord, atMs: number, nowMs: number): { start: number; tally: SeriesTally } | undefined {
    const bucket = this.bucketFor(atMs, nowMs);
    if (bucket === undefined) return undefined;
    const names = seriesOf(record);
    let key = `${names.scorer}\u0000${names.version}\u0000${names.agent}\u0000${names.tenant}`;
    let tally = bucket.series.get(key);
    if (tally === undefined) {
      if (bucket.series.size >= this.maxSeries) {
        key = `${OTHER}\u0000\u0000${OTHER}\u0000${OTHER}`;
        tally = bucket.series.get(key) ?? emptyTally({ scorer: OTHER, version: '', agent: OTHER, tenant: OTHER });
      } else {
        tally = emptyTally(names);
      }
      bucket.series.set(key, tally);
    }
    addSpend(tally, record.spend);
    if (record.rescore !== undefined) {
      tally.rescores += 1;
    } else if (record.status === 'scored') {
      tally.scored += 1;
      tally.sum += record.score;
      tally.sumSquares += record.score * record.score;
      if (record.verdict === 'pass') tally.pass += 1;
      else if (record.verdict === 'fail') tally.fail += 1;
      const bin = scoreBinIndex(record.score);
      tally.bins[bin]! += 1;
      tally.binSums[bin]! += record.score;
    } else if (record.status === 'not_scorable') {
      tally.notScorable += 1;
    } else {
      tally.failed += 1;
    }
    return { start: bucket.start, tally };
  }

  /** Counts a skip decision at `atMs`; returns the tally it changed, or undefined when older than the window. */
  addDecision(decision: DecisionRecord, atMs: number, nowMs: number): { start: number; tally: SkipTally } | undefined {
    const bucket = this.bucketFor(atMs, nowMs);
    if (bucket === undefined) return undefined;
    const { agent, tenant } = skipSeriesOf(decision);
    let key = `${decision.scorerId}\u0000${agent}\u0000${tenant}\u0000${decision.reason}`;
    let tally = bucket.skips.get(key);
    if (tally === undefined) {
      const full = bucket.skips.size >= this.maxSkipKeys;
      if (full) key = `${OTHER}\u0000${OTHER}\u0000${OTHER}\u0000${decision.reason}`;
      tally = bucket.skips.get(key) ?? (full ? { scorer: OTHER, agent: OTHER, tenant: OTHER, reason: decision.reason, count: 0 } : { scorer: decision.scorerId, agent, tenant, reason: decision.reason, count: 0 });
      bucket.skips.set(key, tally);
    }
    tally.count += 1;
    return { start: bucket.start, tally };
  }

  /** Drops the buckets that left the window. */
  prune(nowMs: number): void {
    const oldest = this.windowStart(nowMs);
    for (const start of this.buckets.keys()) if (start + this.bucketMs <= oldest) this.buckets.delete(start);
  }

  windowStart(nowMs: number): number {
    return nowMs - this.windowMs;
  }

  view(nowMs: number): BucketView[] {
    this.prune(nowMs);
    return [...this.buckets.values()]
      .sort((a, b) => a.start - b.start)
      .map((bucket) => ({ start: bucket.start, series: [...bucket.series.values()], skips: [...bucket.skips.values()] }));
  }

  private bucketFor(atMs: number, nowMs: number): Bucket | undefined {
    if (!Number.isFinite(atMs) || atMs < this.windowStart(nowMs)) return undefined;
    const start = Math.floor(atMs / this.bucketMs) * this.bucketMs;
    let bucket = this.buckets.get(start);
    if (bucket === undefined) {
      this.prune(nowMs);
      // Clock skew (a record dated in the future) must not grow the map past its bound: the
      // newest buckets by start win, which keeps the recent past.
      bucket = { start, series: new Map(), skips: new Map() };
      this.buckets.set(start, bucket);
      if (this.buckets.size > this.maxBuckets) {
        const oldest = Math.min(...this.buckets.keys());
        this.buckets.delete(oldest);
        if (oldest === start) return undefined;
      }
    }
    return bucket;
  }
}

function emptyTally(names: { scorer: string; version: string; agent: string; tenant: string }): SeriesTally {
  return {
    ...names,
    scored: 0,
    notScorable: 0,
    failed: 0,
    sum: 0,
    sumSquares: 0,
    pass: 0,
    fail: 0,
    bins: new Array<number>(SCORE_BIN_COUNT).fill(0),
    binSums: new Array<number>(SCORE_BIN_COUNT).fill(0),
    rescores: 0,
    judgeCalls: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    cost: 0,
    currency: '',
    unpricedCalls: 0,
  };
}

/** A record's judge spend into its series; a cost in a currency other than the series' first is left out (one pricing.currency per deployment). */
function addSpend(tally: SeriesTally, spend: RecordSpend | undefined): void {
  if (spend === undefined) return;
  tally.judgeCalls += spend.judgeCalls;
  tally.inputTokens += spend.inputTokens;
  tally.cachedInputTokens += spend.cachedInputTokens;
  tally.outputTokens += spend.outputTokens;
  tally.unpricedCalls += spend.unpricedCalls ?? 0;
  if (spend.cost !== undefined && (tally.currency === '' || tally.currency === spend.cost.unit)) {
    tally.cost += spend.cost.amount;
    tally.currency = spend.cost.unit;
  }
}
