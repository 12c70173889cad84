// The buckets as a page receives them in a snapshot: compact, because a 6-hour look-back holds
// up to (buckets × series) tallies. Names are sent once in a table and referred to by index; each
// tally is [scorer, version, agent, tenant, scored, notScorable, failed, rescores, sum, sumSquares,
// pass, fail, bins, spend], where bins lists only the non-empty bins as flat (bin, count, sum)
// triples and spend is [] without judge calls, else [judgeCalls, inputTokens, cachedInputTokens,
// outputTokens, cost, currency, unpricedCalls] (currency by name index); each
// skip tally is [scorer, agent, tenant, reason, count].
// The page decodes them (public/aggregate-view.js: loadBuckets).
import type { BucketView } from './aggregates.ts';

export type WireBuckets = {
  names: string[];
  buckets: { start: number; series: (number | number[])[][]; skips: number[][] }[];
};

const round = (value: number) => Math.round(value * 1e6) / 1e6;
/** Costs keep the precision the records' do (a call can cost a millionth of a dollar). */
const round9 = (value: number) => Math.round(value * 1e9) / 1e9;

export function encodeBuckets(view: BucketView[]): WireBuckets {
  const names: string[] = [];
  const index = new Map<string, number>();
  const ref = (name: string) => {
    let at = index.get(name);
    if (at === undefined) {
      at = names.length;
      names.push(name);
      index.set(name, at);
    }
    return at;
  };
  return {
    names,
    buckets: view.map((bucket) => ({
      start: bucket.start,
      series: bucket.series.map((tally) => {
        const bins: number[] = [];
        tally.bins.forEach((count, bin) => {
          if (count > 0) bins.push(bin, count, round(tally.binSums[bin]!));
        });
        const spend = tally.judgeCalls === 0 ? [] : [tally.judgeCalls, tally.inputTokens, tally.cachedInputTokens, tally.outputTokens, round9(tally.cost), ref(tally.currency), tally.unpricedCalls];
        return [ref(tally.scorer), ref(tally.version), ref(tally.agent), ref(tally.tenant), tally.scored, tally.notScorable, tally.failed, tally.rescores, round(tally.sum), round(tally.sumSquares), tally.pass, tally.fail, bins, spend];
      }),
      skips: bucket.skips.map((tally) => [ref(tally.scorer), ref(tally.agent), ref(tally.tenant), ref(tally.reason), tally.count]),
    })),
  };
}
