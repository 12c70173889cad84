import { describe, expect, it } from 'vitest';
import { durationSchema, parseDuration } from '../../../../../src/kit/utils/duration.ts';

describe('durations', () => {
  it('parses a number with a unit of ms, s, m, h or d', () => {
    expect(['250ms', '30s', '1.5m', '2h', '1d', ' 5m '].map(parseDuration)).toEqual([250, 30_000, 90_000, 7_200_000, 86_400_000, 300_000]);
    for (const text of ['5', '5 minutes', '-1m', 'm', '']) expect(parseDuration(text)).toBeUndefined();
  });

  it('the schema refuses zero unless allowed, and says what it expected', () => {
    expect(durationSchema('for', { allowZero: true }).parse('0s')).toBe(0);
    const zero = durationSchema('window').safeParse('0m');
    expect(zero.success ? '' : zero.error.issues[0]!.message).toBe("window must be a duration such as '30s', '5m' or '1h' (units ms, s, m, h, d), above zero, got '0m'");
    const number = durationSchema('window').safeParse(600);
    expect(number.success ? '' : number.error.issues[0]!.message).toContain("window must be a duration such as '30s'");
  });
});
