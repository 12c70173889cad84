// mockJudge(): an LLM judge for tests, no network. It is the AI SDK's own test model
// (`MockLanguageModelV4` from 'ai/test'), so it goes wherever a judge model goes (a scorer's
// `judge.model`, a provider registry, a Classifier), answering from a script:
//
//   mockJudge({ answer: { score: 0.8 } })                        every call, as JSON
//   mockJudge({ answers: [{ verdict: 'yes' }, 'Because ...'] })  one per call, in order
//   mockJudge({ answer: ({ user }) => (user.includes('refund') ? { score: 1 } : { score: 0 }) })
//   mockJudge({ answer: providerError(429, { retryAfterMs: 10 }) })   every call fails
//   mockJudge({ answer: { score: 1 }, delayMs: 500 })            a slow judge
//
// It records each call (`calls`: its system and user text and the raw options) and how many
// ran at once. Delays go through `sleep`, which tests can replace (or drive with fake timers),
// and end early when the call is aborted, as a real provider request would.
import { APICallError } from '@ai-sdk/provider';
import type { JSONObject, LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV4 } from 'ai/test';

export type MockJudgeReplyOptions = {
  /** Default 'stop'; 'length' with empty text is a truncated answer. */
  finishReason?: LanguageModelV4GenerateResult['finishReason']['unified'];
  /** Token counts the provider reports. Default: the judge's `usage`, else 10 in and 5 out. */
  usage?: MockJudgeUsage;
  /** The provider's raw usage object, passed through as providers do. */
  rawUsage?: JSONObject;
  response?: LanguageModelV4GenerateResult['response'];
  request?: LanguageModelV4GenerateResult['request'];
  warnings?: LanguageModelV4GenerateResult['warnings'];
  /** Milliseconds to wait before answering (default: the judge's `delayMs`); Infinity waits until the call is aborted. */
  delayMs?: number;
  /** Keep waiting when the call is aborted, like a provider that ignores its abort signal. */
  ignoreAbort?: boolean;
};

export type MockJudgeUsage = { inputTokens?: number; outputTokens?: number };

const replyMarker = Symbol('scorestream.mockJudgeReply');

/** One answer with its own usage, finish reason or delay; see judgeReply(). */
export type MockJudgeReply = {
  readonly [replyMarker]: true;
  readonly answer: Exclude<MockJudgeAnswer, MockJudgeReply>;
  readonly options: MockJudgeReplyOptions;
};

/**
 * What the judge does on one call: a string is answered as text, an Error is thrown (see
 * providerError), a judgeReply(...) is played as described, anything else is answered as JSON.
 */
export type MockJudgeAnswer = string | Error | MockJudgeReply | object | number | boolean | null;

/** A call the judge received. */
export type MockJudgeCall = {
  /** 0 for the first call. */
  index: number;
  /** The system prompt (the judge's instructions). */
  system: string;
  /** The text of the user turn (the step's prompt). */
  user: string;
  /** Everything the AI SDK passed, e.g. `responseFormat`, `temperature`, `abortSignal`. */
  options: LanguageModelV4CallOptions;
};

/** Waits `delayMs`; rejects with the signal's reason when it aborts first. */
export type MockJudgeSleep = (delayMs: number, signal: AbortSignal | undefined) => Promise<void>;

export type MockJudgeOptions = {
  /** Default 'mock-judge'. */
  modelId?: string;
  /** Default 'mock-provider'. */
  provider?: string;
  /** The answer to every call, or a function of the call (which may be async). */
  answer?: MockJudgeAnswer | ((call: MockJudgeCall) => MockJudgeAnswer | PromiseLike<MockJudgeAnswer>);
  /** One answer per call, in order. A call past the end fails, naming how many were scripted. */
  answers?: readonly MockJudgeAnswer[];
  /** Milliseconds every call waits before answering (or failing); Infinity waits until aborted. Default 0. */
  delayMs?: number;
  /** Token counts of every answer that does not set its own. Default 10 in, 5 out. */
  usage?: MockJudgeUsage;
  /** The timer behind delays. Default: `setTimeout`, so `vi.useFakeTimers()` controls it too. */
  sleep?: MockJudgeSleep;
};

export type MockJudge = MockLanguageModelV4 & {
  /** Every call so far, in the order they arrived. */
  readonly calls: readonly MockJudgeCall[];
  /** Calls started and not yet answered. */
  readonly activeCalls: number;
  /** The most calls that were ever active at once. */
  readonly maxActiveCalls: number;
};

/** An answer with its own usage, finish reason, response metadata or delay. */
export function judgeReply(answer: Exclude<MockJudgeAnswer, MockJudgeReply>, options: MockJudgeReplyOptions = {}): MockJudgeReply {
  return { [replyMarker]: true, answer, options };
}

export type ProviderErrorOptions = {
  /** Sent as the `retry-after-ms` header, which the AI SDK's retries honour. */
  retryAfterMs?: number;
  /** Sent as the `retry-after` header (seconds). */
  retryAfterSeconds?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Default: what the AI SDK decides from the status (408, 409, 429 and 5xx are retryable). */
  isRetryable?: boolean;
};

