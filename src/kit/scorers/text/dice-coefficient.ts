// Sørensen–Dice similarity over character bigrams: a cheap, order-tolerant measure of how
// much two texts share, the same measure the `string-similarity` package computes.
// Bigrams are counted as numbers (two code points in one key), not as two-character strings,
// and the texts are walked in place rather than copied into arrays of code points: the service
// runs this on every event, and those strings and arrays were most of its garbage.

const codePointLimit = 0x110000;

/** The text's bigrams counted, walked code point by code point (no array of them); its bigram count is in `size`. */
function bigramCounts(text: string): { counts: Map<number, number>; size: number } {
  const counts = new Map<number, number>();
  let size = 0;
  let previous = -1;
  for (let index = 0; index < text.length; index++) {
    const point = text.codePointAt(index)!;
    if (point > 0xffff) index++;
    if (previous >= 0) {
      const bigram = previous * codePointLimit + point;
      counts.set(bigram, (counts.get(bigram) ?? 0) + 1);
      size++;
    }
    previous = point;
  }
  return { counts, size };
}

/**
 * 2·|shared bigrams| / (|bigrams of first| + |bigrams of second|), counting repeated bigrams
 * as often as they occur. Equal strings give 1 (also two empty ones); otherwise a string
 * shorter than two characters has no bigrams and gives 0. Characters are code points.
 */
export function diceCoefficient(first: string, second: string): number {
  if (first === second) return 1;
  const { counts: remaining, size: firstSize } = bigramCounts(first);
  let shared = 0;
  let secondSize = 0;
  let previous = -1;
  for (let index = 0; index < second.length; index++) {
    const point = second.codePointAt(index)!;
    if (point > 0xffff) index++;
    if (previous >= 0) {
      const bigram = previous * codePointLimit + point;
      secondSize++;
      const count = remaining.get(bigram) ?? 0;
      if (count > 0) {
        shared++;
        remaining.set(bigram, count - 1);
      }
    }
    previous = point;
  }
  if (firstSize === 0 || secondSize === 0) return 0;
  return (2 * shared) / (firstSize + secondSize);
}
