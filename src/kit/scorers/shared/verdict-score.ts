// How the LLM scorers turn a judge's verdicts into a number: in code, never by the judge, so
// the same verdicts always give the same score and the formula can be read and tested.
import { roundToTwoDecimals } from '../../utils/numbers.ts';

/**
 * The weighted share of verdicts: Σ weight(verdict) / count. Verdicts without a weight count 0.
 * `undefined` when there are no verdicts (the caller decides what an empty list means).
 */
export function weightedShare<TVerdict extends string>(
  verdicts: readonly TVerdict[],
  weights: Partial<Record<TVerdict, number>>,
): number | undefined {
  if (verdicts.length === 0) return undefined;
  const total = verdicts.reduce((sum, verdict) => sum + (weights[verdict] ?? 0), 0);
  return total / verdicts.length;
}

/** A 0..1 share mapped onto 0..scale and rounded to two decimals, as Mastra's scorers report. */
export function scaleScore(share: number, scale: number): number {
  return roundToTwoDecimals(share * scale);
}