/** The error a provider's HTTP API raises with `statusCode`, e.g. 429 (rate limited) or 500. */
export function providerError(statusCode: number, options: ProviderErrorOptions = {}): APICallError {
  return new APICallError({
    message: statusCode === 429 ? 'Too many requests' : `Provider answered ${statusCode}`,
    url: 'https://judge.example/v1/chat/completions',
    requestBodyValues: {},
    statusCode,
    responseHeaders: {
      ...(options.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(options.retryAfterMs) }),
      ...(options.retryAfterSeconds === undefined ? {} : { 'retry-after': String(options.retryAfterSeconds) }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { responseBody: options.body }),
    ...(options.isRetryable === undefined ? {} : { isRetryable: options.isRetryable }),
  });
}

/** A judge model that answers from a script and records its calls; see the examples at the top of this file. */
export function mockJudge(options: MockJudgeOptions = {}): MockJudge {
  if (options.answer !== undefined && options.answers !== undefined) {
    throw new TypeError('mockJudge: give either `answer` (every call) or `answers` (one per call), not both');
  }
  const sleep = options.sleep ?? sleepWithTimers;
  const calls: MockJudgeCall[] = [];
  let activeCalls = 0;
  let maxActiveCalls = 0;
  const model = new MockLanguageModelV4({
    modelId: options.modelId ?? 'mock-judge',
    provider: options.provider ?? 'mock-provider',
    doGenerate: async (callOptions) => {
      const call: MockJudgeCall = { index: calls.length, ...promptTexts(callOptions), options: callOptions };
      calls.push(call);
      activeCalls += 1;
      maxActiveCalls = Math.max(maxActiveCalls, activeCalls);
      try {
        const scripted = await answerFor(call, options);
        const { answer, options: reply } = isReply(scripted) ? scripted : { answer: scripted, options: {} as MockJudgeReplyOptions };
        await wait(reply.delayMs ?? options.delayMs ?? 0, reply.ignoreAbort === true, callOptions.abortSignal, sleep);
        if (answer instanceof Error) throw answer;
        return result(answer, reply, options.usage);
      } finally {
        activeCalls -= 1;
      }
    },
  });
  return Object.defineProperties(model, {
    calls: { get: () => calls, enumerable: true },
    activeCalls: { get: () => activeCalls, enumerable: true },
    maxActiveCalls: { get: () => maxActiveCalls, enumerable: true },
  }) as MockJudge;
}

async function answerFor(call: MockJudgeCall, options: MockJudgeOptions): Promise<MockJudgeAnswer> {
  if (options.answers !== undefined) {
    if (call.index < options.answers.length) return options.answers[call.index]!;
    throw new Error(`mockJudge: call ${call.index + 1} arrived but only ${options.answers.length} answer(s) were scripted`);
  }
  if (typeof options.answer === 'function') return options.answer(call);
  if (options.answer === undefined) throw new Error('mockJudge: called, but no answer was scripted');
  return options.answer;
}

function isReply(answer: MockJudgeAnswer): answer is MockJudgeReply {
  return typeof answer === 'object' && answer !== null && replyMarker in answer;
}

async function wait(delayMs: number, ignoreAbort: boolean, signal: AbortSignal | undefined, sleep: MockJudgeSleep): Promise<void> {
  if (delayMs <= 0) return;
  if (ignoreAbort) {
    if (delayMs === Infinity) return new Promise<never>(() => {});
    return sleep(delayMs, undefined);
  }
  if (delayMs === Infinity) return untilAborted(signal);
  return sleep(delayMs, signal);
}

function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal?.aborted) reject(signal.reason);
    else signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** The default timer: global setTimeout, cleared when the signal aborts. */
function sleepWithTimers(delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function result(answer: unknown, reply: MockJudgeReplyOptions, judgeUsage: MockJudgeUsage | undefined): LanguageModelV4GenerateResult {
  const text = typeof answer === 'string' ? answer : JSON.stringify(answer);
  const usage = reply.usage ?? judgeUsage ?? {};
  const finishReason = reply.finishReason ?? 'stop';
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: finishReason, raw: finishReason },
    usage: {
      inputTokens: { total: usage.inputTokens ?? 10, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: usage.outputTokens ?? 5, text: undefined, reasoning: undefined },
      ...(reply.rawUsage === undefined ? {} : { raw: reply.rawUsage }),
    },
    warnings: reply.warnings ?? [],
    ...(reply.response === undefined ? {} : { response: reply.response }),
    ...(reply.request === undefined ? {} : { request: reply.request }),
  };
}

/** The system prompt and the user turn's text of a call. */
function promptTexts(options: LanguageModelV4CallOptions): { system: string; user: string } {
  let system = '';
  let user = '';
  for (const message of options.prompt) {
    if (message.role === 'system') system += message.content;
    if (message.role === 'user') {
      for (const part of message.content) if (part.type === 'text') user += part.text;
    }
  }
  return { system, user };
}
