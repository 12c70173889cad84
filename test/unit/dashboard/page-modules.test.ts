// The page's pure modules (plain browser ES modules, no DOM): the filters kept in the URL and the
// per-scorer views computed from the server's buckets.
import { describe, expect, it } from 'vitest';
import { ScoreAggregates } from '../../../dashboard/aggregates.ts';
import { SCORE_BIN_COUNT, SCORE_BIN_EDGES } from '../../../dashboard/score-bins.ts';
import { encodeBuckets } from '../../../dashboard/wire-buckets.ts';
import { scoreRecord, decisionRecord } from '../../helpers/dashboard-records.ts';

type Filters = Record<string, unknown> & { min?: number; max?: number };
type FiltersModule = {
  filtersFromSearch(search: string): Filters;
  searchFromFilters(filters: Filters): string;
  timeWindow(filters: Filters, now: number, windowMs: number): { start: number; end: number };
  recordMatches(summary: Record<string, unknown>, filters: Filters, window: { start: number; end: number }): boolean;
};
type View = { scorer: string; x: number[]; xRange: [number, number]; mean: (number | null)[]; count: number[]; sum: number[]; notScorable: number[]; failed: number[]; distribution: number[]; skips: Map<string, number>; totals: Record<string, number | null> };
type Totals = Record<string, number> & { distribution: number[]; exact: boolean; covered?: { start: number; end: number } };
type Window = { start: number; end: number };
type Config = { binEdges: readonly number[]; bucketMs: number };
type ViewModule = {
  createBucketStore(): Map<number, unknown>;
  loadBuckets(store: Map<number, unknown>, buckets: unknown, binCount: number): void;
  binsInRange(edges: readonly number[], filters: Filters): boolean[];
  scorerViews(store: Map<number, unknown>, config: Config, filters: Filters, window: Window, now: number): View[];
  sideTotals(store: Map<number, unknown>, config: Config, filters: Filters, window: Window, version?: string): Totals;
  timeGrid(window: Window, bucketMs: number, now: number): { starts: number[]; range: [number, number] };
  knownNames(store: Map<number, unknown>): { scorer: string[]; agent: string[]; tenant: string[]; versions: Map<string, string[]> };
};
type OverviewRow = { scorer: string; mean: number | null; passRate?: number; verdicts: number; failureShare?: number; volume: number; skipped: number; rescores: number; trend: (number | null)[] };
type OverviewModule = {
  overviewRows(views: View[]): OverviewRow[];
  coarseMeans(counts: number[], sums: number[], points: number): (number | null)[];
  sparklinePoints(values: (number | null)[], width: number, height: number): [number, number][][];
};
type Side = { n: number; mean?: number; sd?: number; passRate?: number; verdicts: number; records: number; rescores: number; shares: number[] };
type CompareModule = {
  compareSides(a: Totals, b: Totals): { a: Side; b: Side; means?: { t: number; p: number }; distributions?: { p?: number; bHigher: number }; passRates?: { p?: number } };
  defaultTimeSides(now: number, windowMs: number): { a: Window; b: Window };
  defaultVersions(versions: string[]): { a: string; b: string } | undefined;
};

const load = async <T>(name: string): Promise<T> => (await import(new URL(`../../../dashboard/public/${name}`, import.meta.url).href)) as T;
const filtersModule = await load<FiltersModule>('filters.js');
const viewModule = await load<ViewModule>('aggregate-view.js');
const overviewModule = await load<OverviewModule>('overview.js');
type Agreements = { windows: { scorer: string; version: string; start: number; end: number; n: number }[]; disagreements: { agreementId: string }[] };
type Pair = { agreementId: string; scorer: string; agent?: string; tenant: string; at: number };
const feedbackModule = await load<{
  addAgreement(agreements: Agreements, data: unknown, max: number): void;
  agreementGroups(windows: Agreements['windows'], filters: Filters, window: { start: number; end: number }): { scorer: string; version: string; windows: { end: number }[] }[];
  disagreementsShown(pairs: Pair[], filters: Filters, window: { start: number; end: number }): Pair[];
  agreementsNotice(agreements: { topic?: string; state: string }): string | undefined;
}>('feedback-view.js');
const compareModule = await load<CompareModule>('compare.js');
type LookupEntry = { kind: 'score' | 'decision'; scorer: string; rescore?: { feedbackId: string; reason: string } };
const lookupModule = await load<{ lookupOrder(entries: LookupEntry[]): number[] }>('run-lookup.js');
const markModule = await load<{ rescoreLabel(mark: { feedbackId: string; reason: string }): string; rescoreText(mark: { feedbackId: string; reason: string }): string; rescoreCount(rescores: number): string }>('rescore-mark.js');

