// Compare puts two sides of one scorer next to each other — two time ranges, or two of its
// versions over the same range — with their sample sizes, means, distributions and pass rates,
// and a significance hint for each difference (statistics.js). Pure: side totals
// (aggregate-view.js: sideTotals) in, the comparison out.
import { mannWhitneyU, meanAndVariance, twoProportionZTest, welchTTest } from './statistics.js';

/**
 * The sides when the URL does not name them. Two time ranges: the latest hour against the hour
 * before it, or the two halves of the look-back when it is shorter than two hours. Two versions:
 * the two most recent (by name), or undefined when the scorer has fewer than two.
 */
export function defaultTimeSides(now, windowMs) {
  const span = Math.min(3_600_000, windowMs / 2);
  return { a: { start: now - 2 * span, end: now - span }, b: { start: now - span, end: now } };
}

export function defaultVersions(versions) {
  if (versions.length < 2) return undefined;
  const sorted = [...versions].sort((x, y) => x.localeCompare(y, undefined, { numeric: true }));
  return { a: sorted[sorted.length - 2], b: sorted[sorted.length - 1] };
}

/** What one side shows. */
export function sideSummary(totals) {
  const { mean, variance: exactVariance } = meanAndVariance(totals.scored, totals.sum, totals.sumSquares);
  // Under a score range only the bins are exact (aggregate-view.js): no variance, no pass rate.
  const variance = totals.exact ? exactVariance : undefined;
  const verdicts = totals.exact ? totals.pass + totals.fail : 0;
  const records = totals.scored + totals.notScorable + totals.failed;
  const distributionTotal = totals.distribution.reduce((sum, count) => sum + count, 0);
  return {
    n: totals.scored,
    records,
    mean,
    sd: variance === undefined ? undefined : Math.sqrt(variance),
    variance,
    passRate: verdicts === 0 ? undefined : totals.pass / verdicts,
    verdicts,
    pass: totals.pass,
    failed: totals.failed,
    notScorable: totals.notScorable,
    /** Re-scores on feedback: in none of the figures above (aggregate-view.js). */
    rescores: totals.rescores,
    /** Share of the scored records per bin: sides of different size drawn on one scale. */
    shares: totals.distribution.map((count) => (distributionTotal === 0 ? 0 : count / distributionTotal)),
    distribution: totals.distribution,
    covered: totals.covered,
  };
}

/** Both sides and the tests between them; a test is undefined where it has nothing to go on. */
export function compareSides(totalsA, totalsB) {
  const a = sideSummary(totalsA);
  const b = sideSummary(totalsB);
  return {
    a,
    b,
    means: welchTTest(a, b),
    distributions: mannWhitneyU(a.distribution, b.distribution),
    passRates: a.verdicts > 0 && b.verdicts > 0 ? twoProportionZTest(a.pass, a.verdicts, b.pass, b.verdicts) : undefined,
  };
}
