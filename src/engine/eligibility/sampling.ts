// Deterministic sampling (docs/scorers.md, deterministic sampling): whether a run is scored is a
// pure function of its key (trace id, else run id), so retries, replays and replicas agree, and
// scorers that share a rate score the same runs. No randomness anywhere in the decision.
//
// bucket(key) = first 6 bytes of SHA-256(key as UTF-8), big-endian unsigned 48-bit, / 2^48.
// A run is sampled iff bucket < rate. With a `salt`, the key hashed is `${salt}:${key}`: a salt
// gives a scorer (or group of scorers) its own independent slice of traffic; without one, every
// scorer at rate r scores the same runs, which is what makes scores comparable across scorers.
import { hash } from 'node:crypto';
import type { SamplingConfig } from './sampling-schema.ts';

export type SamplingDecision = {
  sampled: boolean;
  /** Present when a ratio decision was taken; what the score record reports as `sampling`. */
  rate?: number;
  /** The key's bucket in [0, 1); present when the hash was computed. */
  bucket?: number;
};

const twoPow48 = 2 ** 48;

/**
 * The key's position in [0, 1). Hashing the key once and reading 12 hex digits (48 bits, exact in
 * a double) is the cheapest route in Node: the one-shot `hash()` with hex output avoids a Buffer.
 */
export function samplingBucket(key: string): number {
  return Number.parseInt(hash('sha256', key, 'hex').slice(0, 12), 16) / twoPow48;
}

/** The key hashed for a ratio config: `${salt}:${key}` when a salt is set, else the key itself. */
export function saltedSamplingKey(key: string, salt: string | undefined): string {
  return salt === undefined ? key : `${salt}:${key}`;
}

/**
 * Decides one run. `undefined` and `{ type: 'none' }` score every run. `ratio` scores iff
 * bucket < rate: a rate that is not a number, NaN or <= 0 never scores, >= 1 always scores
 * (without hashing). Anything else, including an unknown type or a non-string salt, fails closed.
 */
export function decideSampling(sampling: unknown, key: string): SamplingDecision {
  if (sampling === undefined) return { sampled: true };
  if (typeof sampling !== 'object' || sampling === null) return { sampled: false };
  const config = sampling as Record<string, unknown>;
  if (config.type === 'none') return { sampled: true };
  if (config.type !== 'ratio') return { sampled: false };

  const rate = config.rate;
  // `rate` is reported only when it is a real share (0..1): that is what a score record can carry.
  const reported = typeof rate === 'number' && rate >= 0 && rate <= 1 ? { rate } : {};
  if (typeof rate !== 'number' || Number.isNaN(rate) || rate <= 0) return { sampled: false, ...reported };
  if (rate >= 1) return { sampled: true, ...reported };
  const salt = config.salt;
  if (salt !== undefined && typeof salt !== 'string') return { sampled: false, rate };
  const bucket = samplingBucket(saltedSamplingKey(key, salt));
  return { sampled: bucket < rate, rate, bucket };
}

/** Whether the run with this key (trace id, else run id) is scored under `sampling`. */
export function isSampled(sampling: SamplingConfig | undefined, key: string): boolean {
  return decideSampling(sampling, key).sampled;
}
