// The zod schema of a deployment config. Scorer objects and functions cannot be described
// by JSON Schema, so they are checked by shape here and in detail by resolve-config.ts.
import { z } from 'zod';

const positiveInt = z.number().int().positive();

export const deliveryModes = ['at-least-once', 'exactly-once'] as const;

const scorerShape = z.custom<{ id: string; run: unknown }>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'string' &&
    (value as { id: string }).id !== '' &&
    typeof (value as { run?: unknown }).run === 'function',
  { message: 'expected a scorer (an object with a non-empty string `id` and a `run()` method, e.g. from createScorer())' },
);

const samplingSchema = z.union(
  [
    z.strictObject({ type: z.literal('none') }),
    z.strictObject({ type: z.literal('ratio'), rate: z.number().min(0).max(1), salt: z.string().optional() }),
  ],
  { error: "expected { type: 'none' } or { type: 'ratio', rate: <0..1>, salt?: string }" },
);

export const bindingSchema = z.strictObject({
  scorer: scorerShape,
  version: z.string().min(1).optional(),
  sampling: samplingSchema.optional(),
  filter: z.unknown().optional(),
  when: z.custom<(event: unknown) => unknown>((value) => typeof value === 'function', { message: 'expected a function (event) => boolean' }).optional(),
  timeoutMs: positiveInt.optional(),
});

export const configSchema = z.strictObject({
  kafka: z.strictObject({
    brokers: z.array(z.string().regex(/^[^\s:]+:\d+$/, 'expected host:port')).min(1, 'expected at least one broker (host:port); set KAFKA_BROKERS'),
    clientId: z.string().min(1),
    ssl: z
      .union([
        z.boolean(),
        z.strictObject({
          ca: z.union([z.string(), z.array(z.string())]).optional(),
          cert: z.string().optional(),
          key: z.string().optional(),
          rejectUnauthorized: z.boolean().optional(),
        }),
      ])
      .optional(),
    sasl: z
      .strictObject({
        mechanism: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']),
        username: z.string().min(1),
        password: z.string().min(1),
      })
      .optional(),
  }),
  groupId: z.string().min(1),
  topics: z.strictObject({
    runs: z.string().min(1),
    results: z.string().min(1),
    deadLetter: z.string().min(1),
    decisions: z.string().min(1).optional(),
  }),
  scorers: z.array(bindingSchema).min(1, 'expected at least one scorer binding { scorer, sampling?, filter?, when?, version? }'),
  concurrency: z.strictObject({ runsInFlight: positiveInt, judgeCallsPerModel: positiveInt }),
  judge: z
    .strictObject({
      model: z.unknown().optional(),
      models: z
        .custom<object>((value) => typeof value === 'object' && value !== null && typeof (value as { languageModel?: unknown }).languageModel === 'function', {
          message: 'expected a provider registry with languageModel(id), e.g. createProviderRegistry({...})',
        })
        .optional(),
    })
    .optional(),
  shutdownTimeoutMs: positiveInt,
  maxMessageBytes: positiveInt,
  delivery: z.enum(deliveryModes, { error: `expected one of ${deliveryModes.map((mode) => `'${mode}'`).join(', ')}` }),
});
