import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../../producers/sample/prng.ts';

describe('createRandom', () => {
  it('repeats its sequence for the same seed and differs across seeds', () => {
    const sequence = (seed: string | number) => {
      const random = createRandom(seed);
      return Array.from({ length: 5 }, () => random.next());
    };
    expect(sequence('a')).toEqual(sequence('a'));
    expect(sequence('a')).not.toEqual(sequence('b'));
    expect(sequence(1)).toEqual(sequence('1'));
  });

  it('keeps floats in [0, 1) and integers within bounds', () => {
    const random = createRandom('bounds');
    const seen = new Set<number>();
    for (let index = 0; index < 5000; index += 1) {
      const value = random.next();
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
      seen.add(random.int(2, 5));
    }
    expect([...seen].sort()).toEqual([2, 3, 4, 5]);
  });

  it('makes hex ids of the asked length that are never all zeros, and UUID-shaped ids', () => {
    const random = createRandom('ids');
    for (let index = 0; index < 200; index += 1) {
      expect(random.hex(32)).toMatch(/^[0-9a-f]{32}$/);
      expect(random.hex(1)).not.toBe('0');
      expect(random.uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });

  it('picks by weight', () => {
    const random = createRandom('weights');
    const counts = { rare: 0, common: 0, never: 0 };
    for (let index = 0; index < 10_000; index += 1) counts[random.weighted([['rare', 1], ['common', 9], ['never', 0]] as const)] += 1;
    expect(counts.never).toBe(0);
    expect(counts.common).toBeGreaterThan(counts.rare * 5);
  });

  it('refuses to pick from nothing', () => {
    expect(() => createRandom('x').pick([])).toThrow(RangeError);
  });
});
