// Turns a decision model's raw result into a ClassifierResult: checks the fields around the
// answers that the provider contract declares but cannot guarantee (a string token count would
// turn totalTokens into a string), and fills the defaults a ClassifierResult promises
// (response timestamp and model id; totalTokens = input + output).

import type { Experimental_DecisionModelV4Result } from '@ai-sdk/provider';
import { isPlainObject } from './json.ts';
import type { Answer, ClassifierResult } from './types.ts';

export function buildClassifierResult(
  raw: Experimental_DecisionModelV4Result,
  defaults: { modelId: string; now: () => number },
): ClassifierResult {
  if (!isPlainObject(raw)) throw new TypeError('The evaluation model returned a result that is not an object.');
  const usage = raw.usage;
  if (usage !== undefined && !isPlainObject(usage)) {
    throw new TypeError('The evaluation model returned usage that is not an object.');
  }
  for (const field of ['inputTokens', 'outputTokens'] as const) {
    const count = usage?.[field];
    if (count !== undefined && (typeof count !== 'number' || !Number.isFinite(count) || count < 0)) {
      throw new TypeError(`The evaluation model returned a '${field}' count that is not a non-negative number.`);
    }
  }
  if (raw.warnings !== undefined && !Array.isArray(raw.warnings)) {
    throw new TypeError('The evaluation model returned warnings that are not an array.');
  }
  const response = raw.response;
  if (response !== undefined && !isPlainObject(response)) {
    throw new TypeError('The evaluation model returned a response that is not an object.');
  }
  if (response?.timestamp !== undefined && !(response.timestamp instanceof Date)) {
    throw new TypeError('The evaluation model returned a response timestamp that is not a Date.');
  }
  const inputTokens = usage?.inputTokens;
  const outputTokens = usage?.outputTokens;
  return {
    answers: raw.answers as Record<string, Answer>,
    usage: { inputTokens, outputTokens, totalTokens: (inputTokens ?? 0) + (outputTokens ?? 0) },
    warnings: raw.warnings ?? [],
    rounding: raw.rounding,
    providerMetadata: raw.providerMetadata,
    response: {
      ...response,
      timestamp: response?.timestamp ?? new Date(defaults.now()),
      modelId: response?.modelId ?? defaults.modelId,
    },
  };
}
