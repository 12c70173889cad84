// Normalises the usage a provider reports into JudgeUsage: numbers only, whatever the shape
// (AI SDK flat usage, the v4 provider's nested usage, or promptTokens/completionTokens aliases).
import type { JudgeUsage } from './types.ts';

const usageKeys = [
  'inputTokens',
  'outputTokens',
  'totalTokens',
  'reasoningTokens',
  'cachedInputTokens',
  'cacheCreationInputTokens',
] as const;

export function normalizeJudgeUsage(usage: unknown): JudgeUsage {
  if (typeof usage !== 'object' || usage === null) return {};
  const source = usage as Record<string, unknown>;
  const input = nested(source.inputTokens);
  const output = nested(source.outputTokens);
  const inputTokenDetails = source.inputTokenDetails as Record<string, unknown> | undefined;
  const outputTokenDetails = source.outputTokenDetails as Record<string, unknown> | undefined;
  const normalized: JudgeUsage = {};
  setIfNumber(normalized, 'inputTokens', input?.total ?? source.inputTokens ?? source.promptTokens);
  setIfNumber(normalized, 'outputTokens', output?.total ?? source.outputTokens ?? source.completionTokens);
  setIfNumber(
    normalized,
    'reasoningTokens',
    output?.reasoning ?? outputTokenDetails?.reasoningTokens ?? source.reasoningTokens,
  );
  setIfNumber(
    normalized,
    'cachedInputTokens',
    input?.cacheRead ?? inputTokenDetails?.cacheReadTokens ?? source.cachedInputTokens,
  );
  setIfNumber(
    normalized,
    'cacheCreationInputTokens',
    input?.cacheWrite ?? inputTokenDetails?.cacheWriteTokens ?? source.cacheCreationInputTokens,
  );
  const total = source.totalTokens;
  if (isCount(total)) normalized.totalTokens = total;
  else if (normalized.inputTokens !== undefined || normalized.outputTokens !== undefined) {
    normalized.totalTokens = (normalized.inputTokens ?? 0) + (normalized.outputTokens ?? 0);
  }
  return normalized;
}

/** Field-wise sum; a field is present when either side has it. */
export function addJudgeUsage(left: JudgeUsage, right: JudgeUsage): JudgeUsage {
  const sum: JudgeUsage = {};
  for (const key of usageKeys) {
    const a = left[key];
    const b = right[key];
    if (a !== undefined || b !== undefined) sum[key] = (a ?? 0) + (b ?? 0);
  }
  return sum;
}

function nested(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function setIfNumber(target: JudgeUsage, key: (typeof usageKeys)[number], value: unknown): void {
  if (isCount(value)) target[key] = value;
}
