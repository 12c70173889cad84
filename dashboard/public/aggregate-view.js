// What the charts, the overview and compare show, computed from the server's time buckets under
// the filters: per scorer the mean score over time, the score distribution, the counts by status
// and verdict, the re-scores, and the skip reasons. Only `scored` records are scores;
// `not_scorable` and `failed` are counted as states; re-scores (dashboard/aggregates.ts) are in none
// of those and counted apart. The status and score filters narrow scores and states, not re-scores. The score range applies on the histogram's 0.1 bins (each bin keeps the
// sum of its scores, so the mean of the bins in range is exact); the table applies it to each
// score exactly. A time chart spans the whole selected window with one point per bucket, empty
// buckets included, so a few seconds of data, a gap, or the whole look-back are all drawn to scale.
import { scoreFilterActive } from './filters.js';

/** The agent and tenant of skips whose decisions do not say (dashboard/aggregates.ts UNKNOWN). */
export const UNKNOWN = '(not recorded)';

export function createBucketStore() {
  return new Map();
}

export function setSeriesTally(store, start, tally) {
  bucketAt(store, start).series.set(`${tally.scorer}\u0000${tally.version}\u0000${tally.agent}\u0000${tally.tenant}`, tally);
}

export function setSkipTally(store, start, tally) {
  bucketAt(store, start).skips.set(`${tally.scorer}\u0000${tally.agent}\u0000${tally.tenant}\u0000${tally.reason}`, tally);
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
    for (const [scorer, version, agent, tenant, scored, notScorable, failed, rescores, sum, sumSquares, pass, fail, sparse, spendWire = []] of bucket.series) {
      const bins = new Array(binCount).fill(0);
      const binSums = new Array(binCount).fill(0);
      for (let at = 0; at < sparse.length; at += 3) {
        bins[sparse[at]] = sparse[at + 1];
        binSums[sparse[at]] = sparse[at + 2];
      }
      const [judgeCalls = 0, inputTokens = 0, cachedInputTokens = 0, outputTokens = 0, cost = 0, currency, unpricedCalls = 0] = spendWire;
      const spend = { judgeCalls, inputTokens, cachedInputTokens, outputTokens, cost, currency: currency === undefined ? '' : names[currency], unpricedCalls };
      setSeriesTally(store, bucket.start, { scorer: names[scorer], version: names[version], agent: names[agent], tenant: names[tenant], scored, notScorable, failed, rescores, sum, sumSquares, pass, fail, bins, binSums, ...spend });
    }
    for (const [scorer, agent, tenant, reason, count] of bucket.skips) setSkipTally(store, bucket.start, { scorer: names[scorer], agent: names[agent], tenant: names[tenant], reason: names[reason], count });
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

/** The distinct scorers, agents and tenants in the buckets, for the filter menus, and each scorer's versions. */
export function knownNames(store) {
  const names = { scorer: new Set(), agent: new Set(), tenant: new Set() };
  const versions = new Map();
  for (const bucket of store.values()) {
    for (const tally of bucket.series.values()) {
      names.scorer.add(tally.scorer);
      names.agent.add(tally.agent);
      names.tenant.add(tally.tenant);
      if (!versions.has(tally.scorer)) versions.set(tally.scorer, new Set());
      versions.get(tally.scorer).add(tally.version);
    }
    for (const tally of bucket.skips.values()) {
      names.scorer.add(tally.scorer);
      if (tally.agent !== UNKNOWN) names.agent.add(tally.agent);
      if (tally.tenant !== UNKNOWN) names.tenant.add(tally.tenant);
    }
  }
  return {
    scorer: [...names.scorer].sort(),
    agent: [...names.agent].sort(),
    tenant: [...names.tenant].sort(),
    versions: new Map([...versions].map(([scorer, set]) => [scorer, [...set].sort()])),
  };
}

/**
 * Every bucket start of the window, oldest first (the first bucket may begin a little before the
 * window), and what a time chart's x axis spans, in seconds: from that first bucket's start to the
 * window's end, or to now when it is open-ended.
 */
export function timeGrid(window, bucketMs, now) {
  const end = Math.min(window.end, now);
  const first = Math.floor(window.start / bucketMs) * bucketMs;
  // The server keeps at most look-back ÷ bucket + 2 buckets; a grid far longer is a caller's mistake (a window and a now from different clocks).
  if (!((end - first) / bucketMs < 1_000_000)) throw new RangeError(`timeGrid: ${window.start}..${end} is too many buckets of ${bucketMs} ms`);
  const starts = [];
  for (let start = first; start <= end; start += bucketMs) starts.push(start);
  return { starts, range: [first / 1000, Math.max(end, first + bucketMs) / 1000] };
}

/** Whether a series tally passes the scorer, version, agent and tenant filters. */
function seriesMatches(tally, filters, version) {
  if (filters.scorer && tally.scorer !== filters.scorer) return false;
  if (version !== undefined && tally.version !== version) return false;
  if (filters.agent && tally.agent !== filters.agent) return false;
  if (filters.tenant && tally.tenant !== filters.tenant) return false;
  return true;
}

function emptyTotals(binCount) {
  // `exact`: whether sumSquares and the verdicts cover every scored record counted (not under a score range).
  return { scored: 0, sum: 0, sumSquares: 0, notScorable: 0, failed: 0, rescores: 0, pass: 0, fail: 0, exact: true, skipped: 0, unattributedSkips: 0, distribution: new Array(binCount).fill(0) };
}

/** Adds a tally into totals under the status and score-range filters; returns what it added to scored and sum. */
function addTally(totals, tally, filters, keptBins) {
  const wantScored = filters.status === '' || filters.status === 'scored';
  const wantStates = !scoreFilterActive(filters);
  let count = 0;
  let sum = 0;
  if (wantScored) {
    tally.bins.forEach((binCount, bin) => {
      if (!keptBins[bin]) return;
      count += binCount;
      sum += tally.binSums[bin];
      totals.distribution[bin] += binCount;
    });
    totals.scored += count;
    totals.sum += sum;
    // Squares and verdicts are kept per tally, not per bin: exact only without a score range.
    if (scoreFilterActive(filters)) totals.exact = false;
    else {
      totals.sumSquares += tally.sumSquares;
      totals.pass += tally.pass;
      totals.fail += tally.fail;
    }
  }
  if (wantStates && (filters.status === '' || filters.status === 'not_scorable')) totals.notScorable += tally.notScorable;
  if (wantStates && (filters.status === '' || filters.status === 'failed')) totals.failed += tally.failed;
  totals.rescores += tally.rescores;
  return { count, sum };
}

/** Adds a skip tally; a skip whose agent or tenant is not recorded cannot pass an agent or tenant filter and is counted apart. */
function addSkip(view, tally, filters) {
  const filtered = Boolean(filters.agent || filters.tenant);
  if (filtered && (tally.agent === UNKNOWN || tally.tenant === UNKNOWN)) {
    view.totals.unattributedSkips += tally.count;
    return;
  }
  if (filters.agent && tally.agent !== filters.agent) return;
  if (filters.tenant && tally.tenant !== filters.tenant) return;
  view.skips.set(tally.reason, (view.skips.get(tally.reason) ?? 0) + tally.count);
  view.totals.skipped += tally.count;
}

/**
 * Per scorer: x (bucket starts in seconds, every bucket of the window), xRange (the window in
 * seconds), mean, counts by status, distribution, totals, skips by reason.
 */
export function scorerViews(store, { binEdges, bucketMs }, filters, window, now) {
  const { starts, range } = timeGrid(window, bucketMs, now);
  const keptBins = binsInRange(binEdges, filters);
  const views = new Map();
  const viewOf = (scorer) => {
    let view = views.get(scorer);
    if (view === undefined) {
      view = {
        scorer,
        x: starts.map((start) => start / 1000),
        xRange: range,
        count: starts.map(() => 0),
        sum: starts.map(() => 0),
        notScorable: starts.map(() => 0),
        failed: starts.map(() => 0),
        skips: new Map(),
        totals: emptyTotals(keptBins.length),
      };
      views.set(scorer, view);
    }
    return view;
  };
  starts.forEach((start, index) => {
    const bucket = store.get(start);
    if (bucket === undefined) return;
    for (const tally of bucket.series.values()) {
      if (!seriesMatches(tally, filters)) continue;
      const view = viewOf(tally.scorer);
      const before = { notScorable: view.totals.notScorable, failed: view.totals.failed };
      const added = addTally(view.totals, tally, filters, keptBins);
      view.count[index] += added.count;
      view.sum[index] += added.sum;
      view.notScorable[index] += view.totals.notScorable - before.notScorable;
      view.failed[index] += view.totals.failed - before.failed;
    }
    for (const tally of bucket.skips.values()) if (!filters.scorer || tally.scorer === filters.scorer) addSkip(viewOf(tally.scorer), tally, filters);
  });
  for (const view of views.values()) {
    view.mean = view.count.map((count, index) => (count === 0 ? null : view.sum[index] / count));
    view.distribution = view.totals.distribution;
    view.totals.mean = view.totals.scored === 0 ? null : view.totals.sum / view.totals.scored;
  }
  return [...views.values()].sort((a, b) => a.scorer.localeCompare(b.scorer));
}

/**
 * One side of a comparison: a scorer's totals over [window.start, window.end) under the filters,
 * for one version or all (version undefined), and the buckets' actual edges (a side covers whole
 * buckets: those whose start lies inside it).
 */
export function sideTotals(store, { binEdges, bucketMs }, filters, window, version) {
  const keptBins = binsInRange(binEdges, filters);
  const totals = emptyTotals(keptBins.length);
  let first;
  let last;
  for (const [start, bucket] of store) {
    if (start < window.start || start >= window.end) continue;
    let counted = false;
    for (const tally of bucket.series.values()) {
      if (!seriesMatches(tally, filters, version)) continue;
      addTally(totals, tally, filters, keptBins);
      counted = true;
    }
    if (!counted) continue;
    first = first === undefined ? start : Math.min(first, start);
    last = last === undefined ? start + bucketMs : Math.max(last, start + bucketMs);
  }
  return { ...totals, covered: first === undefined ? undefined : { start: first, end: last } };
}
