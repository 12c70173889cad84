// The counts every agreement figure is computed from: over labelled pairs (the reference label —
// a person's, or a labelled set's — and the judge's), counts[reference][predicted] on a fixed,
// ordered list of labels. The order matters only to weighted κ, which takes it as the scale's
// order (worst to best, or the reverse: the distances are the same).
export type LabelledPair = { reference: string; predicted: string };

export type ConfusionMatrix = { readonly labels: readonly string[]; readonly counts: number[][] };

export function emptyConfusionMatrix(labels: readonly string[]): ConfusionMatrix {
  if (labels.length === 0) throw new RangeError('a confusion matrix needs at least one label');
  if (new Set(labels).size !== labels.length) throw new RangeError(`the labels of a confusion matrix must differ, got ${labels.join(', ')}`);
  return { labels: [...labels], counts: labels.map(() => labels.map(() => 0)) };
}

/** Counts one pair into the matrix; a label outside its list is a RangeError naming the list. */
export function countPair(matrix: ConfusionMatrix, pair: LabelledPair): void {
  const row = labelIndex(matrix, pair.reference, 'reference');
  const column = labelIndex(matrix, pair.predicted, 'predicted');
  matrix.counts[row]![column]! += 1;
}

/** Takes back a pair counted before (a person who changed their vote); a cell never goes below zero. */
export function uncountPair(matrix: ConfusionMatrix, pair: LabelledPair): void {
  const row = labelIndex(matrix, pair.reference, 'reference');
  const column = labelIndex(matrix, pair.predicted, 'predicted');
  if (matrix.counts[row]![column]! === 0) throw new RangeError(`no (${pair.reference}, ${pair.predicted}) pair was counted to take back`);
  matrix.counts[row]![column]! -= 1;
}

export function confusionMatrix(labels: readonly string[], pairs: Iterable<LabelledPair>): ConfusionMatrix {
  const matrix = emptyConfusionMatrix(labels);
  for (const pair of pairs) countPair(matrix, pair);
  return matrix;
}

/** The matrix as nested records, counts[reference][predicted], leaving out zero cells. */
export function confusionCounts(matrix: ConfusionMatrix): Record<string, Record<string, number>> {
  const counts: Record<string, Record<string, number>> = {};
  matrix.labels.forEach((reference, row) => {
    const cells: Record<string, number> = {};
    matrix.labels.forEach((predicted, column) => {
      const count = matrix.counts[row]![column]!;
      if (count > 0) cells[predicted] = count;
    });
    counts[reference] = cells;
  });
  return counts;
}

function labelIndex(matrix: ConfusionMatrix, label: string, side: string): number {
  const index = matrix.labels.indexOf(label);
  if (index < 0) throw new RangeError(`${side} label '${label}' is not one of ${matrix.labels.join(', ')}`);
  return index;
}
