import { describe, expect, it } from 'vitest';
import {
  countChanges,
  getMatchingBlocks,
  sequenceRatio,
  textRatio,
} from '../../../../../../src/kit/scorers/text/sequence-matcher.ts';

// Expected values were computed with Python 3.11's difflib.SequenceMatcher(None, a, b).
describe('textRatio (difflib parity)', () => {
  it.each([
    ['abcd', 'bcde', 0.75],
    ['The cat sat on the mat.', 'The cat sat on a mat!', 0.8636363636363636],
    ['Paris is the capital of France.', 'The capital of France is Paris.', 0.6774193548387096],
    ['kitten', 'sitting', 0.6153846153846154],
    ['abc', '', 0],
    ['', '', 1],
  ])('ratio(%j, %j) = %d', (first, second, expected) => {
    expect(textRatio(first, second)).toBeCloseTo(expected, 12);
  });

  it('applies autojunk to sequences of 200 or more items by default, like difflib', () => {
    const first = 'The quick brown fox jumps over the lazy dog. '.repeat(6);
    const second = 'The quick brown cat jumps over the lazy dog! '.repeat(6);
    expect(textRatio(first, second)).toBeCloseTo(0.05925925925925926, 12);
    expect(textRatio(first, second, { autoJunk: false })).toBeCloseTo(0.9111111111111111, 12);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(textRatio('a😀', 'a😀b')).toBeCloseTo(0.8, 12);
  });
});

describe('getMatchingBlocks', () => {
  it('finds the longest runs in order', () => {
    expect(getMatchingBlocks(Array.from('The cat sat on the mat.'), Array.from('The cat sat on a mat!'))).toEqual([
      { firstStart: 0, secondStart: 0, size: 15 },
      { firstStart: 18, secondStart: 16, size: 4 },
    ]);
  });

  it('works on token arrays', () => {
    expect(sequenceRatio(['book', 'a', 'flight'], ['book', 'the', 'flight'])).toBeCloseTo(2 / 3, 12);
  });
});

describe('countChanges', () => {
  it('counts the edit regions between matching blocks', () => {
    expect(countChanges(Array.from('kitten'), Array.from('sitting'))).toBe(3);
    expect(countChanges(Array.from('abcd'), Array.from('bcde'))).toBe(2);
    expect(countChanges(Array.from('same'), Array.from('same'))).toBe(0);
    expect(countChanges(Array.from('abc'), [])).toBe(1);
    expect(countChanges([], [])).toBe(0);
  });
});
