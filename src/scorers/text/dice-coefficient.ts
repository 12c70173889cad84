// Sørensen–Dice similarity over character bigrams: a cheap, order-tolerant measure of how
// much two texts share, the same measure the `string-similarity` package computes.
// Bigrams are counted as numbers (two code points in one key), not as two-character strings:
// the service runs this on every event, and the strings were most of its garbage.

const codePointLimit = 0x110000;

function codePoints(text: string): number[] {
  const points: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const point = text.codePointAt(index)!;
    points.push(point);
    if (point > 0xffff) index++;
  }
  return points;
}

function bigramCounts(points: readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (let index = 0; index < points.length - 1; index++) {
    const bigram = points[index]! * codePointLimit + points[index + 1]!;
    counts.set(bigram, (counts.get(bigram) ?? 0) + 1);
  }
  return counts;
}

/**
 * 2·|shared bigrams| / (|bigrams of first| + |bigrams of second|), counting repeated bigrams
 * as often as they occur. Equal strings give 1 (also two empty ones); otherwise a string
 * shorter than two characters has no bigrams and gives 0. Characters are code points.
 */
export function diceCoefficient(first: string, second: string): number {
  if (first === second) return 1;
  const firstPoints = codePoints(first);
  const secondPoints = codePoints(second);
  if (firstPoints.length < 2 || secondPoints.length < 2) return 0;
  const remaining = bigramCounts(firstPoints);
  let shared = 0;
  for (let index = 0; index < secondPoints.length - 1; index++) {
    const bigram = secondPoints[index]! * codePointLimit + secondPoints[index + 1]!;
    const count = remaining.get(bigram) ?? 0;
    if (count > 0) {
      shared++;
      remaining.set(bigram, count - 1);
    }
  }
  return (2 * shared) / (firstPoints.length - 1 + secondPoints.length - 1);
}
