// Judge cost: the price table (per model id, prices per million tokens: input, output, and input
// read from or written to the provider's prompt cache) and the cost of a judge call's reported
// usage. The pre-filled figures are the providers' public list prices for standard (non-batch)
// text tokens, in USD, as published on the OpenAI, Anthropic and Google pricing pages in 2025 and
// recalled from them — not re-checked against the live pages on the day this table was written:
// OpenAI's cached input at a half (GPT-4o family) or a quarter (GPT-4.1 family) of the input
// price; Anthropic's cache reads at a tenth and its 5-minute cache writes at 1.25 times; Gemini's
// context-cache reads at a quarter. Prices change: set `pricing.models` in the config to override
// any entry or add your own (a self-hosted model can be priced at 0).
import type { JudgeCallCost, JudgeUsage } from '../../kit/contracts/judge-execution.ts';

export type ModelPrice = {
  inputPerMillion: number;
  outputPerMillion: number;
  /** Input tokens the provider read from its prompt cache; absent: priced as input, so a cost is never under-counted. */
  cachedInputPerMillion?: number | undefined;
  /** Input tokens written to the prompt cache (Anthropic's cache creation); absent: priced as input. */
  cacheWritePerMillion?: number | undefined;
};

export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  'gpt-4o': { inputPerMillion: 2.5, outputPerMillion: 10, cachedInputPerMillion: 1.25 },
  'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6, cachedInputPerMillion: 0.075 },
  'gpt-4.1': { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
  'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6, cachedInputPerMillion: 0.1 },
  'gpt-4.1-nano': { inputPerMillion: 0.1, outputPerMillion: 0.4, cachedInputPerMillion: 0.025 },
  'claude-3-5-haiku': { inputPerMillion: 0.8, outputPerMillion: 4, cachedInputPerMillion: 0.08, cacheWritePerMillion: 1 },
  'claude-3-5-sonnet': { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75 },
  'claude-sonnet-4': { inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3, cacheWritePerMillion: 3.75 },
  'gemini-2.0-flash': { inputPerMillion: 0.1, outputPerMillion: 0.4, cachedInputPerMillion: 0.025 },
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
  return usageCostOf(price, { inputTokens, outputTokens });
}

/**
 * The cost of reported usage at `price`, rounded to 1e-9 of the currency unit. `inputTokens` is
 * every input token, as the AI SDK reports it (OpenAI's `prompt_tokens`, Anthropic's input, cache
 * reads and writes together); of those, `cachedInputTokens` go at the cache-read price and
 * `cacheCreationInputTokens` at the cache-write price. Output includes reasoning tokens, priced
 * as output. (A provider that reported input without its cache reads — the AI SDK 4 Anthropic
 * provider's flat usage, which src/kit/judge/usage.ts still reads — would be priced low here;
 * the installed SDK reports every input token.)
 */
export function usageCostOf(price: ModelPrice, usage: JudgeUsage): number {
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cachedInputTokens ?? 0, input);
  const written = Math.min(usage.cacheCreationInputTokens ?? 0, input - cached);
  const fresh = input - cached - written;
  const perMillion = fresh * price.inputPerMillion + cached * (price.cachedInputPerMillion ?? price.inputPerMillion) + written * (price.cacheWritePerMillion ?? price.inputPerMillion) + (usage.outputTokens ?? 0) * price.outputPerMillion;
  return Math.round(perMillion * 1000) / 1e9;
}

/** A judge execution's reported usage, priced (times `priceRate`, the batch tier's share of the list price): its cost, `unpriced` when the table has no price for its model, or undefined when no usage was reported. */
export function judgeUsageCost(table: PriceTable, modelId: string, usage: JudgeUsage | undefined, priceRate = 1): JudgeCallCost | undefined {
  if (usage === undefined || (usage.inputTokens === undefined && usage.outputTokens === undefined)) return undefined;
  const price = table.priceOf(modelId);
  if (price === undefined) return 'unpriced';
  const amount = usageCostOf(price, usage);
  return { amount: priceRate === 1 ? amount : Math.round(amount * priceRate * 1e9) / 1e9, unit: table.currency, source: 'price-table' };
}
