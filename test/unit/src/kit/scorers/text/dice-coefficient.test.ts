import { describe, expect, it } from 'vitest';
import { diceCoefficient } from '../../../../../../src/kit/scorers/text/dice-coefficient.ts';

describe('diceCoefficient', () => {
  it('is 1 for equal strings, also empty ones', () => {
    expect(diceCoefficient('paris', 'paris')).toBe(1);
    expect(diceCoefficient('', '')).toBe(1);
  });

  it('is 0 when either string has no bigram', () => {
    expect(diceCoefficient('a', 'abc')).toBe(0);
    expect(diceCoefficient('abc', '')).toBe(0);
  });

  it('counts shared bigrams with multiplicity', () => {
    // night: ni ig gh ht / nacht: na ac ch ht → 1 shared of 4 + 4
    expect(diceCoefficient('night', 'nacht')).toBe(0.25);
    // aaaa: aa aa aa / aa: aa → 1 shared of 3 + 1
    expect(diceCoefficient('aaaa', 'aa')).toBe(0.5);
  });

  it('treats spaces as characters (callers normalise whitespace first)', () => {
    expect(diceCoefficient('a b', 'ab')).toBe(0);
  });
});