const minute = 60_000;
const now = 1_000 * minute;

describe('page filters', () => {
  it('round-trips through the URL', () => {
    const filters = filtersModule.filtersFromSearch('?scorer=toxicity&agent=a%20b&tenant=acme&status=scored&min=0.2&max=0.8&range=1h&sort=score&order=asc&record=x');
    expect(filters).toMatchObject({ view: 'scores', scorer: 'toxicity', agent: 'a b', tenant: 'acme', status: 'scored', min: 0.2, max: 0.8, range: '1h', sort: 'score', order: 'asc', record: 'x' });
    expect(filtersModule.filtersFromSearch(filtersModule.searchFromFilters(filters))).toEqual(filters);
    expect(filtersModule.searchFromFilters(filtersModule.filtersFromSearch(''))).toBe('');
  });

  it('keeps every view and what it compares in the URL', () => {
    const compare = filtersModule.filtersFromSearch('?view=compare&scorer=toxicity&cmp=version&aVersion=1&bVersion=&range=24h');
    expect(compare).toMatchObject({ view: 'compare', cmp: 'version', aVersion: '1', bVersion: '', range: '24h' });
    expect(filtersModule.filtersFromSearch(filtersModule.searchFromFilters(compare))).toEqual(compare);
    const times = filtersModule.filtersFromSearch('?view=compare&aFrom=2026-12-01T10:00:00.000Z&aTo=2026-12-01T11:00:00.000Z&bFrom=2026-12-01T11:00:00.000Z&bTo=2026-12-01T12:00:00.000Z');
    expect(times).toMatchObject({ cmp: 'time', aFrom: Date.parse('2026-12-01T10:00:00.000Z'), bTo: Date.parse('2026-12-01T12:00:00.000Z') });
    expect(filtersModule.filtersFromSearch(filtersModule.searchFromFilters(times))).toEqual(times);
    const feedback = filtersModule.filtersFromSearch('?view=feedback&pair=ag-1');
    expect(filtersModule.filtersFromSearch(filtersModule.searchFromFilters(feedback))).toEqual(feedback);
  });

  it('ignores values it does not know', () => {
    expect(filtersModule.filtersFromSearch('?status=<script>&range=99y&min=abc&sort=evil&view=admin&cmp=magic')).toMatchObject({ status: '', range: '', min: undefined, sort: 'at', view: 'scores', cmp: 'time' });
  });

  it('selects the time window from the look-back, a relative range or a from/to selection', () => {
    const base = filtersModule.filtersFromSearch('');
    expect(filtersModule.timeWindow(base, now, 60 * minute)).toEqual({ start: now - 60 * minute, end: Infinity });
    expect(filtersModule.timeWindow({ ...base, range: '15m' }, now, 60 * minute).start).toBe(now - 15 * minute);
    expect(filtersModule.timeWindow({ ...base, from: now - 5 * minute, to: now - minute }, now, 60 * minute)).toEqual({ start: now - 5 * minute, end: now - minute });
  });

  it('matches records on every filter; a score range leaves out records without a score', () => {
    const window = { start: 0, end: Infinity };
    const summary = { scorer: 's', agent: 'a', tenant: 't', status: 'scored', score: 0.5, at: 10 };
    const filters = filtersModule.filtersFromSearch('');
    expect(filtersModule.recordMatches(summary, filters, window)).toBe(true);
    expect(filtersModule.recordMatches(summary, { ...filters, min: 0.6 }, window)).toBe(false);
    expect(filtersModule.recordMatches({ ...summary, status: 'failed', score: undefined }, { ...filters, max: 1 }, window)).toBe(false);
    expect(filtersModule.recordMatches(summary, { ...filters, tenant: 'other' }, window)).toBe(false);
    expect(filtersModule.recordMatches(summary, filters, { start: 11, end: Infinity })).toBe(false);
  });
});

