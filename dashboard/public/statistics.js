// The significance hints of compare: is a difference between two sides more than chance? Pure
// functions over the counts the dashboard keeps (n, sum, sum of squares, histogram bins, verdict
// counts), each answering undefined where the test has nothing to go on.
//   welchTTest           means (unequal variances), two-sided p from Student's t
//   mannWhitneyU         distributions over ordered bins (ties get mid-ranks; normal approximation
//                        with the tie correction), two-sided p, and P(B > A) + ½ P(tie)
//   twoProportionZTest   pass rates (pooled), two-sided p from the normal distribution
// A hint, not a verdict: many comparisons, or sides of very different traffic, call for care.

/** Mean and sample variance from n, Σx and Σx²; variance undefined below two values. */
export function meanAndVariance(n, sum, sumSquares) {
  if (!(n > 0)) return { n: 0, mean: undefined, variance: undefined };
  const mean = sum / n;
  const variance = n < 2 ? undefined : Math.max(0, (sumSquares - (sum * sum) / n) / (n - 1));
  return { n, mean, variance };
}

/** Welch's t-test of two means: t, its degrees of freedom (Welch–Satterthwaite) and the two-sided p. */
export function welchTTest(a, b) {
  if (!(a.n >= 2 && b.n >= 2) || a.variance === undefined || b.variance === undefined) return undefined;
  const va = a.variance / a.n;
  const vb = b.variance / b.n;
  const se2 = va + vb;
  if (!(se2 > 0)) return undefined;
  const t = (b.mean - a.mean) / Math.sqrt(se2);
  const df = (se2 * se2) / ((va * va) / (a.n - 1) + (vb * vb) / (b.n - 1));
  return { t, df, p: studentTwoSidedP(t, df) };
}

/**
 * The Mann–Whitney U test of two samples given as counts over the same ordered bins: U of side A
 * (pairs where A's value is above B's, ties counted half), the z of its normal approximation, the
 * two-sided p, and the share of pairs in which B is higher (ties half): 0.5 is no difference.
 */
export function mannWhitneyU(countsA, countsB) {
  const nA = countsA.reduce((sum, count) => sum + count, 0);
  const nB = countsB.reduce((sum, count) => sum + count, 0);
  if (nA === 0 || nB === 0) return undefined;
  const total = nA + nB;
  let below = 0;
  let rankSumA = 0;
  let ties = 0;
  countsA.forEach((countA, bin) => {
    const inBin = countA + countsB[bin];
    rankSumA += countA * (below + (inBin + 1) / 2);
    ties += inBin ** 3 - inBin;
    below += inBin;
  });
  const u = rankSumA - (nA * (nA + 1)) / 2;
  const mean = (nA * nB) / 2;
  const variance = ((nA * nB) / 12) * (total + 1 - ties / (total * (total - 1)));
  const bHigher = 1 - u / (nA * nB);
  if (!(variance > 0)) return { u, z: undefined, p: undefined, bHigher };
  const z = (u - mean) / Math.sqrt(variance);
  return { u, z, p: normalTwoSidedP(z), bHigher };
}

/** The pooled two-proportion z-test: side A's rate, side B's, z and the two-sided p. */
export function twoProportionZTest(successesA, nA, successesB, nB) {
  if (!(nA > 0 && nB > 0)) return undefined;
  const rateA = successesA / nA;
  const rateB = successesB / nB;
  const pooled = (successesA + successesB) / (nA + nB);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / nA + 1 / nB));
  if (!(se > 0)) return { rateA, rateB, z: undefined, p: undefined };
  const z = (rateB - rateA) / se;
  return { rateA, rateB, z, p: normalTwoSidedP(z) };
}

/** P(|Z| ≥ |z|) for a standard normal Z. */
export function normalTwoSidedP(z) {
  return erfc(Math.abs(z) / Math.SQRT2);
}

/** P(|T| ≥ |t|) for Student's t with df degrees of freedom: I_{df/(df+t²)}(df/2, 1/2). */
export function studentTwoSidedP(t, df) {
  if (!(df > 0)) return undefined;
  if (!Number.isFinite(t)) return 0;
  return regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** The complementary error function (Numerical Recipes' erfcc: fractional error below 1.2e-7). */
export function erfc(x) {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const value =
    t *
    Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return x >= 0 ? value : 2 - value;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine coefficients: about 15 significant digits). */
export function logGamma(x) {
  const coefficients = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const shifted = x - 1;
  let sum = coefficients[0];
  for (let index = 1; index < coefficients.length; index += 1) sum += coefficients[index] / (shifted + index);
  const t = shifted + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** I_x(a, b), the regularized incomplete beta function, by its continued fraction (modified Lentz). */
export function regularizedIncompleteBeta(x, a, b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The continued fraction converges fast for x < (a + 1)/(a + b + 2); beyond, use the symmetry.
  if (x > (a + 1) / (a + b + 2)) return 1 - (front * betaFraction(1 - x, b, a)) / b;
  return (front * betaFraction(x, a, b)) / a;
}

function betaFraction(x, a, b) {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let result = d;
  for (let m = 1; m <= 300; m += 1) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 + even * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + even / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    result *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + odd * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + odd / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    result *= step;
    if (Math.abs(step - 1) < 1e-14) break;
  }
  return result;
}

/** A few words on a p-value, for the page. */
export function significanceWords(p) {
  if (p === undefined) return 'no test possible';
  if (p < 0.001) return 'very unlikely to be chance';
  if (p < 0.05) return 'unlikely to be chance';
  return 'could well be chance';
}
