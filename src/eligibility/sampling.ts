// Deterministic sampling (docs/scorers.md, deterministic sampling): whether a run is scored is a
// pure function of its key (trace id, else run id), so retries, replays and replicas agree, and
// scorers that share a rate score the same runs. No randomness anywhere in the decision.
//
// bucket(key) = first 6 bytes of SHA-256(key as UTF-8), big-endian unsigned 48-bit, / 2^48.
// A run is sampled iff bucket < rate. With a `salt`, the key hashed is `${salt}:${key}`: a salt
// gives a scorer (or group of scorers) its own independent slice of traffic; without one, every
// scorer at rate r scores the same runs, which is what makes scores comparable across scorers.
import { hash } from 'node:crypto';
import { ScorestreamError } from '../errors.ts';

export type SamplingConfig =
  /** No sampling applied: every run is scored (not "score none"). */
  | { type: 'none' }
  /** Score the runs whose bucket is below `rate` (0..1). */
  | { type: 'ratio'; rate: number; salt?: string };

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

export type ValidateSamplingOptions = {
  /** Who the config belongs to, for the message, e.g. "scorer 'toxicity'". */
  name?: string;
};

function invalid(message: string, options: ValidateSamplingOptions): never {
  const owner = options.name === undefined ? '' : ` for ${options.name}`;
  throw new ScorestreamError(`Invalid sampling${owner}: ${message}`, { code: 'INVALID_SAMPLING' });
}

const ratioKeys = new Set(['type', 'rate', 'salt']);

/**
 * Config-time check of a sampling config: throws a ScorestreamError (code INVALID_SAMPLING) that
 * says what is wrong and how to write it; returns the config typed. `undefined` is valid (no
 * sampling). Stricter than the runtime: a rate outside [0, 1] is refused (50 meaning 50% is a
 * classic), and so are unknown keys.
 */
export function validateSampling(sampling: unknown, options: ValidateSamplingOptions = {}): SamplingConfig | undefined {
  if (sampling === undefined) return undefined;
  if (typeof sampling !== 'object' || sampling === null || Array.isArray(sampling)) {
    invalid(
      `expected an object such as { type: 'ratio', rate: 0.1 } or { type: 'none' }, got ${sampling === null ? 'null' : Array.isArray(sampling) ? 'an array' : typeof sampling}.`,
      options,
    );
  }
  const config = sampling as Record<string, unknown>;
  if (config.type === 'none') {
    const extra = Object.keys(config).filter((key) => key !== 'type');
    if (extra.length > 0) invalid(`{ type: 'none' } takes no other keys, got ${extra.join(', ')}.`, options);
    return { type: 'none' };
  }
  if (config.type !== 'ratio') {
    invalid(`type must be 'none' (score every run) or 'ratio' (score a share of runs), got ${JSON.stringify(config.type) ?? 'undefined'}.`, options);
  }
  const extra = Object.keys(config).filter((key) => !ratioKeys.has(key));
  if (extra.length > 0) invalid(`unknown key(s) ${extra.join(', ')}; a ratio config takes type, rate and salt.`, options);
  const { rate, salt } = config;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    invalid(`rate must be a number from 0 to 1 (e.g. 0.1 scores 10% of runs), got ${JSON.stringify(rate) ?? 'undefined'}.`, options);
  }
  if (salt !== undefined && (typeof salt !== 'string' || salt === '')) {
    invalid(`salt must be a non-empty string when given, got ${JSON.stringify(salt) ?? typeof salt}.`, options);
  }
  return salt === undefined ? { type: 'ratio', rate } : { type: 'ratio', rate, salt };
}
