// Judge spend on the web dashboard: the records' `spend` summed per series by the server
// (aggregates.ts), sent in the snapshot's compact form (wire-buckets.ts), decoded by the page and
// summed per scorer version and per tenant under the filters (public/spend-view.js): re-scores'
// calls counted (they were paid), the status filter not applied, unpriced calls apart, one currency.
import { describe, expect, it } from 'vitest';
import { ScoreAggregates } from '../../../dashboard/aggregates.ts';
import { SCORE_BIN_COUNT } from '../../../dashboard/score-bins.ts';
import { encodeBuckets } from '../../../dashboard/wire-buckets.ts';
import type { RecordSpend } from '../../../src/kit/contracts/record-spend.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { scoreRecord } from '../../helpers/dashboard-records.ts';

type Row = { judgeCalls: number; inputTokens: number; cachedInputTokens: number; outputTokens: number; cost: number; unpricedCalls: number };
type SpendModule = {
  spendViews(store: Map<number, unknown>, filters: Record<string, unknown>, window: { start: number; end: number }): { byScorer: (Row & { scorer: string; version: string })[]; byTenant: (Row & { tenant: string })[]; totals: Row; currency: string };
  formatCost(amount: number, currency: string): string;
  cachedShare(row: Row): string;
};
type ViewModule = { createBucketStore(): Map<number, unknown>; loadBuckets(store: Map<number, unknown>, buckets: unknown, binCount: number): void };
const load = async <T>(name: string): Promise<T> => (await import(new URL(`../../../dashboard/public/${name}`, import.meta.url).href)) as T;

const spend = (judgeCalls: number, cost: number | undefined, extra: Partial<RecordSpend> = {}): RecordSpend => ({
  judgeCalls,
  inputTokens: 1000 * judgeCalls,
  cachedInputTokens: 400 * judgeCalls,
  cacheWriteTokens: 0,
  outputTokens: 50 * judgeCalls,
  reasoningTokens: 0,
  ...(cost === undefined ? {} : { cost: { amount: cost, unit: 'USD' } }),
  ...extra,
});
const withSpend = (record: ScoreRecord, value: RecordSpend): ScoreRecord => ({ ...record, spend: value });

describe('judge spend on the dashboard', () => {
  it('sums spend per scorer version and tenant under the filters, re-scores and failed records included', async () => {
    const aggregates = new ScoreAggregates({ bucketMs: 60_000, windowMs: 3_600_000, maxSeriesPerBucket: 50 });
    const now = 10 * 3_600_000;
    const at = now - 5 * 60_000;
    const add = (record: ScoreRecord) => aggregates.addRecord(record, at, now);
    add(withSpend(scoreRecord({ status: 'scored', score: 0.9 }, { scorerId: 'relevancy', version: '2', tenant: 'acme', at }), spend(2, 0.0012)));
    add(withSpend(scoreRecord({ status: 'failed' }, { scorerId: 'relevancy', version: '2', tenant: 'acme', at }), spend(1, 0.0006)));
    add(withSpend(scoreRecord({ status: 'scored', score: 0.2 }, { scorerId: 'relevancy', version: '2', tenant: 'globex', at, rescore: { feedbackId: 'f-1', reason: 'thumbs-down' } }), spend(1, 0.0006)));
    add(withSpend(scoreRecord({ status: 'scored', score: 0.5 }, { scorerId: 'house-judge', tenant: 'globex', at }), spend(3, undefined, { unpricedCalls: 3 })));
    add(scoreRecord({ status: 'scored', score: 1 }, { scorerId: 'completeness', tenant: 'acme', at }));

    const view = await load<ViewModule>('aggregate-view.js');
    const { spendViews, formatCost, cachedShare } = await load<SpendModule>('spend-view.js');
    const store = view.createBucketStore();
    const wire = encodeBuckets(aggregates.view(now));
    // A series without judge calls sends no spend.
    const completeness = wire.buckets[0]!.series.find((series) => wire.names[series[0] as number] === 'completeness')!;
    expect(completeness.at(-1)).toEqual([]);
    view.loadBuckets(store, wire, SCORE_BIN_COUNT);
    const window = { start: now - 3_600_000, end: now };

    const all = spendViews(store, {}, window);
    expect(all.currency).toBe('USD');
    expect(all.totals).toMatchObject({ judgeCalls: 7, inputTokens: 7000, cachedInputTokens: 2800, outputTokens: 350, unpricedCalls: 3 });
    expect(all.totals.cost).toBeCloseTo(0.0024, 12);
    expect(all.byScorer.map((row) => [row.scorer, row.version, row.judgeCalls])).toEqual([['relevancy', '2', 4], ['house-judge', '', 3]]);
    expect(all.byTenant.map((row) => [row.tenant, row.judgeCalls])).toEqual([['acme', 3], ['globex', 4]]);
    expect(all.byTenant[0]!.cost).toBeCloseTo(0.0018, 12);

    const acme = spendViews(store, { tenant: 'acme', status: 'scored' }, window);
    expect(acme.totals.judgeCalls).toBe(3);
    expect(spendViews(store, { scorer: 'house-judge' }, window).totals).toMatchObject({ judgeCalls: 3, cost: 0, unpricedCalls: 3 });
    expect(spendViews(store, {}, { start: now - 60_000, end: now }).totals.judgeCalls).toBe(0);

    expect(formatCost(0.0024, 'USD')).toBe('0.0024 USD');
    expect(formatCost(12.345, 'EUR')).toBe('12.35 EUR');
    expect(formatCost(0.00000245, 'USD')).toBe('2.45e-6 USD');
    expect(formatCost(0, '')).toBe('—');
    expect(cachedShare(all.totals)).toBe('40%');
  });
});
