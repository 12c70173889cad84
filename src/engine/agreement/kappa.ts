// Agreement beyond chance between two raters over a confusion matrix (confusion-matrix.ts):
// accuracy, Cohen's κ, and weighted κ for ordinal scales, where a near miss (warm vs neutral)
// costs less than a far one (warm vs curt). Each is undefined (not 0, not NaN) where the formula
// is: without pairs, and for κ when chance agreement is already total (every label the same).
import type { ConfusionMatrix } from './confusion-matrix.ts';

export type KappaWeighting = 'linear' | 'quadratic';

/** Floating-point sums of shares can land a hair off 1 (or 0); within this, κ is undefined. */
const EPSILON = 1e-12;

export function pairCount(matrix: ConfusionMatrix): number {
  return matrix.counts.reduce((total, row) => total + row.reduce((sum, count) => sum + count, 0), 0);
}

export function agreementCount(matrix: ConfusionMatrix): number {
  return matrix.counts.reduce((total, row, index) => total + row[index]!, 0);
}

/** The share of pairs on the diagonal. */
export function accuracy(matrix: ConfusionMatrix): number | undefined {
  const n = pairCount(matrix);
  return n === 0 ? undefined : agreementCount(matrix) / n;
}

/** κ = (p_o − p_e) / (1 − p_e), with p_e = Σ_k (row_k / n)(column_k / n). */
export function cohensKappa(matrix: ConfusionMatrix): number | undefined {
  const n = pairCount(matrix);
  if (n === 0) return undefined;
  const { rows, columns } = margins(matrix);
  const observed = agreementCount(matrix) / n;
  const chance = rows.reduce((total, row, index) => total + (row / n) * (columns[index]! / n), 0);
  if (1 - chance < EPSILON) return undefined;
  return (observed - chance) / (1 - chance);
}

/**
 * κ_w = 1 − Σ w_ij o_ij / Σ w_ij e_ij over disagreement weights w_ij = |i − j| / (k − 1) (linear)
 * or (i − j)² / (k − 1)² (quadratic), observed shares o_ij = counts_ij / n and chance shares
 * e_ij = row_i · column_j / n². With two labels both weightings equal Cohen's κ.
 */
export function weightedKappa(matrix: ConfusionMatrix, weighting: KappaWeighting): number | undefined {
  const n = pairCount(matrix);
  const k = matrix.labels.length;
  if (n === 0 || k < 2) return undefined;
  const { rows, columns } = margins(matrix);
  let observed = 0;
  let chance = 0;
  for (let i = 0; i < k; i += 1) {
    for (let j = 0; j < k; j += 1) {
      const distance = Math.abs(i - j) / (k - 1);
      const weight = weighting === 'linear' ? distance : distance * distance;
      observed += (weight * matrix.counts[i]![j]!) / n;
      chance += (weight * rows[i]! * columns[j]!) / (n * n);
    }
  }
  if (chance < EPSILON) return undefined;
  return 1 - observed / chance;
}

function margins(matrix: ConfusionMatrix): { rows: number[]; columns: number[] } {
  const rows = matrix.counts.map((row) => row.reduce((sum, count) => sum + count, 0));
  const columns = matrix.labels.map((_label, column) => matrix.counts.reduce((sum, row) => sum + row[column]!, 0));
  return { rows, columns };
}
