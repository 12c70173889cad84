// The judge evidence carried by a score record: one execution per logical prompt-step run
// (docs/contracts.md, the score record). Only safe fields: never raw provider bodies, headers or
// `usage.raw`.
import { z } from 'zod';
import { fieldPerStep } from './scorer-steps.ts';

export const judgeUsageSchema = z.object({
  inputTokens: z.number().nonnegative().optional(),
  outputTokens: z.number().nonnegative().optional(),
  totalTokens: z.number().nonnegative().optional(),
  reasoningTokens: z.number().nonnegative().optional(),
  cachedInputTokens: z.number().nonnegative().optional(),
  cacheCreationInputTokens: z.number().nonnegative().optional(),
}).meta({ id: 'JudgeUsage' });
export type JudgeUsage = z.infer<typeof judgeUsageSchema>;

const judgeExecutionBase = {
  /** The exact string createPrompt returned; absent when the deployment keeps no content (evidence 'no-content', docs/data-handling.md). */
  prompt: z.string().optional(),
  judgeModelId: z.string(),
  judgeProvider: z.string().optional(),
  /** Judge invocations including the structured-output fallback. */
  attemptCount: z.number().int().min(1),
  /** Completed model steps across attempts. */
  modelCallCount: z.number().int().nonnegative(),
  /** Whole prompt step, rounded; the clock starts before createPrompt runs. */
  durationMs: z.number().int().nonnegative(),
  /**
   * Of that, the time its requests waited for a judge slot (the service's per-model cap), summed
   * over attempts and rounded; absent when no cap applied. High values mean a full queue, not a
   * slow provider.
   */
  queuedMs: z.number().int().nonnegative().optional(),
  /** The price table has no price for this model: its usage is here, its cost is in no record, metric or budget (add it to `pricing.models`). */
  unpriced: z.literal(true).optional(),
  finishReason: z.string().optional(),
  warnings: z.array(z.unknown()).optional(),
  /** Safe response identity; never headers or bodies. */
  response: z
    .object({ id: z.string().optional(), timestamp: z.string().optional(), modelId: z.string().optional() })
    .optional(),
};

/**
 * What a judge execution cost: `amount` in `unit` (a currency such as `USD`). `source` says where
 * the figure comes from: `price-table` = the reported usage priced with the config's price table
 * (src/engine/budget/prices.ts), or a provider's name when it reported the cost itself.
 */
export const judgeCostSchema = z.object({ amount: z.number().nonnegative(), unit: z.string(), source: z.string() }).meta({ id: 'JudgeCost' });
export type JudgeCost = z.infer<typeof judgeCostSchema>;
/** What a judge call cost: its price, or `unpriced` when the price table has no price for its model (its usage kept, no cost guessed). */
export type JudgeCallCost = JudgeCost | 'unpriced';

export const judgeExecutionSuccessSchema = z.object({
  status: z.literal('success'),
  ...judgeExecutionBase,
  /** The validated object; for generateScore the number; for generateReason the text. Absent under evidence 'no-content'. */
  output: z.unknown().optional(),
  usage: judgeUsageSchema,
  /** The reported usage priced (never an estimate); absent when the model has no price or no usage was reported. */
  cost: judgeCostSchema.optional(),
});

export const judgeExecutionFailureSchema = z.object({
  status: z.literal('failed'),
  ...judgeExecutionBase,
  /** Only when a validated output existed before a later failure. */
  output: z.unknown().optional(),
  /** The last raw text the model produced, never parsed into `output`. */
  rawOutput: z.string().optional(),
  usage: judgeUsageSchema.optional(),
  cost: judgeCostSchema.optional(),
  error: z.object({ name: z.string(), message: z.string(), code: z.string().optional() }),
});

export const judgeExecutionSchema = z.discriminatedUnion('status', [
  judgeExecutionSuccessSchema,
  judgeExecutionFailureSchema,
]).meta({ id: 'JudgeExecution' });
export type JudgeExecution = z.infer<typeof judgeExecutionSchema>;

const stepJudgeSchema = z.object({ executions: z.array(judgeExecutionSchema) }).meta({ id: 'StepJudge' });

/** Per prompt step, its executions in order. Absent when no prompt step reached a model. */
export const judgeResultsSchema = z.object(fieldPerStep(stepJudgeSchema.optional()));
export type JudgeResults = z.infer<typeof judgeResultsSchema>;
