// What each scorer's charts show, computed from the server's time buckets under the filters:
// mean score over time, the score distribution and the counts by status over time, plus skip
// reasons. Only `scored` records are scores; `not_scorable` and `failed` are counted as states.
// The score range applies to the charts on the histogram's 0.1 bins (each bin keeps the sum of its
// scores, so the mean of the bins in range is exact); the table applies it to each score exactly.
import { scoreFilterActive } from './filters.js';

export function createBucketStore() {
  return new Map();
}

export function setSeriesTally(store, start, tally) {
  bucketAt(store, start).series.set(`${tally.scorer}\u0000${tally.agent}\u0000${tally.tenant}`, tally);
}

export function setSkipTally(store, start, tally) {
  bucketAt(store, start).skips.set(`${tally.scorer}\u0000${tally.reason}`, tally);
}

function bucketAt(store, start) {
  let bucket = store.get(start);
  if (bucket === undefined) {
    bucket = { start, series: new Map(), skips: new Map() };
    store.set(start, bucket);
  }
  return bucket;
}

/** Loads a snapshot's buckets (the compact form of dashboard/wire-buckets.ts). */
export function loadBuckets(store, { names, buckets }, binCount) {
  store.clear();
  for (const bucket of buckets) {
    for (const [scorer, agent, tenant, scored, notScorable, failed, sum, sparse] of bucket.series) {
      const bins = new Array(binCount).fill(0);
      const binSums = new Array(binCount).fill(0);
      for (let at = 0; at < sparse.length; at += 3) {
        bins[sparse[at]] = sparse[at + 1];
        binSums[sparse[at]] = sparse[at + 2];
      }
      setSeriesTally(store, bucket.start, { scorer: names[scorer], agent: names[agent], tenant: names[tenant], scored, notScorable, failed, sum, bins, binSums });
    }
    for (const [scorer, reason, count] of bucket.skips) setSkipTally(store, bucket.start, { scorer: names[scorer], reason: names[reason], count });
  }
}

export function pruneBuckets(store, oldestStart) {
  for (const start of store.keys()) if (start < oldestStart) store.delete(start);
}

/** Which of the histogram's bins (below 0, ten over [0, 1], above 1) the score range keeps. */
export function binsInRange(binEdges, filters) {
  const count = binEdges.length + 1;
  const kept = [];
  for (let bin = 0; bin < count; bin += 1) {
    const low = bin === 0 ? -Infinity : binEdges[bin - 1];
    const high = bin === count - 1 ? Infinity : bin === 0 ? binEdges[0] : binEdges[bin];
    const aboveMin = filters.min === undefined || low >= filters.min - 1e-9;
    const belowMax = filters.max === undefined || high <= filters.max + 1e-9;
    kept.push(aboveMin && belowMax);
  }
  return kept;
}

/** The distinct scorers, agents and tenants in the buckets, for the filter menus. */
export function knownNames(store) {
  const names = { scorer: new Set(), agent: new Set(), tenant: new Set() };
  for (const bucket of store.values()) {
    for (const tally of bucket.series.values()) {
      names.scorer.add(tally.scorer);
      names.agent.add(tally.agent);
      names.tenant.add(tally.tenant);
    }
    for (const tally of bucket.skips.values()) names.scorer.add(tally.scorer);
  }
  return { scorer: [...names.scorer].sort(), agent: [...names.agent].sort(), tenant: [...names.tenant].sort() };
}

/** Per scorer: x (bucket starts in seconds), mean, counts by status, distribution, totals, skips. */
export function scorerViews(store, { binEdges, bucketMs }, filters, window) {
  const starts = [...store.keys()].filter((start) => start + bucketMs > window.start && start <= window.end).sort((a, b) => a - b);
  const keptBins = binsInRange(binEdges, filters);
  const wantScored = filters.status === '' || filters.status === 'scored';
  const wantNotScorable = (filters.status === '' || filters.status === 'not_scorable') && !scoreFilterActive(filters);
  const wantFailed = (filters.status === '' || filters.status === 'failed') && !scoreFilterActive(filters);
  const views = new Map();
  const viewOf = (scorer) => {
    let view = views.get(scorer);
    if (view === undefined) {
      view = {
        scorer,
        x: starts.map((start) => start / 1000),
        count: starts.map(() => 0),
        sum: starts.map(() => 0),
        notScorable: starts.map(() => 0),
        failed: starts.map(() => 0),
        distribution: keptBins.map(() => 0),
        skips: new Map(),
      };
      views.set(scorer, view);
    }
    return view;
  };
  starts.forEach((start, index) => {
    const bucket = store.get(start);
    for (const tally of bucket.series.values()) {
      if (filters.scorer && tally.scorer !== filters.scorer) continue;
      if (filters.agent && tally.agent !== filters.agent) continue;
      if (filters.tenant && tally.tenant !== filters.tenant) continue;
      const view = viewOf(tally.scorer);
      if (wantScored) {
        tally.bins.forEach((binCount, bin) => {
          if (!keptBins[bin]) return;
          view.count[index] += binCount;
          view.sum[index] += tally.binSums[bin];
          view.distribution[bin] += binCount;
        });
      }
      if (wantNotScorable) view.notScorable[index] += tally.notScorable;
      if (wantFailed) view.failed[index] += tally.failed;
    }
    for (const tally of bucket.skips.values()) {
      if (filters.scorer && tally.scorer !== filters.scorer) continue;
      const view = viewOf(tally.scorer);
      view.skips.set(tally.reason, (view.skips.get(tally.reason) ?? 0) + tally.count);
    }
  });
  for (const view of views.values()) {
    view.mean = view.count.map((count, index) => (count === 0 ? null : view.sum[index] / count));
    view.totals = {
      scored: sum(view.count),
      mean: sum(view.count) === 0 ? null : sum(view.sum) / sum(view.count),
      notScorable: sum(view.notScorable),
      failed: sum(view.failed),
      skipped: sum([...view.skips.values()]),
    };
  }
  return [...views.values()].sort((a, b) => a.scorer.localeCompare(b.scorer));
}

const sum = (values) => values.reduce((total, value) => total + value, 0);
