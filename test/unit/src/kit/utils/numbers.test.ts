import { describe, expect, it } from 'vitest';
import { isCloserTo, roundToTwoDecimals } from '../../../../../src/kit/utils/numbers.ts';

describe('roundToTwoDecimals', () => {
  it('rounds 1.005 up to 1.01 thanks to the epsilon', () => {
    expect(roundToTwoDecimals(1.005)).toBe(1.01);
  });

  it('cleans floating-point noise and rounds half up', () => {
    expect(roundToTwoDecimals(0.1 + 0.2)).toBe(0.3);
    expect(roundToTwoDecimals(0.125)).toBe(0.13);
    expect(roundToTwoDecimals(0.124)).toBe(0.12);
  });
});

describe('isCloserTo', () => {
  it('is true when the value is closer to the first target', () => {
    expect(isCloserTo(0.6, 1, 0)).toBe(true);
  });

  it('is false when closer to the second target', () => {
    expect(isCloserTo(0.3, 1, 0)).toBe(false);
  });

  it('is false on a tie', () => {
    expect(isCloserTo(0.5, 1, 0)).toBe(false);
  });
});
