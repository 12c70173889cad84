// Sørensen–Dice similarity over character bigrams: a cheap, order-tolerant measure of how
// much two texts share, the same measure the `string-similarity` package computes.

function bigramCounts(characters: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index < characters.length - 1; index++) {
    const bigram = characters[index]! + characters[index + 1]!;
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
  const firstCharacters = Array.from(first);
  const secondCharacters = Array.from(second);
  if (firstCharacters.length < 2 || secondCharacters.length < 2) return 0;
  const remaining = bigramCounts(firstCharacters);
  let shared = 0;
  for (let index = 0; index < secondCharacters.length - 1; index++) {
    const bigram = secondCharacters[index]! + secondCharacters[index + 1]!;
    const count = remaining.get(bigram) ?? 0;
    if (count > 0) {
      shared++;
      remaining.set(bigram, count - 1);
    }
  }
  return (2 * shared) / (firstCharacters.length - 1 + secondCharacters.length - 1);
}
