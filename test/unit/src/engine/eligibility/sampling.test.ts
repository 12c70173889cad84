import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ScorestreamError } from '../../../../../src/kit/errors.ts';
import { decideSampling, isSampled, saltedSamplingKey, samplingBucket } from '../../../../../src/engine/eligibility/sampling.ts';
import { validateSampling } from '../../../../../src/engine/eligibility/sampling-schema.ts';

// Reference buckets (docs/scorers.md, deterministic sampling), measured against Mastra 1.71.0.
const referenceBuckets: [string, number][] = [
  ['run-1', 0.30624127292746905],
  ['run-2', 0.7258521436349668],
  ['run-3', 0.07985293341542032],
  ['run-4', 0.24215423740070463],
  ['run-5', 0.3519726733440436],
  ['run-6', 0.16026288373407027],
  ['run-7', 0.7060602866744894],
  ['run-8', 0.7872802927956037],
  ['trace-a', 0.8347993572197687],
  ['4bf92f3577b34da6a3ce929d0e0e4736', 0.22477405853511812],
  ['00000000000000000000000000000000', 0.5190544675521416],
  ['abc', 0.7283949105903993],
  ['', 0.8894159948913369],
];

describe('samplingBucket', () => {
  it.each(referenceBuckets)('matches the reference value for %j exactly', (key, expected) => {
    expect(samplingBucket(key)).toBe(expected);
  });

  it('is the first 6 bytes of SHA-256 over UTF-8, big-endian, / 2^48 (checked on a non-ASCII key)', () => {
    const key = 'Zürich-🚀';
    const digest = createHash('sha256').update(Buffer.from(key, 'utf8')).digest();
    expect(samplingBucket(key)).toBe(digest.readUIntBE(0, 6) / 2 ** 48);
  });

  it('hashes the exact string (no case folding)', () => {
    expect(samplingBucket('ABC')).not.toBe(samplingBucket('abc'));
  });

  it('stays in [0, 1)', () => {
    for (let index = 0; index < 200; index++) {
      const bucket = samplingBucket(`key-${index}`);
      expect(bucket).toBeGreaterThanOrEqual(0);
      expect(bucket).toBeLessThan(1);
    }
  });
});

describe('isSampled', () => {
  const runs = ['run-1', 'run-2', 'run-3', 'run-4', 'run-5', 'run-6', 'run-7', 'run-8'];

  it('end to end: rate 0.5 over run-1..run-8 picks exactly run-1, 3, 4, 5, 6', () => {
    expect(runs.filter((key) => isSampled({ type: 'ratio', rate: 0.5 }, key))).toEqual(['run-1', 'run-3', 'run-4', 'run-5', 'run-6']);
  });

  it('scores every run without sampling and with { type: none } (none = no sampling applied)', () => {
    expect(runs.every((key) => isSampled(undefined, key))).toBe(true);
    expect(runs.every((key) => isSampled({ type: 'none' }, key))).toBe(true);
  });

  it('compares strictly: a bucket equal to the rate is not sampled', () => {
    expect(isSampled({ type: 'ratio', rate: 0.30624127292746905 }, 'run-1')).toBe(false);
    expect(isSampled({ type: 'ratio', rate: 0.30624127292746905 + Number.EPSILON }, 'run-1')).toBe(true);
  });

  it('never scores with rate <= 0, NaN or a missing rate', () => {
    for (const rate of [0, -1, Number.NaN, undefined, '0.5']) {
      expect(runs.some((key) => isSampled({ type: 'ratio', rate } as never, key))).toBe(false);
    }
  });

  it('always scores with rate >= 1', () => {
    expect(runs.every((key) => isSampled({ type: 'ratio', rate: 1 }, key))).toBe(true);
    expect(runs.every((key) => isSampled({ type: 'ratio', rate: 7 }, key))).toBe(true);
  });

  it('fails closed on an unknown type or a non-object config', () => {
    expect(isSampled({ type: 'percent', rate: 1 } as never, 'run-1')).toBe(false);
    expect(isSampled(null as never, 'run-1')).toBe(false);
    expect(isSampled('ratio' as never, 'run-1')).toBe(false);
  });

  it('hashes `${salt}:${key}` when a salt is set', () => {
    const salted = saltedSamplingKey('run-1', 'toxicity');
    expect(salted).toBe('toxicity:run-1');
    expect(decideSampling({ type: 'ratio', rate: 0.5, salt: 'toxicity' }, 'run-1').bucket).toBe(samplingBucket('toxicity:run-1'));
    expect(saltedSamplingKey('run-1', undefined)).toBe('run-1');
  });

  it('fails closed on a non-string salt', () => {
    expect(isSampled({ type: 'ratio', rate: 0.99, salt: 5 } as never, 'run-3')).toBe(false);
  });
});

