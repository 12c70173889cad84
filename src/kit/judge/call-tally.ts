// Counts what a judge call really did, below the AI SDK's retry loop: every model request, every
// response, their usage and identity. It also bounds each request with a timeout, racing the model
// so that one ignoring its abort signal still cannot hang a run.
import { wrapLanguageModel } from 'ai';
import type { LanguageModelV4, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import type { JSONValue } from 'ai';
import { generateWithTimeout } from './request-timeout.ts';
import { slotWaitScope } from './slot-wait.ts';
import { addJudgeUsage, normalizeJudgeUsage } from './usage.ts';
import type { JudgeResponseIdentity, JudgeUsage } from './types.ts';

export type CallTally = {
  requests: number;
  responses: number;
  usage: JudgeUsage | undefined;
  finishReason: string | undefined;
  warnings: JSONValue[];
  response: JudgeResponseIdentity | undefined;
  lastText: string | undefined;
  /** Time the requests waited for a judge slot (the service's per-model cap), summed; undefined when none reported. */
  queuedMs: number | undefined;
  /** The scorer run's deadline, passed down to the concurrency cap (slot-wait.ts). */
  scorerTimeoutMs?: number;
};

export function newCallTally(scorerTimeoutMs?: number): CallTally {
  return {
    ...(scorerTimeoutMs === undefined ? {} : { scorerTimeoutMs }),
    requests: 0,
    responses: 0,
    usage: undefined,
    finishReason: undefined,
    warnings: [],
    response: undefined,
    lastText: undefined,
    queuedMs: undefined,
  };
}

type AnyLanguageModel = Parameters<typeof wrapLanguageModel>[0]['model'];

export function tallyModel(model: AnyLanguageModel, tally: CallTally, timeoutMs: number): LanguageModelV4 {
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v4',
      wrapGenerate: async ({ params, model: inner }) => {
        tally.requests += 1;
        // The scope lets a concurrency cap below report how long this request queued (slot-wait.ts).
        const result = await slotWaitScope(tally, () => generateWithTimeout(inner, params, timeoutMs));
        record(tally, result);
        return result;
      },
    },
  });
}

function record(tally: CallTally, result: LanguageModelV4GenerateResult): void {
  tally.responses += 1;
  const usage = normalizeJudgeUsage(result.usage);
  tally.usage = tally.usage === undefined ? usage : addJudgeUsage(tally.usage, usage);
  tally.finishReason = result.finishReason?.unified;
  for (const warning of result.warnings ?? []) tally.warnings.push(safeWarning(warning));
  const response = result.response;
  tally.response = {
    ...(typeof response?.id === 'string' ? { id: response.id } : {}),
    ...(response?.timestamp instanceof Date ? { timestamp: response.timestamp.toISOString() } : {}),
    ...(typeof response?.modelId === 'string' ? { modelId: response.modelId } : {}),
  };
  let text = '';
  for (const part of result.content ?? []) if (part.type === 'text') text += part.text;
  tally.lastText = result.structuredOutputText ?? text;
}

/** Warnings keep their descriptive string fields only. */
function safeWarning(warning: unknown): JSONValue {
  const safe: Record<string, string> = {};
  if (typeof warning !== 'object' || warning === null) return safe;
  for (const key of ['type', 'feature', 'setting', 'details', 'message']) {
    const value = (warning as Record<string, unknown>)[key];
    if (typeof value === 'string') safe[key] = value;
  }
  return safe;
}
