import { describe, expect, it } from 'vitest';
import { addJudgeUsage, normalizeJudgeUsage } from '../../../../../src/kit/judge/usage.ts';

describe('normalizeJudgeUsage', () => {
  it('reads the v4 provider shape, keeping numbers only and dropping raw usage', () => {
    expect(
      normalizeJudgeUsage({
        inputTokens: { total: 100, noCache: 60, cacheRead: 40, cacheWrite: 5 },
        outputTokens: { total: 20, text: 15, reasoning: 5 },
        raw: { secret: 'sk-SECRET' },
      }),
    ).toEqual({
      inputTokens: 100,
      outputTokens: 20,
      totalTokens: 120,
      reasoningTokens: 5,
      cachedInputTokens: 40,
      cacheCreationInputTokens: 5,
    });
  });

  it('reads the AI SDK flat shape with token details', () => {
    expect(
      normalizeJudgeUsage({
        inputTokens: 10,
        outputTokens: 4,
        totalTokens: 15,
        inputTokenDetails: { cacheReadTokens: 2 },
        outputTokenDetails: { reasoningTokens: 1 },
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 4, totalTokens: 15, cachedInputTokens: 2, reasoningTokens: 1 });
  });

  it('accepts promptTokens/completionTokens as aliases and derives a missing total (missing side counts 0)', () => {
    expect(normalizeJudgeUsage({ promptTokens: 7, completionTokens: 3 })).toEqual({ inputTokens: 7, outputTokens: 3, totalTokens: 10 });
    expect(normalizeJudgeUsage({ promptTokens: 7 })).toEqual({ inputTokens: 7, totalTokens: 7 });
  });

  it('drops non-numeric and non-finite fields; gives {} for nothing usable', () => {
    expect(normalizeJudgeUsage({ inputTokens: 'many', outputTokens: Number.NaN })).toEqual({});
    expect(normalizeJudgeUsage(undefined)).toEqual({});
    expect(normalizeJudgeUsage({ inputTokens: { total: undefined }, outputTokens: { total: undefined } })).toEqual({});
  });
});

describe('addJudgeUsage', () => {
  it('sums field by field; a field is present when either side has it', () => {
    expect(addJudgeUsage({ inputTokens: 10, outputTokens: 5, totalTokens: 15 }, { inputTokens: 10, outputTokens: 5, totalTokens: 15 })).toEqual({
      inputTokens: 20,
      outputTokens: 10,
      totalTokens: 30,
    });
    expect(addJudgeUsage({ reasoningTokens: 2 }, { inputTokens: 1 })).toEqual({ reasoningTokens: 2, inputTokens: 1 });
  });
});