describe('decideSampling', () => {
  it('reports rate and bucket for a hashed decision', () => {
    expect(decideSampling({ type: 'ratio', rate: 0.5 }, 'run-2')).toEqual({ sampled: false, rate: 0.5, bucket: 0.7258521436349668 });
  });

  it('reports no bucket when it did not hash', () => {
    expect(decideSampling(undefined, 'k')).toEqual({ sampled: true });
    expect(decideSampling({ type: 'none' }, 'k')).toEqual({ sampled: true });
    expect(decideSampling({ type: 'ratio', rate: 1 }, 'k')).toEqual({ sampled: true, rate: 1 });
    expect(decideSampling({ type: 'ratio', rate: 0 }, 'k')).toEqual({ sampled: false, rate: 0 });
  });

  it('reports a rate only when it lies in [0, 1]', () => {
    expect(decideSampling({ type: 'ratio', rate: 3 }, 'k')).toEqual({ sampled: true });
    expect(decideSampling({ type: 'ratio', rate: -2 }, 'k')).toEqual({ sampled: false });
    expect(decideSampling({ type: 'ratio', rate: Number.NaN }, 'k')).toEqual({ sampled: false });
  });
});

describe('validateSampling', () => {
  it('accepts undefined, none and ratio configs and returns them typed', () => {
    expect(validateSampling(undefined)).toBeUndefined();
    expect(validateSampling({ type: 'none' })).toEqual({ type: 'none' });
    expect(validateSampling({ type: 'ratio', rate: 0 })).toEqual({ type: 'ratio', rate: 0 });
    expect(validateSampling({ type: 'ratio', rate: 1, salt: 's' })).toEqual({ type: 'ratio', rate: 1, salt: 's' });
  });

  it.each([
    [null, 'expected an object such as'],
    ['ratio', 'expected an object such as'],
    [[], 'got an array'],
    [{ type: 'percent' }, `type must be 'none' (score every run) or 'ratio' (score a share of runs), got "percent"`],
    [{}, 'type must be'],
    [{ type: 'none', rate: 0.5 }, "{ type: 'none' } takes no other keys, got rate"],
    [{ type: 'ratio' }, 'rate must be a number from 0 to 1 (e.g. 0.1 scores 10% of runs), got undefined'],
    [{ type: 'ratio', rate: 50 }, 'rate must be a number from 0 to 1'],
    [{ type: 'ratio', rate: -0.1 }, 'rate must be a number from 0 to 1'],
    [{ type: 'ratio', rate: Number.NaN }, 'rate must be a number from 0 to 1'],
    [{ type: 'ratio', rate: '0.5' }, 'got "0.5"'],
    [{ type: 'ratio', rate: 0.5, salt: '' }, 'salt must be a non-empty string when given, got ""'],
    [{ type: 'ratio', rate: 0.5, salt: 3 }, 'salt must be a non-empty string when given, got 3'],
    [{ type: 'ratio', rate: 0.5, seed: 'x' }, 'unknown key(s) seed'],
  ])('rejects %j naming what is wrong', (config, message) => {
    let thrown: unknown;
    try {
      validateSampling(config);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ScorestreamError);
    expect((thrown as ScorestreamError).code).toBe('INVALID_SAMPLING');
    expect((thrown as Error).message).toContain(message);
  });

  it('names the owner when given', () => {
    expect(() => validateSampling({ type: 'ratio', rate: 2 }, { name: "scorer 'toxicity'" })).toThrow(
      "Invalid sampling for scorer 'toxicity': rate must be",
    );
  });
});
