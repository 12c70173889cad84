// Judge cost: the price table (per model id, input and output price per million tokens) and the
// cost of a judge call's reported usage. The pre-filled figures are the providers' public list
// prices for standard (non-batch, non-cached) text tokens, in USD, as published on the OpenAI,
// Anthropic and Google pricing pages in 2025 and recalled from them — not re-checked against the
// live pages on the day this table was written. Prices change: set `pricing.models` in the config
// to override any entry or add your own (a self-hosted model can be priced at 0).
import type { JudgeUsage } from '../../kit/contracts/judge-execution.ts';

export type ModelPrice = { inputPerMillion: number; outputPerMillion: number };

export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
  'claude-3-5-haiku': { inputPerMillion: 0.8, outputPerMillion: 4 },
  'claude-3-5-sonnet': { inputPerMillion: 3, outputPerMillion: 15 },
  'claude-sonnet-4': { inputPerMillion: 3, outputPerMillion: 15 },
  'gemini-2.0-flash': { inputPerMillion: 0.1, outputPerMillion: 0.4 },
};

export const DEFAULT_CURRENCY = 'USD';

export type PriceTable = {
  currency: string;
  /** The price of a model id, or undefined when the table has none. */
  priceOf(modelId: string): ModelPrice | undefined;
};

/**
 * The defaults with the config's entries laid over them. A model id is looked up as written, then
 * without a `provider:` or `provider/` prefix, then by the longest table key it starts with
 * followed by `-` (so `gpt-4o-mini-2024-07-18` takes `gpt-4o-mini`'s price, not `gpt-4o`'s).
 */
export function createPriceTable(overrides: Readonly<Record<string, ModelPrice>> = {}, currency = DEFAULT_CURRENCY): PriceTable {
  const prices = new Map<string, ModelPrice>(Object.entries({ ...DEFAULT_MODEL_PRICES, ...overrides }));
  const keysLongestFirst = [...prices.keys()].sort((a, b) => b.length - a.length);
  const cache = new Map<string, ModelPrice | undefined>();
  const lookUp = (modelId: string): ModelPrice | undefined => {
    const exact = prices.get(modelId);
    if (exact !== undefined) return exact;
    const bare = modelId.replace(/^[^:/]+[:/]/, '');
    const bareExact = prices.get(bare);
    if (bareExact !== undefined) return bareExact;
    const key = keysLongestFirst.find((candidate) => bare.startsWith(`${candidate}-`));
    return key === undefined ? undefined : prices.get(key);
  };
  return {
    currency,
    priceOf(modelId) {
      if (!cache.has(modelId)) cache.set(modelId, lookUp(modelId));
      return cache.get(modelId);
    },
  };
}

/** Cost of `inputTokens` in and `outputTokens` out at `price`, rounded to 1e-9 of the currency unit. */
export function costOf(price: ModelPrice, inputTokens: number, outputTokens: number): number {
  return Math.round((inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) * 1000) / 1e9;
}

/** The cost of a judge execution's reported usage; undefined when the model has no price or no usage was reported. */
export function judgeUsageCost(table: PriceTable, modelId: string, usage: JudgeUsage | undefined): { amount: number; unit: string; source: 'price-table' } | undefined {
  if (usage === undefined || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return undefined;
  const price = table.priceOf(modelId);
  if (price === undefined) return undefined;
  return { amount: costOf(price, usage.inputTokens ?? 0, usage.outputTokens ?? 0), unit: table.currency, source: 'price-table' };
}
