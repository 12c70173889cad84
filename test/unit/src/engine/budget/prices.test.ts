import { describe, expect, it } from 'vitest';
import { costOf, createPriceTable, DEFAULT_MODEL_PRICES, judgeUsageCost, usageCostOf } from '../../../../../src/engine/budget/prices.ts';

describe('the price table', () => {
  it('prices usage per million tokens: 1,200 in and 300 out of gpt-4o-mini at 0.15 / 0.60 USD', () => {
    // 1200 × 0.15 / 1e6 + 300 × 0.60 / 1e6 = 0.00018 + 0.00018 = 0.00036
    expect(costOf({ inputPerMillion: 0.15, outputPerMillion: 0.6 }, 1200, 300)).toBe(0.00036);
    expect(judgeUsageCost(createPriceTable(), 'gpt-4o-mini', { inputTokens: 1200, outputTokens: 300 })).toEqual({ amount: 0.00036, unit: 'USD', source: 'price-table' });
  });

  it('looks a model up as written, without a provider prefix, then by the longest dated-name prefix', () => {
    const table = createPriceTable();
    expect(table.priceOf('openai:gpt-4o-mini')).toEqual(DEFAULT_MODEL_PRICES['gpt-4o-mini']);
    expect(table.priceOf('openai/gpt-4o')).toEqual(DEFAULT_MODEL_PRICES['gpt-4o']);
    expect(table.priceOf('gpt-4o-mini-2024-07-18')).toEqual(DEFAULT_MODEL_PRICES['gpt-4o-mini']);
    expect(table.priceOf('gpt-4o-2024-08-06')).toEqual(DEFAULT_MODEL_PRICES['gpt-4o']);
    expect(table.priceOf('llama3.1')).toBeUndefined();
  });

  it('lets the config override a pre-filled entry and add its own, in its own currency', () => {
    const table = createPriceTable({ 'gpt-4o-mini': { inputPerMillion: 1, outputPerMillion: 2 }, 'llama3.1': { inputPerMillion: 0, outputPerMillion: 0 } }, 'EUR');
    expect(judgeUsageCost(table, 'gpt-4o-mini', { inputTokens: 1_000_000, outputTokens: 500_000 })).toEqual({ amount: 2, unit: 'EUR', source: 'price-table' });
    expect(judgeUsageCost(table, 'llama3.1', { inputTokens: 10, outputTokens: 10 })).toEqual({ amount: 0, unit: 'EUR', source: 'price-table' });
  });

  it('prices cached input at the cache-read rate: 2,000 in, 1,536 of them cached (OpenAI), 100 out of gpt-4o-mini', () => {
    // 464 × 0.15 + 1,536 × 0.075 + 100 × 0.60 = 69.6 + 115.2 + 60 = 244.8 per million tokens
    expect(judgeUsageCost(createPriceTable(), 'gpt-4o-mini', { inputTokens: 2000, cachedInputTokens: 1536, outputTokens: 100 })).toEqual({ amount: 0.0002448, unit: 'USD', source: 'price-table' });
  });

  it('prices cache reads and writes apart (Anthropic): 3,000 in = 200 fresh + 2,000 read + 800 written, 150 out of claude-sonnet-4', () => {
    // 200 × 3 + 2,000 × 0.30 + 800 × 3.75 + 150 × 15 = 600 + 600 + 3,000 + 2,250 = 6,450 per million tokens
    expect(judgeUsageCost(createPriceTable(), 'anthropic:claude-sonnet-4-20250514', { inputTokens: 3000, cachedInputTokens: 2000, cacheCreationInputTokens: 800, outputTokens: 150 })).toEqual({ amount: 0.00645, unit: 'USD', source: 'price-table' });
  });

  it('prices cached tokens as input where the table has no cache rate, and never more cached than input', () => {
    const table = createPriceTable({ 'my-judge': { inputPerMillion: 1, outputPerMillion: 2 } });
    expect(usageCostOf(table.priceOf('my-judge')!, { inputTokens: 1000, cachedInputTokens: 900, outputTokens: 0 })).toBe(0.001);
    // A provider reporting more cached than input tokens: all of the input is cached, none negative.
    expect(usageCostOf(DEFAULT_MODEL_PRICES['gpt-4.1']!, { inputTokens: 1000, cachedInputTokens: 5000, outputTokens: 0 })).toBe(0.0005);
  });

  it('says a model without a price is unpriced — never a guessed price — and gives no cost without reported usage', () => {
    const table = createPriceTable();
    expect(judgeUsageCost(table, 'unknown-model', { inputTokens: 10, outputTokens: 5 })).toBe('unpriced');
    expect(judgeUsageCost(table, 'gpt-4o', undefined)).toBeUndefined();
    expect(judgeUsageCost(table, 'gpt-4o', {})).toBeUndefined();
  });
});
