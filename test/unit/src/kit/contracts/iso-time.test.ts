import { describe, expect, it } from 'vitest';
import { isoTime } from '../../../../../src/kit/contracts/iso-time.ts';

describe('isoTime', () => {
  it('writes what Date#toISOString writes, over 200,000 times from 1970 to 9999 and around now', { timeout: 30_000 }, () => {
    let state = 28;
    const random = () => ((state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 4_294_967_296);
    const now = Date.now();
    for (let index = 0; index < 200_000; index += 1) {
      const ms = index % 2 === 0 ? random() * Date.UTC(10_000, 0, 1) : now + (random() - 0.5) * 1e7;
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('agrees at the edges: the epoch, fractions, a second’s last millisecond, before 1970, the year 10000', () => {
    for (const ms of [0, 0.9, 999, 999.999, 1_000, 1_796_000_000_999.5, -0.5, -1, -1_000.25, -62_198_755_200_000, Date.UTC(10_000, 0, 1) - 1, Date.UTC(10_000, 0, 1), 8.64e15]) {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it('throws as Date does for what is not a time', () => {
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1]) expect(() => isoTime(ms)).toThrow(RangeError);
  });
});
