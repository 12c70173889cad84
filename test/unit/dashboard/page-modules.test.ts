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
type View = { scorer: string; x: number[]; mean: (number | null)[]; count: number[]; notScorable: number[]; failed: number[]; distribution: number[]; skips: Map<string, number>; totals: Record<string, number | null> };
type ViewModule = {
  createBucketStore(): Map<number, unknown>;
  loadBuckets(store: Map<number, unknown>, buckets: unknown, binCount: number): void;
  binsInRange(edges: readonly number[], filters: Filters): boolean[];
  scorerViews(store: Map<number, unknown>, config: { binEdges: readonly number[]; bucketMs: number }, filters: Filters, window: { start: number; end: number }): View[];
  knownNames(store: Map<number, unknown>): Record<string, string[]>;
};

const load = async <T>(name: string): Promise<T> => (await import(new URL(`../../../dashboard/public/${name}`, import.meta.url).href)) as T;
const filtersModule = await load<FiltersModule>('filters.js');
const viewModule = await load<ViewModule>('aggregate-view.js');

const minute = 60_000;
const now = 1_000 * minute;

describe('page filters', () => {
  it('round-trips through the URL', () => {
    const filters = filtersModule.filtersFromSearch('?scorer=toxicity&agent=a%20b&tenant=acme&status=scored&min=0.2&max=0.8&range=1h&sort=score&order=asc&record=x');
    expect(filters).toMatchObject({ scorer: 'toxicity', agent: 'a b', tenant: 'acme', status: 'scored', min: 0.2, max: 0.8, range: '1h', sort: 'score', order: 'asc', record: 'x' });
    expect(filtersModule.filtersFromSearch(filtersModule.searchFromFilters(filters))).toEqual(filters);
    expect(filtersModule.searchFromFilters(filtersModule.filtersFromSearch(''))).toBe('');
  });

  it('ignores values it does not know', () => {
    expect(filtersModule.filtersFromSearch('?status=<script>&range=99y&min=abc&sort=evil')).toMatchObject({ status: '', range: '', min: undefined, sort: 'at' });
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

  it('means and distributions count only scored records; the other states are counts', () => {
    const views = viewModule.scorerViews(store, config, all, window);
    expect(views.map((view) => view.scorer)).toEqual(['completeness', 'toxicity']);
    const toxicity = views[1]!;
    expect(toxicity.mean).toEqual([0.55, null]);
    expect(toxicity.totals).toMatchObject({ scored: 2, notScorable: 1, failed: 0, skipped: 1 });
    expect(toxicity.distribution.reduce((a, b) => a + b, 0)).toBe(2);
    const completeness = views[0]!;
    expect(completeness.mean).toEqual([null, null]);
    expect(completeness.failed).toEqual([0, 1]);
  });

  it('filters by tenant, status and score range', () => {
    expect(viewModule.scorerViews(store, config, { ...all, tenant: 'globex' }, window).find((view) => view.scorer === 'toxicity')!.mean).toEqual([0.9, null]);
    const onlyFailed = viewModule.scorerViews(store, config, { ...all, status: 'failed' }, window);
    expect(onlyFailed.find((view) => view.scorer === 'toxicity')!.totals).toMatchObject({ scored: 0, notScorable: 0 });
    const high = viewModule.scorerViews(store, config, { ...all, min: 0.5 }, window).find((view) => view.scorer === 'toxicity')!;
    expect(high.mean).toEqual([0.9, null]);
    expect(high.totals.notScorable).toBe(0);
    expect(viewModule.scorerViews(store, config, { ...all, scorer: 'completeness' }, window).map((view) => view.scorer)).toEqual(['completeness']);
  });

  it('keeps the histogram bins inside the score range', () => {
    const kept = viewModule.binsInRange(SCORE_BIN_EDGES, { min: 0.3, max: 0.5 });
    expect(kept.map((value, bin) => (value ? bin : -1)).filter((bin) => bin >= 0)).toEqual([4, 5]);
    expect(viewModule.binsInRange(SCORE_BIN_EDGES, {}).every(Boolean)).toBe(true);
  });

  it('decodes the compact snapshot buckets into the tallies the server keeps', () => {
    const decoded = [...store.values()].flatMap((bucket) => [...(bucket as { series: Map<string, unknown> }).series.values()]);
    const original = aggregates.view(now).flatMap((bucket) => bucket.series);
    expect(decoded).toEqual(original);
  });

  it('lists the names for the filter menus', () => {
    expect(viewModule.knownNames(store)).toEqual({ scorer: ['completeness', 'toxicity'], agent: ['support-agent'], tenant: ['acme', 'globex'] });
  });
});
