import { describe, expect, it } from 'vitest';
import { costOf, createPriceTable, DEFAULT_MODEL_PRICES, judgeUsageCost } from '../../../../../src/engine/budget/prices.ts';

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
    expect(judgeUsageCost(table, 'llama3.1', { inputTokens: 10, outputTokens: 10 })?.amount).toBe(0);
  });

  it('gives no cost without a price or without reported usage', () => {
    const table = createPriceTable();
    expect(judgeUsageCost(table, 'unknown-model', { inputTokens: 10, outputTokens: 5 })).toBeUndefined();
    expect(judgeUsageCost(table, 'gpt-4o', undefined)).toBeUndefined();
    expect(judgeUsageCost(table, 'gpt-4o', {})).toBeUndefined();
  });
});
