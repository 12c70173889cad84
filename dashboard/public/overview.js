// The overview a team reads first: every scorer as one row — its mean score, pass rate (when its
// records carry verdicts), the mean's trend, the share of failed records, the volume, the
// re-scores on feedback (counted apart) — worst first. Pure: the per-scorer views (aggregate-view.js) in, rows out.

/** The mean over `points` groups of consecutive buckets (count-weighted); null where a group has no score. */
export function coarseMeans(counts, sums, points) {
  const size = Math.max(1, Math.ceil(counts.length / points));
  const means = [];
  for (let at = 0; at < counts.length; at += size) {
    let count = 0;
    let sum = 0;
    for (let index = at; index < Math.min(counts.length, at + size); index += 1) {
      count += counts[index];
      sum += sums[index];
    }
    means.push(count === 0 ? null : sum / count);
  }
  return means;
}

const TREND_POINTS = 24;

/** One row per scorer view. */
export function overviewRows(views) {
  return views.map((view) => {
    const { totals } = view;
    const verdicts = totals.pass + totals.fail;
    const volume = totals.scored + totals.notScorable + totals.failed;
    return {
      scorer: view.scorer,
      mean: totals.mean,
      passRate: verdicts === 0 ? undefined : totals.pass / verdicts,
      verdicts,
      failureShare: volume === 0 ? undefined : totals.failed / volume,
      volume,
      scored: totals.scored,
      skipped: totals.skipped,
      /** Not in the volume, mean or pass rate: a re-score is a run's second opinion (aggregate-view.js). */
      rescores: totals.rescores,
      trend: coarseMeans(view.count, view.sum, TREND_POINTS),
    };
  }).sort(worstFirst);
}

/**
 * Worst first: the lowest pass rate first; scorers without verdicts after those, the largest
 * share of failed records first (a mean alone says nothing of better or worse: for toxicity, low
 * is good); then by name.
 */
export function worstFirst(a, b) {
  if (a.passRate !== undefined || b.passRate !== undefined) {
    if (a.passRate === undefined) return 1;
    if (b.passRate === undefined) return -1;
    if (a.passRate !== b.passRate) return a.passRate - b.passRate;
  }
  const failure = (b.failureShare ?? -1) - (a.failureShare ?? -1);
  return failure !== 0 ? failure : a.scorer.localeCompare(b.scorer);
}

/** Points of a sparkline: the non-empty values' positions in a width × height box (y down). */
export function sparklinePoints(values, width, height, range = [0, 1]) {
  const [low, high] = [Math.min(range[0], ...values.filter((value) => value !== null)), Math.max(range[1], ...values.filter((value) => value !== null))];
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const runs = [];
  let current = [];
  values.forEach((value, index) => {
    if (value === null) {
      if (current.length > 0) runs.push(current);
      current = [];
      return;
    }
    const x = values.length > 1 ? index * step : width / 2;
    const y = high === low ? height / 2 : height - ((value - low) / (high - low)) * height;
    current.push([Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
  });
  if (current.length > 0) runs.push(current);
  return runs;
}
