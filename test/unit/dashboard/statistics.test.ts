// The significance hints of compare (dashboard/public/statistics.js) against values worked out by
// hand (in the comments) or from closed forms of the distributions.
import { describe, expect, it } from 'vitest';

type Stats = {
  meanAndVariance(n: number, sum: number, sumSquares: number): { n: number; mean?: number; variance?: number };
  welchTTest(a: { n: number; mean?: number; variance?: number }, b: { n: number; mean?: number; variance?: number }): { t: number; df: number; p: number } | undefined;
  mannWhitneyU(a: number[], b: number[]): { u: number; z?: number; p?: number; bHigher: number } | undefined;
  twoProportionZTest(successesA: number, nA: number, successesB: number, nB: number): { rateA: number; rateB: number; z?: number; p?: number } | undefined;
  normalTwoSidedP(z: number): number;
  studentTwoSidedP(t: number, df: number): number | undefined;
  regularizedIncompleteBeta(x: number, a: number, b: number): number;
  logGamma(x: number): number;
  significanceWords(p: number | undefined): string;
};
const stats = (await import(new URL('../../../dashboard/public/statistics.js', import.meta.url).href)) as Stats;

describe('means', () => {
  it('mean and sample variance from n, Σx and Σx²: 1..5 has mean 3 and variance 2.5', () => {
    expect(stats.meanAndVariance(5, 15, 55)).toEqual({ n: 5, mean: 3, variance: 2.5 });
    expect(stats.meanAndVariance(1, 0.4, 0.16)).toEqual({ n: 1, mean: 0.4, variance: undefined });
    expect(stats.meanAndVariance(0, 0, 0)).toEqual({ n: 0, mean: undefined, variance: undefined });
  });

  it("Welch's t of 1..5 against 2, 4, …, 10: t = 3/√2.5, df = 2.5²/(0.5²/4 + 2²/4) = 100/17", () => {
    const result = stats.welchTTest(stats.meanAndVariance(5, 15, 55), stats.meanAndVariance(5, 30, 220))!;
    expect(result.t).toBeCloseTo(3 / Math.sqrt(2.5), 12);
    expect(result.df).toBeCloseTo(100 / 17, 12);
    // By numerical integration of Student's t density (Simpson, 200,000 steps): 0.1075312.
    expect(result.p).toBeCloseTo(0.1075312, 6);
  });

  it('has nothing to say below two values a side, or when neither side varies', () => {
    expect(stats.welchTTest(stats.meanAndVariance(1, 1, 1), stats.meanAndVariance(5, 15, 55))).toBeUndefined();
    expect(stats.welchTTest(stats.meanAndVariance(3, 3, 3), stats.meanAndVariance(3, 3, 3))).toBeUndefined();
  });
});

describe("Student's t and the normal tails", () => {
  it('one degree of freedom is the Cauchy distribution: p = 1 − 2·atan(|t|)/π', () => {
    for (const t of [0.5, 1, 3, 12]) expect(stats.studentTwoSidedP(t, 1)).toBeCloseTo(1 - (2 * Math.atan(t)) / Math.PI, 10);
  });

  it('two degrees of freedom: p = 1 − |t|/√(t² + 2)', () => {
    for (const t of [0.3, 1.5, 4.3027]) expect(stats.studentTwoSidedP(t, 2)).toBeCloseTo(1 - t / Math.sqrt(t * t + 2), 10);
  });

  it('the tabled 5% point of t with 10 degrees of freedom, 2.228139, and the normal 1.959964', () => {
    expect(stats.studentTwoSidedP(2.228138852, 10)).toBeCloseTo(0.05, 8);
    expect(stats.normalTwoSidedP(1.959963985)).toBeCloseTo(0.05, 6);
    expect(stats.normalTwoSidedP(-2.575829304)).toBeCloseTo(0.01, 6);
    expect(stats.normalTwoSidedP(0)).toBeCloseTo(1, 6);
  });

  it('ln Γ and the incomplete beta at known points: Γ(5) = 24, Γ(½) = √π, I_x(1, 1) = x, I_½(a, a) = ½', () => {
    expect(stats.logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(stats.logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(stats.regularizedIncompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 12);
    expect(stats.regularizedIncompleteBeta(0.5, 7.5, 7.5)).toBeCloseTo(0.5, 12);
  });
});

describe('distributions: Mann–Whitney U over bins', () => {
  // A = two values in bin 0 and one in bin 1; B = one in bin 1 and two in bin 2. Mid-ranks 1.5,
  // 3.5, 5.5; R_A = 2·1.5 + 3.5 = 6.5; U_A = 6.5 − 3·4/2 = 0.5 (one tie, no pair with A above B).
  // μ = 4.5; σ² = 9/12 · (7 − 3·(2³ − 2)/30) = 4.8; z = −4/√4.8; p = erfc(|z|/√2) = 0.0678892.
  it('matches the hand computation with the tie correction', () => {
    const result = stats.mannWhitneyU([2, 1, 0], [0, 1, 2])!;
    expect(result.u).toBe(0.5);
    expect(result.z).toBeCloseTo(-4 / Math.sqrt(4.8), 12);
    expect(result.p).toBeCloseTo(0.0678892, 6);
    expect(result.bHigher).toBeCloseTo(1 - 0.5 / 9, 12);
  });

  it('says nothing for an empty side, and gives no p when every value ties', () => {
    expect(stats.mannWhitneyU([0, 0], [1, 2])).toBeUndefined();
    expect(stats.mannWhitneyU([3, 0], [2, 0])).toMatchObject({ u: 3, p: undefined, bHigher: 0.5 });
  });
});

describe('pass rates: two-proportion z-test', () => {
  // 45 of 100 against 30 of 100: pooled 0.375; se = √(0.375·0.625·0.02); z = −0.15/se = −2.19089.
  it('matches the hand computation', () => {
    const result = stats.twoProportionZTest(45, 100, 30, 100)!;
    expect(result).toMatchObject({ rateA: 0.45, rateB: 0.3 });
    expect(result.z).toBeCloseTo(-0.15 / Math.sqrt(0.375 * 0.625 * 0.02), 12);
    expect(result.p).toBeCloseTo(0.0284597, 6);
  });

  it('says nothing without verdicts, and gives no p when every verdict is the same', () => {
    expect(stats.twoProportionZTest(0, 0, 3, 4)).toBeUndefined();
    expect(stats.twoProportionZTest(5, 5, 7, 7)).toMatchObject({ rateA: 1, rateB: 1, p: undefined });
  });
});

describe('significanceWords', () => {
  it.each([
    [0.0001, 'very unlikely to be chance'],
    [0.02, 'unlikely to be chance'],
    [0.3, 'could well be chance'],
    [undefined, 'no test possible'],
  ])('p = %s: %s', (p, words) => {
    expect(stats.significanceWords(p)).toBe(words);
  });
});
