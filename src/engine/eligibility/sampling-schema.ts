// The sampling option of a scorer binding as a zod schema: its two shapes, and the message each
// mistake gets. The config schema uses it for a binding's `sampling`, validateSampling for a single
// option; SamplingConfig is derived from it. How a config decides a run is sampling.ts.
import { z } from 'zod';
import { ScorestreamError } from '../../kit/errors.ts';

/** A value as the messages name it: `"text"`, 5, NaN, null, undefined, an array, or its JSON. */
function describe(value: unknown): string {
  if (typeof value === 'number' || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return JSON.stringify(value) ?? typeof value;
}

const rateMessage = (issue: { input?: unknown }) => `rate must be a number from 0 to 1 (e.g. 0.1 scores 10% of runs), got ${describe(issue.input)}`;

export const samplingSchema = z.discriminatedUnion(
  'type',
  [
    /** No sampling applied: every run is scored (not "score none"). */
    z.strictObject(
      { type: z.literal('none') },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? `{ type: 'none' } takes no other keys, got ${issue.keys.join(', ')}` : undefined) },
    ),
    /**
     * Score the runs whose bucket is below `rate` (0..1). Stricter than the decision itself: a rate
     * outside [0, 1] is refused (50 meaning 50% is a classic), and so is an empty salt.
     */
    z.strictObject(
      {
        type: z.literal('ratio'),
        rate: z.number({ error: rateMessage }).min(0, { error: rateMessage }).max(1, { error: rateMessage }),
        salt: z.string({ error: (issue) => `salt must be a non-empty string when given, got ${describe(issue.input)}` }).min(1, 'salt must be a non-empty string when given, got ""').optional(),
      },
      { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown key(s) ${issue.keys.join(', ')}; a ratio config takes type, rate and salt` : undefined) },
    ),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? `type must be 'none' (score every run) or 'ratio' (score a share of runs), got ${describe((issue.input as { type?: unknown }).type)}`
        : `expected an object such as { type: 'ratio', rate: 0.1 } or { type: 'none' }, got ${describe(issue.input)}`,
  },
);

export type SamplingConfig = z.output<typeof samplingSchema>;

export type ValidateSamplingOptions = {
  /** Who the config belongs to, for the message, e.g. "scorer 'toxicity'". */
  name?: string;
};

/**
 * Config-time check of one sampling option: throws a ScorestreamError (code INVALID_SAMPLING) that
 * says what is wrong and how to write it; returns the option typed. `undefined` is valid (no
 * sampling).
 */
export function validateSampling(sampling: unknown, options: ValidateSamplingOptions = {}): SamplingConfig | undefined {
  if (sampling === undefined) return undefined;
  const parsed = samplingSchema.safeParse(sampling);
  if (parsed.success) return parsed.data;
  const owner = options.name === undefined ? '' : ` for ${options.name}`;
  throw new ScorestreamError(`Invalid sampling${owner}: ${parsed.error.issues[0]?.message}.`, { code: 'INVALID_SAMPLING' });
}
