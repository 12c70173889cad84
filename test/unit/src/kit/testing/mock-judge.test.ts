import { APICallError, generateText, RetryError } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { judgeReply, mockJudge, providerError } from '../../../../../src/kit/testing/mock-judge.ts';
import type { MockJudge, MockJudgeSleep } from '../../../../../src/kit/testing/mock-judge.ts';

const ask = (model: MockJudge, prompt = 'Rate it.', options: { abortSignal?: AbortSignal; maxRetries?: number } = {}) =>
  generateText({ model, system: 'You grade answers.', prompt, maxRetries: 0, ...options });

/** Lets pending callbacks run: a few turns of the event loop (generateText awaits more than microtasks). */
const settle = async () => {
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
};

afterEach(() => {
  vi.useRealTimers();
});

describe('mockJudge answers', () => {
  it('gives every call the one answer: objects as JSON, strings as text, with 10 in / 5 out tokens', async () => {
    const judge = mockJudge({ answer: { score: 0.8 } });
    expect(judge).toMatchObject({ modelId: 'mock-judge', provider: 'mock-provider', specificationVersion: 'v4' });
    const first = await ask(judge);
    const second = await ask(judge);
    expect([first.text, second.text]).toEqual(['{"score":0.8}', '{"score":0.8}']);
    expect(first.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(first.finishReason).toBe('stop');
    expect((await ask(mockJudge({ answer: 'Because it is polite.' }))).text).toBe('Because it is polite.');
  });

  it('plays a list one answer per call, and fails a call past the end naming the count', async () => {
    const judge = mockJudge({ answers: [{ verdict: 'yes' }, 'It is.'] });
    expect((await ask(judge)).text).toBe('{"verdict":"yes"}');
    expect((await ask(judge)).text).toBe('It is.');
    await expect(ask(judge)).rejects.toThrow('mockJudge: call 3 arrived but only 2 answer(s) were scripted');
    await expect(ask(mockJudge())).rejects.toThrow('mockJudge: called, but no answer was scripted');
  });

  it('answers as a function of the call (its prompt texts and index), also asynchronously', async () => {
    const judge = mockJudge({
      answer: async ({ user, system, index }) => {
        await Promise.resolve();
        return { system, refund: user.includes('refund'), index };
      },
    });
    expect(JSON.parse((await ask(judge, 'A refund question')).text)).toEqual({ system: 'You grade answers.', refund: true, index: 0 });
    expect(JSON.parse((await ask(judge, 'Shipping')).text)).toEqual({ system: 'You grade answers.', refund: false, index: 1 });
  });

  it('takes usage, finish reason, response metadata and raw usage per answer or for the whole judge', async () => {
    const judge = mockJudge({
      usage: { inputTokens: 50, outputTokens: 6 },
      answers: [
        { score: 1 },
        judgeReply('', {
          finishReason: 'length',
          usage: { inputTokens: 7, outputTokens: 0 },
          rawUsage: { prompt_tokens: 7 },
          response: { id: 'resp-1', modelId: 'judge-2026', timestamp: new Date(0) },
        }),
      ],
    });
    expect((await ask(judge)).usage).toMatchObject({ inputTokens: 50, outputTokens: 6 });
    const truncated = await ask(judge);
    expect(truncated).toMatchObject({ text: '', finishReason: 'length', usage: { inputTokens: 7, outputTokens: 0 } });
    expect(truncated.usage.raw).toEqual({ prompt_tokens: 7 });
    expect(truncated.response).toMatchObject({ id: 'resp-1', modelId: 'judge-2026' });
  });

  it('refuses both `answer` and `answers`', () => {
    expect(() => mockJudge({ answer: 1, answers: [2] })).toThrow(TypeError);
  });
});

describe('mockJudge failures', () => {
  it('throws a scripted error; providerError builds the HTTP errors the AI SDK retries (honouring retry-after)', async () => {
    const judge = mockJudge({ answers: [providerError(429, { retryAfterMs: 1 }), { score: 1 }] });
    const answered = await ask(judge, 'Rate it.', { maxRetries: 1 });
    expect(answered.text).toBe('{"score":1}');
    expect(judge.calls).toHaveLength(2);

    const failing = mockJudge({ answer: providerError(500, { retryAfterMs: 1 }) });
    const error = await ask(failing, 'Rate it.', { maxRetries: 2 }).catch((thrown: unknown) => thrown);
    expect(RetryError.isInstance(error)).toBe(true);
    expect(failing.calls).toHaveLength(3);
  });

  it('gives providerError the status, retryability, message and headers of a real provider error', () => {
    const limited = providerError(429, { retryAfterMs: 250, retryAfterSeconds: 1, headers: { 'x-request-id': 'r1' }, body: '{"error":"slow down"}' });
    expect(APICallError.isInstance(limited)).toBe(true);
    expect(limited).toMatchObject({ statusCode: 429, isRetryable: true, message: 'Too many requests', responseBody: '{"error":"slow down"}' });
    expect(limited.responseHeaders).toEqual({ 'retry-after-ms': '250', 'retry-after': '1', 'x-request-id': 'r1' });
    expect(providerError(500)).toMatchObject({ statusCode: 500, isRetryable: true, message: 'Provider answered 500' });
    expect(providerError(401).isRetryable).toBe(false);
    expect(providerError(503, { isRetryable: false }).isRetryable).toBe(false);
  });

  it('fails a scorer step the way a provider error does', async () => {
    const judge = mockJudge({ answer: providerError(401) });
    const scorer = createScorer({ id: 'judged', description: 'd', judge: { model: judge, instructions: 'Grade.' } }).generateScore({
      description: 'Score it',
      createPrompt: () => 'Score this answer',
    });
    await expect(scorer.run({ output: 'o' })).rejects.toMatchObject({ failedStep: 'generateScore', cause: { statusCode: 401 } });
    expect(judge.calls.map((call) => [call.system, call.user])).toEqual([['Grade.', 'Score this answer']]);
  });
});

describe('mockJudge delays', () => {
  it('waits through the injected timer, with the call’s abort signal, before answering or failing', async () => {
    const waits: [number, AbortSignal | undefined][] = [];
    const sleep: MockJudgeSleep = async (delayMs, signal) => {
      waits.push([delayMs, signal]);
    };
    const judge = mockJudge({ answers: [{ score: 1 }, judgeReply({ score: 0 }, { delayMs: 5 }), providerError(500)], delayMs: 40, sleep });
    await ask(judge);
    await ask(judge);
    await expect(ask(judge)).rejects.toThrow('Provider answered 500');
    expect(waits.map(([delayMs]) => delayMs)).toEqual([40, 5, 40]);
    expect(waits[0]![1]).toBe(judge.calls[0]!.options.abortSignal);
  });

  it('uses setTimeout by default, so fake timers drive it, and clears the timer when the call is aborted', async () => {
    vi.useFakeTimers();
    const judge = mockJudge({ answer: { score: 1 }, delayMs: 1_000 });
    let answer: string | undefined;
    void ask(judge).then((result) => (answer = result.text));
    await vi.advanceTimersByTimeAsync(999);
    expect(answer).toBeUndefined();
    expect(judge.activeCalls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toBe('{"score":1}');
    expect(judge.activeCalls).toBe(0);

    const controller = new AbortController();
    const aborted = ask(judge, 'Rate it.', { abortSignal: controller.signal }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    expect(vi.getTimerCount()).toBe(1);
    controller.abort(new Error('shutting down'));
    expect(await aborted).toMatchObject({ message: 'shutting down' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('hangs until aborted with delayMs Infinity, and past the abort with ignoreAbort', async () => {
    const hanging = mockJudge({ answer: { score: 1 }, delayMs: Infinity });
    const controller = new AbortController();
    const aborted = ask(hanging, 'Rate it.', { abortSignal: controller.signal }).catch((error: unknown) => error);
    await settle();
    expect(hanging.activeCalls).toBe(1);
    controller.abort(new Error('timed out'));
    expect(await aborted).toMatchObject({ message: 'timed out' });

    const stubborn = mockJudge({ answer: judgeReply({ score: 1 }, { delayMs: Infinity, ignoreAbort: true }) });
    const ignoring = new AbortController();
    let settled = false;
    void Promise.resolve(stubborn.doGenerate({ prompt: [], abortSignal: ignoring.signal })).finally(() => (settled = true));
    ignoring.abort(new Error('stop'));
    await settle();
    expect(settled).toBe(false);
    expect(stubborn.activeCalls).toBe(1);
  });

  it('counts the calls active at once', async () => {
    const gates: (() => void)[] = [];
    const judge = mockJudge({ answer: () => new Promise((resolve) => gates.push(() => resolve({ score: 1 }))) });
    const running = [ask(judge), ask(judge), ask(judge)];
    await settle();
    expect(judge.activeCalls).toBe(3);
    gates.shift()!();
    await running[0];
    expect(judge.activeCalls).toBe(2);
    for (const open of gates) open();
    await Promise.all(running);
    expect(judge.activeCalls).toBe(0);
    expect(judge.maxActiveCalls).toBe(3);
  });
});
