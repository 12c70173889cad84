import { describe, expect, it } from 'vitest';
import { scaleScore, weightedShare } from '../../../../../../src/kit/scorers/shared/verdict-score.ts';
import { describeScore, numberedList, tagged } from '../../../../../../src/kit/scorers/shared/prompt-text.ts';

describe('weightedShare', () => {
  it('averages the weights of the verdicts, unknown verdicts counting 0', () => {
    expect(weightedShare(['a', 'b', 'c', 'c'], { a: 1, b: 0.5 })).toBe(0.375);
    expect(weightedShare([], { a: 1 })).toBeUndefined();
  });
});

describe('scaleScore', () => {
  it('scales and rounds to two decimals', () => {
    expect(scaleScore(1 / 3, 1)).toBe(0.33);
    expect(scaleScore(2 / 3, 10)).toBe(6.67);
    expect(scaleScore(0.005, 1)).toBe(0.01);
  });
});

describe('prompt text helpers', () => {
  it('fence, number and describe', () => {
    expect(tagged('answer', 'Paris')).toBe('<answer>\nParis\n</answer>');
    expect(numberedList(['a', 'b'])).toBe('1. a\n2. b');
    expect(numberedList([])).toBe('(none)');
    expect(describeScore(0.5, 1)).toBe('0.5 on a scale from 0 to 1');
  });
});
