// The score histogram's bins, shared by the server's aggregates and (through the snapshot) the
// page: below 0, ten bins of 0.1 over [0, 1] (1 itself in the last), above 1. Scores are not
// clamped to 0..1 (docs/contracts.md), so the two outer bins keep every score counted. Each bin
// also keeps the sum of its scores, so a mean restricted to a score range on bin edges is exact.
export const SCORE_BIN_EDGES = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] as const;
/** One below 0, ten inside [0, 1], one above 1. */
export const SCORE_BIN_COUNT = SCORE_BIN_EDGES.length + 1;

export function scoreBinIndex(score: number): number {
  if (score < 0) return 0;
  if (score > 1) return SCORE_BIN_COUNT - 1;
  // The epsilon keeps a score computed as 0.29999999999999993 in the 0.3 bin; 1 joins [0.9, 1].
  return Math.min(9, Math.floor(score * 10 + 1e-9)) + 1;
}
