// The config of judge budgets and of the price table (docs/spend-and-replay.md):
// the one declaration of their shape, used by the config schema.
import { z } from 'zod';
import { DEFAULT_CURRENCY } from './prices.ts';
import { BUDGET_WINDOWS } from '../../kit/contracts/decision-record.ts';

/** What a budget counts: (run, scorer) pairs a scorer is run on, judge calls, judge tokens, or judge cost in the price table's currency. */
export const BUDGET_MEASURES = ['runs', 'judgeCalls', 'tokens', 'cost'] as const;
export type BudgetMeasure = (typeof BUDGET_MEASURES)[number];

export const budgetSchema = z
  .strictObject({
    /** Named in decision records, metrics and logs: unique. */
    name: z.string().min(1),
    of: z.enum(BUDGET_MEASURES),
    /** The most that may be used in any rolling `window`, by the whole consumer group. */
    max: z.number().positive(),
    window: z.enum(BUDGET_WINDOWS),
    /** Only this scorer's runs (its id); default every scorer. */
    scorer: z.string().min(1).optional(),
    /** Only calls to this judge model id (judgeCalls, tokens, cost); default every model. */
    model: z.string().min(1).optional(),
    /** One counter per tenant (`metadata.tenantId`; runs without one share a counter), each with the whole `max`. */
    perTenant: z.boolean().default(false),
  })
  .refine((budget) => !(budget.of === 'runs' && budget.model !== undefined), {
    message: "a budget of runs cannot name a model (runs are counted before any judge is called); drop `model` or count 'judgeCalls'",
    path: ['model'],
  });

export type BudgetConfig = z.output<typeof budgetSchema>;

export const budgetsSchema = z.array(budgetSchema).superRefine((budgets, context) => {
  const seen = new Set<string>();
  budgets.forEach((budget, index) => {
    if (seen.has(budget.name)) context.addIssue({ code: 'custom', path: [index, 'name'], message: `budget name '${budget.name}' is used twice; give each budget its own name` });
    seen.add(budget.name);
  });
});

const price = z.number().nonnegative();

export const pricingSchema = z
  .strictObject({
    /** The unit of every price and of cost budgets. */
    currency: z.string().min(1).default(DEFAULT_CURRENCY),
    /** Per model id, laid over the pre-filled table (src/engine/budget/prices.ts). */
    models: z.record(z.string().min(1), z.strictObject({ inputPerMillion: price, outputPerMillion: price, cachedInputPerMillion: price.optional(), cacheWritePerMillion: price.optional() })).default({}),
    /** What a batch-tier judge call costs as a share of the list price (OpenAI's, Anthropic's and Vertex's batch APIs: half). */
    batchRate: z.number().positive().max(1).default(0.5),
    /** How a judge call is estimated before it is made (budgets, dry runs). */
    estimate: z
      .strictObject({
        /** Characters of instructions and prompt per input token. */
        charsPerToken: z.number().positive().default(4),
        /** Output tokens expected of one call when its model settings set no `maxOutputTokens`. */
        outputTokensPerCall: z.number().int().positive().default(256),
      })
      .prefault({}),
  })
  .prefault({});

export type PricingConfig = z.output<typeof pricingSchema>;
