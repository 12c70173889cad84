import { describe, expect, it } from 'vitest';
import { ScorestreamError } from '../../../../../../src/kit/errors.ts';
import {
  contextOption,
  invalidScorerOptions,
  numberOption,
  scaleOption,
} from '../../../../../../src/kit/scorers/shared/invalid-options.ts';

describe('invalidScorerOptions', () => {
  it('is a non-retryable ScorestreamError naming the scorer', () => {
    const error = invalidScorerOptions('bias', 'option "x" is wrong.');
    expect(error).toBeInstanceOf(ScorestreamError);
    expect(error.message).toBe('Scorer "bias": option "x" is wrong.');
    expect(error.code).toBe('INVALID_SCORER_OPTIONS');
    expect(error.canRetry).toBe(false);
  });
});

describe('numberOption', () => {
  it('returns the default when absent and the value when in range', () => {
    expect(numberOption('s', 'n', undefined, 0.3, { min: 0, max: 1 })).toBe(0.3);
    expect(numberOption('s', 'n', 0, 0.3, { min: 0, max: 1 })).toBe(0);
    expect(numberOption('s', 'n', 1, 0.3, { min: 0, max: 1 })).toBe(1);
  });

  it.each([
    [-1, { min: 0 }, 'option "n" must be a number >= 0; got -1.'],
    [2, { min: 0, max: 1 }, 'option "n" must be a number >= 0 and <= 1; got 2.'],
    [0, { min: 0, exclusiveMin: true }, 'option "n" must be a number > 0; got 0.'],
    [Number.POSITIVE_INFINITY, { min: 0 }, 'got Infinity'],
    ['1' as unknown as number, { min: 0 }, 'got 1.'],
  ])('rejects %s with %j', (value, range, message) => {
    expect(() => numberOption('s', 'n', value, 0, range)).toThrow(message);
  });
});

describe('scaleOption and contextOption', () => {
  it('defaults the scale to 1 and requires it positive', () => {
    expect(scaleOption('s', undefined)).toBe(1);
    expect(scaleOption('s', 5)).toBe(5);
    expect(() => scaleOption('s', 0)).toThrow('option "scale" must be a number > 0; got 0.');
  });

  it('copies a list of strings and rejects anything else', () => {
    const context = ['a'];
    expect(contextOption('s', context)).toEqual(['a']);
    expect(contextOption('s', context)).not.toBe(context);
    expect(contextOption('s', undefined)).toBeUndefined();
    expect(() => contextOption('s', ['a', 1])).toThrow('option "context" must be an array of strings.');
  });
});
