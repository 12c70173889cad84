// Test helpers for judge tests: ai/test mock models answering with fixed text, errors or hangs.
import { APICallError } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';

export type AnswerOptions = {
  inputTokens?: number;
  outputTokens?: number;
  finishReason?: 'stop' | 'length' | 'error';
  response?: LanguageModelV4GenerateResult['response'];
  warnings?: LanguageModelV4GenerateResult['warnings'];
  usageRaw?: Record<string, string>;
  request?: LanguageModelV4GenerateResult['request'];
};

/** One model answer with the given text and usage (10 in / 5 out unless told). */
export function answer(text: string, options: AnswerOptions = {}): LanguageModelV4GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: options.finishReason ?? 'stop', raw: options.finishReason ?? 'stop' },
    usage: {
      inputTokens: { total: options.inputTokens ?? 10, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: options.outputTokens ?? 5, text: undefined, reasoning: undefined },
      ...(options.usageRaw === undefined ? {} : { raw: options.usageRaw }),
    },
    warnings: options.warnings ?? [],
    ...(options.response === undefined ? {} : { response: options.response }),
    ...(options.request === undefined ? {} : { request: options.request }),
  };
}

export function jsonAnswer(value: unknown, options?: AnswerOptions): LanguageModelV4GenerateResult {
  return answer(JSON.stringify(value), options);
}

type Step = LanguageModelV4GenerateResult | Error | 'hang' | 'hang-ignoring-abort';

/** A model that plays the given steps in order, one per call (the last one repeats). */
export function scriptedModel(steps: Step[], options: { modelId?: string; provider?: string } = {}): MockLanguageModelV4 {
  let call = 0;
  return new MockLanguageModelV4({
    modelId: options.modelId ?? 'mock-judge',
    provider: options.provider ?? 'mock-provider',
    doGenerate: async (callOptions: LanguageModelV4CallOptions) => {
      const step = steps[Math.min(call, steps.length - 1)]!;
      call += 1;
      if (step === 'hang') return hangUntilAborted(callOptions.abortSignal);
      if (step === 'hang-ignoring-abort') return new Promise<never>(() => {});
      if (step instanceof Error) throw step;
      return step;
    },
  });
}

function hangUntilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

export function apiError(statusCode: number, options: { retryAfterMs?: string; responseBody?: string; headers?: Record<string, string> } = {}): APICallError {
  return new APICallError({
    message: statusCode === 429 ? 'Too many requests' : `Provider answered ${statusCode}`,
    url: 'https://judge.example/v1/chat/completions',
    requestBodyValues: { model: 'mock-judge' },
    statusCode,
    responseHeaders: {
      ...(options.retryAfterMs === undefined ? {} : { 'retry-after-ms': options.retryAfterMs }),
      ...options.headers,
    },
    responseBody: options.responseBody,
  });
}

/** The system and user texts of a recorded model call. */
export function promptTexts(call: LanguageModelV4CallOptions): { system: string; user: string } {
  let system = '';
  let user = '';
  for (const message of call.prompt) {
    if (message.role === 'system') system += message.content;
    if (message.role === 'user') {
      for (const part of message.content) if (part.type === 'text') user += part.text;
    }
  }
  return { system, user };
}

/** A clock that advances by `step` ms on every read. */
export function steppingClock(step = 5): () => number {
  let now = 1_000;
  return () => {
    const value = now;
    now += step;
    return value;
  };
}
