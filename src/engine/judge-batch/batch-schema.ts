// The batch tier's settings (docs/spend-and-replay.md, the batch tier): a binding's judge mode, and
// the deployment's one batch API — which provider's batch endpoints, the judge models built with
// the tier's `fetch`, and when a batch is submitted (by size or by age) and polled.
//
// Why the models come as a function of `fetch`: the tier sits at the AI SDK provider's transport
// (batch-fetch.ts), so the service must build the provider the binding's judge names, with the
// tier's fetch. `models: (fetch) => createProviderRegistry({ openai: createOpenAI({ fetch }) })`
// does that for any AI SDK provider, with the user's own credentials and settings.
import { z } from 'zod';
import type { JudgeModelResolver } from '../../kit/judge/types.ts';

const positiveInt = z.number().int().positive();

export const JUDGE_MODES = ['live', 'batch'] as const;
export type JudgeMode = (typeof JUDGE_MODES)[number];

/** A binding's `judge`: `mode: 'batch'` sends its judge calls to the batch tier (needs the config's `judge.batch`). */
export const bindingJudgeSchema = z.strictObject({
  mode: z.enum(JUDGE_MODES, { error: `expected one of ${JUDGE_MODES.map((mode) => `'${mode}'`).join(', ')}` }).default('live'),
  /**
   * Batch mode: a request that fails inside its batch is made live at once, at the live price,
   * instead of waiting on the retry tiers for another batch. Default false.
   */
  liveOnFailure: z.boolean().optional(),
});

/** The batch APIs the tier speaks: OpenAI's (and any OpenAI-compatible server's with the same endpoints) and Anthropic's Message Batches. */
export const BATCH_APIS = ['openai', 'anthropic'] as const;
export type BatchApi = (typeof BATCH_APIS)[number];

export type JudgeModelsWithFetch = (fetch: typeof globalThis.fetch) => JudgeModelResolver;

const modelsWithFetchSchema = z.custom<JudgeModelsWithFetch>((value) => typeof value === 'function', {
  message: 'expected a function (fetch) => provider registry, e.g. (fetch) => createProviderRegistry({ openai: createOpenAI({ fetch }) })',
});

export const BATCH_DEFAULTS = {
  maxRequests: 10_000,
  maxBytes: 100 * 1024 * 1024,
  maxWaitMs: 60_000,
  pollMs: 30_000,
  maxPollMs: 600_000,
  maxPendingPairs: 2_000,
  answersGraceMs: 300_000,
} as const;

export const judgeBatchSchema = z.strictObject({
  api: z.enum(BATCH_APIS, { error: `expected one of ${BATCH_APIS.map((api) => `'${api}'`).join(', ')}` }),
  /** The judge provider's base URL, as its AI SDK provider has it (e.g. https://api.openai.com/v1): the batch endpoints are below it. */
  baseURL: z.url({ error: 'expected the judge provider’s base URL, e.g. https://api.openai.com/v1' }),
  apiKey: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** The judge models, built with the tier's fetch. */
  models: modelsWithFetchSchema,
  /** Submit once this many requests wait (and never more in one batch; below the provider's own cap). */
  maxRequests: positiveInt.default(BATCH_DEFAULTS.maxRequests),
  /** Submit once the waiting requests' bodies reach this many bytes (and never more in one batch). */
  maxBytes: positiveInt.default(BATCH_DEFAULTS.maxBytes),
  /** Submit what waits once the oldest waiting request is this old. */
  maxWaitMs: positiveInt.default(BATCH_DEFAULTS.maxWaitMs),
  /** First pause between polls of an open batch; doubled up to `maxPollMs`. */
  pollMs: positiveInt.default(BATCH_DEFAULTS.pollMs),
  maxPollMs: positiveInt.default(BATCH_DEFAULTS.maxPollMs),
  /** Pairs one instance holds while they wait on batches (their run events are in memory): the bound on the tier's memory. */
  maxPendingPairs: positiveInt.default(BATCH_DEFAULTS.maxPendingPairs),
  /** How long an ended batch's answers are kept once no waiting pair needs them (pairs read again after a restart find them). */
  answersGraceMs: positiveInt.default(BATCH_DEFAULTS.answersGraceMs),
});
export type JudgeBatchConfig = z.output<typeof judgeBatchSchema>;