describe('per-scorer views', () => {
  const aggregates = new ScoreAggregates({ bucketMs: minute, windowMs: 60 * minute, maxSeriesPerBucket: 50 });
  const add = (outcome: Parameters<typeof scoreRecord>[0], fields: Parameters<typeof scoreRecord>[1] & { at: number }) => aggregates.addRecord(scoreRecord(outcome, fields), fields.at, now);
  add({ status: 'scored', score: 0.2 }, { scorerId: 'toxicity', tenant: 'acme', at: now - 10 * minute });
  add({ status: 'scored', score: 0.9 }, { scorerId: 'toxicity', tenant: 'globex', at: now - 10 * minute });
  add({ status: 'not_scorable' }, { scorerId: 'toxicity', tenant: 'acme', at: now - 5 * minute });
  add({ status: 'failed' }, { scorerId: 'completeness', tenant: 'acme', at: now - 5 * minute });
  aggregates.addDecision(decisionRecord({ scorerId: 'toxicity', reason: 'sampling' }), now - 5 * minute, now);
  const store = viewModule.createBucketStore();
  viewModule.loadBuckets(store, JSON.parse(JSON.stringify(encodeBuckets(aggregates.view(now)))), SCORE_BIN_COUNT);
  const config = { binEdges: SCORE_BIN_EDGES, bucketMs: minute };
  const all = filtersModule.filtersFromSearch('');
  const window = { start: now - 60 * minute, end: Infinity };

  // The window holds 60 one-minute buckets and the one being filled: the records sit at -10 and -5 minutes.
  const at = (minutesAgo: number) => 60 - minutesAgo;
  const views = (filters: Filters) => viewModule.scorerViews(store, config, filters, window, now);

  it('means and distributions count only scored records; the other states are counts', () => {
    const all_ = views(all);
    expect(all_.map((view) => view.scorer)).toEqual(['completeness', 'toxicity']);
    const toxicity = all_[1]!;
    expect(toxicity.mean[at(10)]).toBe(0.55);
    expect(toxicity.mean.filter((value) => value !== null)).toEqual([0.55]);
    expect(toxicity.totals).toMatchObject({ scored: 2, notScorable: 1, failed: 0, skipped: 1 });
    expect(toxicity.distribution.reduce((a, b) => a + b, 0)).toBe(2);
    const completeness = all_[0]!;
    expect(completeness.mean.every((value) => value === null)).toBe(true);
    expect(completeness.failed[at(5)]).toBe(1);
    expect(completeness.failed.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('draws every bucket of the window, empty ones included, over an axis spanning the window', () => {
    const toxicity = views(all)[1]!;
    expect(toxicity.x).toHaveLength(61);
    expect(toxicity.x[0]).toBe((now - 60 * minute) / 1000);
    expect(toxicity.x[60]).toBe(now / 1000);
    expect(toxicity.xRange).toEqual([(now - 60 * minute) / 1000, now / 1000]);
    expect(toxicity.count.reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('filters by tenant, status and score range', () => {
    expect(views({ ...all, tenant: 'globex' }).find((view) => view.scorer === 'toxicity')!.mean[at(10)]).toBe(0.9);
    const onlyFailed = views({ ...all, status: 'failed' });
    expect(onlyFailed.find((view) => view.scorer === 'toxicity')!.totals).toMatchObject({ scored: 0, notScorable: 0 });
    const high = views({ ...all, min: 0.5 }).find((view) => view.scorer === 'toxicity')!;
    expect(high.mean[at(10)]).toBe(0.9);
    expect(high.totals.notScorable).toBe(0);
    expect(views({ ...all, scorer: 'completeness' }).map((view) => view.scorer)).toEqual(['completeness']);
  });

  it('splits skips by agent and tenant, and counts apart those an agent or tenant filter cannot place', () => {
    // The one decision above names no agent or tenant (an older service's).
    expect(views(all).find((view) => view.scorer === 'toxicity')!.skips).toEqual(new Map([['sampling', 1]]));
    const acme = views({ ...all, tenant: 'acme' }).find((view) => view.scorer === 'toxicity')!;
    expect(acme.skips).toEqual(new Map());
    expect(acme.totals).toMatchObject({ skipped: 0, unattributedSkips: 1 });
  });

  it('keeps the histogram bins inside the score range', () => {
    const kept = viewModule.binsInRange(SCORE_BIN_EDGES, { min: 0.3, max: 0.5 });
    expect(kept.map((value, bin) => (value ? bin : -1)).filter((bin) => bin >= 0)).toEqual([4, 5]);
    expect(viewModule.binsInRange(SCORE_BIN_EDGES, {}).every(Boolean)).toBe(true);
  });

  it('decodes the compact snapshot buckets into the tallies the server keeps', () => {
    const decoded = [...store.values()].flatMap((bucket) => [...(bucket as { series: Map<string, unknown> }).series.values()]);
    // Sums travel rounded to 1e-6.
    const original = aggregates.view(now).flatMap((bucket) => bucket.series).map((tally) => ({ ...tally, sumSquares: expect.closeTo(tally.sumSquares, 6) }));
    expect(decoded).toEqual(original);
  });

  it('lists the names for the filter menus, and each scorer\'s versions', () => {
    expect(viewModule.knownNames(store)).toEqual({ scorer: ['completeness', 'toxicity'], agent: ['support-agent'], tenant: ['acme', 'globex'], versions: new Map([['completeness', ['']], ['toxicity', ['']]]) });
  });
});

describe('the time grid', () => {
  it('spans a window from its first bucket to now, one start per bucket, whatever the data', () => {
    // Ten minutes back from half a minute into a bucket: that bucket, nine more and the one being filled.
    const grid = viewModule.timeGrid({ start: now - 10 * minute + 30_000, end: Infinity }, minute, now);
    expect(grid.starts).toHaveLength(11);
    expect(grid.starts[0]).toBe(now - 10 * minute);
    expect(grid.range).toEqual([(now - 10 * minute) / 1000, now / 1000]);
  });

  it('ends a closed window at its end, and refuses a grid of far too many buckets (two clocks mixed up)', () => {
    expect(viewModule.timeGrid({ start: now - 10 * minute, end: now - 5 * minute }, minute, now).range[1]).toBe((now - 5 * minute) / 1000);
    expect(() => viewModule.timeGrid({ start: 0, end: Infinity }, 1_000, Date.parse('2026-12-01T00:00:00Z'))).toThrow(RangeError);
  });
});

describe('the overview', () => {
  const aggregates = new ScoreAggregates({ bucketMs: minute, windowMs: 60 * minute, maxSeriesPerBucket: 50 });
  const add = (outcome: Parameters<typeof scoreRecord>[0], scorerId: string, minutesAgo: number) => aggregates.addRecord(scoreRecord(outcome, { scorerId }), now - minutesAgo * minute, now);
  // relevancy: 2 of 4 verdicts pass; tone: 3 of 4; completeness: no verdicts, 1 failed of 4; keyword: no verdicts, none failed.
  for (const [score, verdict] of [[0.9, 'pass'], [0.2, 'fail'], [0.8, 'pass'], [0.1, 'fail']] as const) add({ status: 'scored', score, verdict }, 'relevancy', 20);
  for (const [score, verdict] of [[0.9, 'pass'], [0.7, 'pass'], [0.8, 'pass'], [0.1, 'fail']] as const) add({ status: 'scored', score, verdict }, 'tone', 20);
  for (const score of [0.5, 0.5, 0.5]) add({ status: 'scored', score }, 'completeness', 30);
  add({ status: 'failed' }, 'completeness', 5);
  add({ status: 'scored', score: 1 }, 'keyword', 5);
  const store = viewModule.createBucketStore();
  viewModule.loadBuckets(store, JSON.parse(JSON.stringify(encodeBuckets(aggregates.view(now)))), SCORE_BIN_COUNT);
  const rows = overviewModule.overviewRows(viewModule.scorerViews(store, { binEdges: SCORE_BIN_EDGES, bucketMs: minute }, filtersModule.filtersFromSearch(''), { start: now - 60 * minute, end: Infinity }, now));

  it('has one row per scorer with its mean, pass rate, failure share and volume, worst first', () => {
    expect(rows.map((row) => row.scorer)).toEqual(['relevancy', 'tone', 'completeness', 'keyword']);
    expect(rows[0]).toMatchObject({ mean: 0.5, passRate: 0.5, verdicts: 4, failureShare: 0, volume: 4 });
    expect(rows[1]!.passRate).toBe(0.75);
    expect(rows[2]).toMatchObject({ mean: 0.5, passRate: undefined, verdicts: 0, failureShare: 0.25, volume: 4 });
  });

  it('trends the mean over at most 24 points, each the count-weighted mean of its buckets', () => {
    expect(rows[2]!.trend).toHaveLength(21);
    expect(overviewModule.coarseMeans([1, 3, 0, 0, 2], [0.1, 0.9, 0, 0, 2], 3)).toEqual([0.25, null, 1]);
    expect(overviewModule.sparklinePoints([0, null, 1, 0.5], 30, 10)).toEqual([[[0, 10]], [[20, 0], [30, 5]]]);
  });
});

describe('re-scores on feedback', () => {
  // A run judged 0.9 (pass); a person disagreed, and its re-score said 0.1 (fail); another re-score failed.
  const aggregates = new ScoreAggregates({ bucketMs: minute, windowMs: 60 * minute, maxSeriesPerBucket: 50 });
  aggregates.addRecord(scoreRecord({ status: 'scored', score: 0.9, verdict: 'pass' }, { scoreId: 'judged', scorerId: 'relevancy' }), now - 10 * minute, now);
  aggregates.addRecord(scoreRecord({ status: 'scored', score: 0.1, verdict: 'fail' }, { scoreId: 'again', scorerId: 'relevancy', rescore: { feedbackId: 'fb-1', reason: 'thumbs-down' } }), now - 9 * minute, now);
  aggregates.addRecord(scoreRecord({ status: 'failed' }, { scoreId: 'again-failed', scorerId: 'relevancy', rescore: { feedbackId: 'fb-2', reason: 'correction' } }), now - 9 * minute, now);
  const store = viewModule.createBucketStore();
  viewModule.loadBuckets(store, JSON.parse(JSON.stringify(encodeBuckets(aggregates.view(now)))), SCORE_BIN_COUNT);
  const config = { binEdges: SCORE_BIN_EDGES, bucketMs: minute };
  const all = filtersModule.filtersFromSearch('');
  const window = { start: now - 60 * minute, end: Infinity };
  const view = (filters: Filters) => viewModule.scorerViews(store, config, filters, window, now)[0]!;

  it('travel in the snapshot and stay out of the mean, the distribution, the verdicts and the states', () => {
    const relevancy = view(all);
    expect(relevancy.totals).toMatchObject({ scored: 1, mean: 0.9, pass: 1, fail: 0, failed: 0, rescores: 2 });
    expect(relevancy.distribution.reduce((a, b) => a + b, 0)).toBe(1);
    expect(relevancy.count.reduce((a, b) => a + b, 0)).toBe(1);
    expect(relevancy.failed.reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('are a count of their own: the status and score filters do not narrow it', () => {
    expect(view({ ...all, status: 'failed' }).totals).toMatchObject({ failed: 0, rescores: 2 });
    expect(view({ ...all, min: 0.5 }).totals).toMatchObject({ scored: 1, rescores: 2 });
    const side = viewModule.sideTotals(store, config, all, { start: now - 60 * minute, end: now + 1 });
    expect(side).toMatchObject({ scored: 1, rescores: 2 });
    expect(compareModule.compareSides(side, side).a).toMatchObject({ n: 1, records: 1, verdicts: 1, rescores: 2 });
  });

  it('are a column of the overview, not part of its volume or pass rate', () => {
    const [row] = overviewModule.overviewRows([view(all)]);
    expect(row).toMatchObject({ volume: 1, passRate: 1, failureShare: 0, rescores: 2 });
  });

  it('are said on a scorer card once there are any', () => {
    expect(markModule.rescoreCount(0)).toBe('');
    expect(markModule.rescoreCount(2)).toBe(' · re-scores 2 (not in these figures)');
  });

  it('are marked with their reason and feedback', () => {
    expect(markModule.rescoreLabel({ feedbackId: 'fb-1', reason: 'thumbs-down' })).toBe('re-score (thumbs-down)');
    expect(markModule.rescoreText({ feedbackId: 'fb-1', reason: 'correction' })).toBe('re-score (correction) for feedback fb-1');
  });

  it('are listed by "why no score?" right after the judged score of their scorer', () => {
    const mark = { feedbackId: 'fb-1', reason: 'thumbs-down' };
    const entries: LookupEntry[] = [
      { kind: 'score', scorer: 'relevancy' },
      { kind: 'score', scorer: 'tone' },
      { kind: 'decision', scorer: 'keyword' },
      { kind: 'score', scorer: 'relevancy', rescore: mark },
      { kind: 'score', scorer: 'orphan', rescore: mark }, // its judged score is not among the entries
      { kind: 'score', scorer: 'tone', rescore: mark },
    ];
    expect(lookupModule.lookupOrder(entries)).toEqual([0, 3, 1, 5, 2, 4]);
  });
});

describe('compare', () => {
  const hour = 3_600_000;
  const aggregates = new ScoreAggregates({ bucketMs: minute, windowMs: 6 * hour, maxSeriesPerBucket: 50 });
  // Version 1 an hour and a half ago: 0.2, 0.4 (one pass); version 2 in the last half hour: 0.6, 0.8, 1 (all pass).
  const add = (score: number, version: string, minutesAgo: number, verdict: 'pass' | 'fail') => aggregates.addRecord(scoreRecord({ status: 'scored', score, verdict }, { scorerId: 'relevancy', version }), now - minutesAgo * minute, now);
  add(0.2, '1', 90, 'fail');
  add(0.4, '1', 90, 'pass');
  add(0.6, '2', 20, 'pass');
  add(0.8, '2', 20, 'pass');
  add(1, '2', 10, 'pass');
  const store = viewModule.createBucketStore();
  viewModule.loadBuckets(store, JSON.parse(JSON.stringify(encodeBuckets(aggregates.view(now)))), SCORE_BIN_COUNT);
  const config = { binEdges: SCORE_BIN_EDGES, bucketMs: minute };
  const all = { ...filtersModule.filtersFromSearch(''), scorer: 'relevancy' };

  it('compares two time ranges: sample sizes, means ± sd, pass rates and the tests between them', () => {
    const sides = compareModule.defaultTimeSides(now, 6 * hour);
    expect(sides).toEqual({ a: { start: now - 2 * hour, end: now - hour }, b: { start: now - hour, end: now } });
    const result = compareModule.compareSides(viewModule.sideTotals(store, config, all, sides.a), viewModule.sideTotals(store, config, all, sides.b));
    expect(result.a).toMatchObject({ n: 2, records: 2, passRate: 0.5, verdicts: 2 });
    expect(result.a.mean).toBeCloseTo(0.3, 12);
    expect(result.a.sd).toBeCloseTo(Math.sqrt(0.02), 12);
    expect(result.b.mean).toBeCloseTo(0.8, 12);
    expect(result.b.sd).toBeCloseTo(0.2, 12);
    expect(result.means!.t).toBeGreaterThan(0);
    expect(result.distributions!.bHigher).toBe(1);
    expect(result.passRates!.p).toBeDefined();
    expect(result.b.shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('compares two versions over the same range, the most recent two by default', () => {
    const window = { start: now - 6 * hour, end: now + 1 };
    expect(compareModule.defaultVersions(['2', '10', '1'])).toEqual({ a: '2', b: '10' });
    expect(compareModule.defaultVersions([''])).toBeUndefined();
    const one = viewModule.sideTotals(store, config, all, window, '1');
    const two = viewModule.sideTotals(store, config, all, window, '2');
    expect([one.scored, two.scored]).toEqual([2, 3]);
    expect(one.covered).toEqual({ start: now - 90 * minute, end: now - 89 * minute });
  });

  it('leaves out the variance and pass rate under a score range, where only the bins are exact', () => {
    const window = { start: now - 6 * hour, end: now + 1 };
    const result = compareModule.compareSides(viewModule.sideTotals(store, config, { ...all, min: 0.3 }, window, '1'), viewModule.sideTotals(store, config, { ...all, min: 0.3 }, window, '2'));
    expect(result.a).toMatchObject({ n: 1, sd: undefined, passRate: undefined, verdicts: 0 });
    expect(result.means).toBeUndefined();
    expect(result.passRates).toBeUndefined();
  });
});

describe('the feedback view', () => {
  const all = filtersModule.filtersFromSearch('');
  it('groups windows per scorer version, oldest first, inside the time range and the scorer filter', () => {
    const windows = [
      { scorer: 'b', version: '', start: 0, end: 30, n: 1 },
      { scorer: 'a', version: '2', start: 0, end: 20, n: 1 },
      { scorer: 'a', version: '2', start: 0, end: 10, n: 1 },
      { scorer: 'a', version: '1', start: 0, end: 10, n: 1 },
      { scorer: 'a', version: '1', start: 100, end: 110, n: 1 },
    ];
    const groups = feedbackModule.agreementGroups(windows, all, { start: 5, end: 50 });
    expect(groups.map((group) => [group.scorer, group.version, group.windows.map((window) => window.end)])).toEqual([['a', '1', [10]], ['a', '2', [10, 20]], ['b', '', [30]]]);
    expect(feedbackModule.agreementGroups(windows, { ...all, scorer: 'b' }, { start: 0, end: Infinity }).map((group) => group.scorer)).toEqual(['b']);
  });

  it('lists the disagreements under the filters, most recent first', () => {
    const pairs = [
      { agreementId: 'old', scorer: 'a', agent: 'support', tenant: 'acme', at: 1 },
      { agreementId: 'new', scorer: 'a', agent: 'support', tenant: 'globex', at: 5 },
      { agreementId: 'other', scorer: 'b', tenant: '(none)', at: 3 },
    ];
    expect(feedbackModule.disagreementsShown(pairs, all, { start: 0, end: Infinity }).map((pair) => pair.agreementId)).toEqual(['new', 'other', 'old']);
    expect(feedbackModule.disagreementsShown(pairs, { ...all, tenant: 'acme' }, { start: 0, end: Infinity }).map((pair) => pair.agreementId)).toEqual(['old']);
    expect(feedbackModule.disagreementsShown(pairs, { ...all, agent: 'support' }, { start: 2, end: Infinity }).map((pair) => pair.agreementId)).toEqual(['new']);
  });

  it('says why it has nothing to show: no topic configured, or a topic that does not exist', () => {
    expect(feedbackModule.agreementsNotice({ state: 'off' })).toContain("--agreements-topic ''");
    expect(feedbackModule.agreementsNotice({ topic: 'x', state: 'missing' })).toContain("The agreements topic 'x' does not exist");
    expect(feedbackModule.agreementsNotice({ topic: 'x', state: 'reading' })).toBeUndefined();
  });
});

describe('live agreement events', () => {
  it('replace a window published again and keep the most recent disagreements', () => {
    const agreements: Agreements = { windows: [{ scorer: 's', version: '', start: 0, end: 10, n: 3 }], disagreements: [] };
    feedbackModule.addAgreement(agreements, { window: { scorer: 's', version: '', start: 0, end: 10, n: 5 } }, 2);
    feedbackModule.addAgreement(agreements, { window: { scorer: 's', version: '2', start: 0, end: 10, n: 1 } }, 2);
    expect(agreements.windows.map((window) => window.n)).toEqual([5, 1]);
    for (const agreementId of ['a', 'b', 'c']) feedbackModule.addAgreement(agreements, { disagreement: { agreementId } }, 2);
    expect(agreements.disagreements.map((pair) => pair.agreementId)).toEqual(['b', 'c']);
  });

  it('replace a disagreement published again under its agreementId, and drop one whose pair now agrees', () => {
    const agreements: Agreements = { windows: [], disagreements: [] };
    for (const agreementId of ['a', 'b']) feedbackModule.addAgreement(agreements, { disagreement: { agreementId, at: 1 } }, 5);
    feedbackModule.addAgreement(agreements, { disagreement: { agreementId: 'a', at: 2 } }, 5);
    expect(agreements.disagreements).toEqual([{ agreementId: 'b', at: 1 }, { agreementId: 'a', at: 2 }]);
    feedbackModule.addAgreement(agreements, { resolved: 'b' }, 5);
    expect(agreements.disagreements).toEqual([{ agreementId: 'a', at: 2 }]);
  });
});
