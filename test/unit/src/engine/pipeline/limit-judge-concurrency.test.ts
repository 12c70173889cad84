// Judge concurrency caps: at most N calls in flight per model id, waiting calls served in
// arrival order, models independent. Calls are mock judge calls that wait on gates the test
// opens, so "in flight" is exact and no timing is involved.
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { generateText } from 'ai';
import { describe, expect, it } from 'vitest';
import { CallLimiter } from '../../../../../src/kit/call-limiter.ts';
import { limitJudgeConcurrency } from '../../../../../src/engine/pipeline/limit-judge-concurrency.ts';
import { JudgeTimeoutError } from '../../../../../src/kit/judge/judge-errors.ts';
import { slotWaitScope } from '../../../../../src/kit/judge/slot-wait.ts';
import type { SlotWaitTally } from '../../../../../src/kit/judge/slot-wait.ts';
import { judgeReply, mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import type { MockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import { deferred } from './fixtures.ts';

/** A call whose user turn is `label`; the gated models below name their calls by it. */
const callOptions = (label: string): LanguageModelV4CallOptions => ({ prompt: [{ role: 'user', content: [{ type: 'text', text: label }] }] });

/** Models whose calls wait until the test opens their gate; counts what is in flight. */
function gatedModels() {
  const inFlight = new Map<string, number>();
  const peak = new Map<string, number>();
  const started: string[] = [];
  const gates = new Map<string, ReturnType<typeof deferred<void>>>();
  // Counted per provider and id, not per object: a registry hands out a new object per lookup.
  const model = (modelId: string, provider = 'mock-provider') =>
    mockJudge({
      modelId,
      provider,
      answer: async ({ user: label }) => {
        const key = `${provider}:${modelId}`;
        started.push(label);
        inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
        peak.set(key, Math.max(peak.get(key) ?? 0, inFlight.get(key)!));
        const gate = deferred();
        gates.set(label, gate);
        try {
          await gate.promise;
        } finally {
          inFlight.set(key, inFlight.get(key)! - 1);
        }
        return { score: 1 };
      },
    });
  const open = async (label: string) => {
    const gate = gates.get(label);
    if (gate === undefined) throw new Error(`call ${label} has not started`);
    gate.resolve();
    await settle();
  };
  return { model, started, inFlight, peak, open };
}

/** Lets pending callbacks run: a few turns of the event loop (generateText awaits more than microtasks). */
const settle = async () => {
  for (let index = 0; index < 5; index += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('CallLimiter', () => {
  it('runs at most `limit` calls at once and hands each freed slot to the longest-waiting call', async () => {
    const limiter = new CallLimiter(2);
    const gates = [deferred(), deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const results = gates.map((gate, index) =>
      limiter.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect([limiter.activeCalls, limiter.queuedCalls]).toEqual([2, 3]);

    gates[1]!.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    expect([limiter.activeCalls, limiter.queuedCalls]).toEqual([2, 1]);

    for (const gate of gates) gate.resolve();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4]);
    expect([limiter.activeCalls, limiter.queuedCalls]).toEqual([0, 0]);
  });

  it('frees the slot of a call that rejects or throws synchronously, and passes the error on', async () => {
    const limiter = new CallLimiter(1);
    const failure = new Error('429');
    await expect(limiter.run(() => Promise.reject(failure))).rejects.toBe(failure);
    await expect(
      limiter.run(() => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(limiter.activeCalls).toBe(0);
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
  });
});

describe('limitJudgeConcurrency', () => {
  it('never lets more than N calls per model id reach the model, serving waiting calls first come first served', async () => {
    const { model, started, inFlight, peak, open } = gatedModels();
    const judge = model('judge-a');
    const models = limitJudgeConcurrency({ languageModel: () => judge }, 2);
    const limited = models.languageModel('judge-a') as LanguageModelV4;
    const calls = ['c1', 'c2', 'c3', 'c4', 'c5'].map((label) => limited.doGenerate(callOptions(label)));
    await settle();
    expect(started).toEqual(['c1', 'c2']);

    await open('c2');
    expect(started).toEqual(['c1', 'c2', 'c3']);
    await open('c1');
    expect(started).toEqual(['c1', 'c2', 'c3', 'c4']);
    await open('c3');
    await open('c4');
    await open('c5');
    await Promise.all(calls);
    expect(peak.get('mock-provider:judge-a')).toBe(2);
    expect(inFlight.get('mock-provider:judge-a')).toBe(0);
    expect(judge.calls).toHaveLength(5);
  });

  it("puts other models' calls (a classifier's decision model) under the cap of the same provider and id", async () => {
    const { model, started, peak, open } = gatedModels();
    const models = limitJudgeConcurrency({ languageModel: () => model('judge-a') }, 1);
    const judged = (models.languageModel('judge-a') as LanguageModelV4).doGenerate(callOptions('judge'));
    await settle();
    let decided = false;
    const decision = models.run({ provider: 'mock-provider', modelId: 'judge-a' }, async () => {
      decided = true;
      return 'answers';
    });
    await settle();
    expect(started).toEqual(['judge']);
    expect(decided).toBe(false); // waits for the judge call's slot
    await open('judge');
    await judged;
    await expect(decision).resolves.toBe('answers');
    expect(peak.get('mock-provider:judge-a')).toBe(1);
    expect(models.limiters.get('mock-provider:judge-a')!.activeCalls).toBe(0);
  });

  it('caps each model id independently', async () => {
    const { model, started, peak, open } = gatedModels();
    const byId: Record<string, MockJudge> = { 'judge-a': model('judge-a'), 'judge-b': model('judge-b') };
    const models = limitJudgeConcurrency({ languageModel: (id) => byId[id]! }, 1);
    const a = models.languageModel('judge-a') as LanguageModelV4;
    const b = models.languageModel('judge-b') as LanguageModelV4;
    const calls = [a.doGenerate(callOptions('a1')), a.doGenerate(callOptions('a2')), b.doGenerate(callOptions('b1')), b.doGenerate(callOptions('b2'))];
    await settle();
    // judge-a being full does not hold judge-b back.
    expect(started).toEqual(['a1', 'b1']);
    await open('b1');
    expect(started).toEqual(['a1', 'b1', 'b2']);
    await open('a1');
    await open('a2');
    await open('b2');
    await Promise.all(calls);
    expect(peak.get('mock-provider:judge-a')).toBe(1);
    expect(peak.get('mock-provider:judge-b')).toBe(1);
    expect([...models.limiters.keys()].sort()).toEqual(['mock-provider:judge-a', 'mock-provider:judge-b']);
  });

  it('shares one cap between every model object of the same id (a registry hands out new objects)', async () => {
    const { model, started, peak, open } = gatedModels();
    const models = limitJudgeConcurrency({ languageModel: (id) => model(id) }, 1);
    const first = models.languageModel('judge-a') as LanguageModelV4;
    const second = models.languageModel('judge-a') as LanguageModelV4;
    const direct = models.limit(model('judge-a')) as LanguageModelV4;
    const calls = [first.doGenerate(callOptions('x1')), second.doGenerate(callOptions('x2')), direct.doGenerate(callOptions('x3'))];
    await settle();
    expect(started).toEqual(['x1']);
    await open('x1');
    await open('x2');
    await open('x3');
    await Promise.all(calls);
    expect(peak.get('mock-provider:judge-a')).toBe(1);
    expect(models.limiters.size).toBe(1);
  });

  it('keeps the same id under different providers apart', async () => {
    const { model, started } = gatedModels();
    const models = limitJudgeConcurrency(undefined, 1);
    const openai = models.limit(model('gpt-4o-mini', 'openai')) as LanguageModelV4;
    const azure = models.limit(model('gpt-4o-mini', 'azure')) as LanguageModelV4;
    void openai.doGenerate(callOptions('o1'));
    void azure.doGenerate(callOptions('z1'));
    await settle();
    expect(started).toEqual(['o1', 'z1']);
  });

  it('wraps a model object once and keeps its identity', () => {
    const models = limitJudgeConcurrency(undefined, 3);
    const judge = mockJudge({ modelId: 'judge-a' });
    const limited = models.limit(judge) as LanguageModelV4;
    expect(models.limit(judge)).toBe(limited);
    expect(limited.modelId).toBe('judge-a');
    expect(limited.provider).toBe(judge.provider);
  });

  it('limits calls made through generateText, and passes the answers through', async () => {
    const { model, started, peak, open } = gatedModels();
    const models = limitJudgeConcurrency({ languageModel: (id) => model(id) }, 2);
    const limited = models.languageModel('judge-a');
    const texts = ['g1', 'g2', 'g3'].map((label) => generateText({ model: limited, prompt: label, maxRetries: 0 }));
    await settle();
    expect(started).toEqual(['g1', 'g2']);
    await open('g1');
    await open('g2');
    await open('g3');
    const results = await Promise.all(texts);
    expect(results.map((result) => result.text)).toEqual(['{"score":1}', '{"score":1}', '{"score":1}']);
    expect(peak.get('mock-provider:judge-a')).toBe(2);
  });

  it('explains that a string model id needs a resolver', () => {
    expect(() => limitJudgeConcurrency(undefined, 2).languageModel('openai:gpt-4o-mini')).toThrow("no judge model resolver is configured, so 'openai:gpt-4o-mini' cannot be resolved");
  });
});

describe('limitJudgeConcurrency: per-request timeout and slot waits', () => {
  it('aborts a hung request after callTimeoutMs inside its slot, frees the slot, and the SDK retries it like a 5xx', async () => {
    // The first request hangs (until aborted); the retry answers. One slot: the retry can only
    // run because the hung request gave its slot back.
    const judge = mockJudge({ modelId: 'judge-a', answers: [judgeReply({ score: 0 }, { delayMs: Infinity }), { score: 1 }] });
    const models = limitJudgeConcurrency({ languageModel: () => judge }, 1, { callTimeoutMs: 20 });
    const result = await generateText({ model: models.languageModel('judge-a'), prompt: 'rate it', maxRetries: 1 });
    expect(result.text).toBe('{"score":1}');
    expect(judge.calls).toHaveLength(2);
    expect(judge.calls[0]!.options.abortSignal?.aborted).toBe(true);
    expect(judge.calls[0]!.options.abortSignal?.reason).toBeInstanceOf(JudgeTimeoutError);
    expect(models.limiters.get('mock-provider:judge-a')!.activeCalls).toBe(0);
  });

  it('fails with a JudgeTimeoutError naming judge.callTimeoutMs when every attempt hangs', async () => {
    const judge = mockJudge({ modelId: 'judge-a', answer: judgeReply({ score: 0 }, { delayMs: Infinity }) });
    const models = limitJudgeConcurrency({ languageModel: () => judge }, 1, { callTimeoutMs: 10 });
    const failure = await generateText({ model: models.languageModel('judge-a'), prompt: 'rate it', maxRetries: 1 }).catch((error: unknown) => error);
    expect(judge.calls).toHaveLength(2);
    const last = (failure as { lastError?: unknown }).lastError;
    expect(JudgeTimeoutError.isInstance(last)).toBe(true);
    expect((last as Error).message).toContain('judge.callTimeoutMs');
  });

  it('without callTimeoutMs, bounds a request by a quarter of the scorer deadline its judge call declared, at most the default', async () => {
    const judge = mockJudge({ modelId: 'judge-a', answer: judgeReply({ score: 0 }, { delayMs: Infinity }) });
    const models = limitJudgeConcurrency({ languageModel: () => judge }, 1, { defaultCallTimeoutMs: 60_000 });
    const model = models.languageModel('judge-a') as LanguageModelV4;
    // A 40 ms deadline: the request is aborted after 10 ms, far below the 60 s default.
    const failure = await slotWaitScope({ queuedMs: undefined, scorerTimeoutMs: 40 }, async () => model.doGenerate(callOptions('x'))).catch((error: unknown) => error);
    expect(JudgeTimeoutError.isInstance(failure)).toBe(true);
    expect((failure as JudgeTimeoutError).timeoutMs).toBe(10);
    expect((failure as Error).message).toContain("a quarter of the binding's timeoutMs");
    // An explicit callTimeoutMs wins over the deadline.
    const explicit = limitJudgeConcurrency({ languageModel: () => judge }, 1, { callTimeoutMs: 15, defaultCallTimeoutMs: 60_000 });
    const explicitFailure = await slotWaitScope({ queuedMs: undefined, scorerTimeoutMs: 40_000 }, async () => (explicit.languageModel('judge-a') as LanguageModelV4).doGenerate(callOptions('y'))).catch((error: unknown) => error);
    expect((explicitFailure as JudgeTimeoutError).timeoutMs).toBe(15);
  });

  it('reports each call’s wait for a slot: 0 when one is free, the queued time otherwise, to onSlotWait and the enclosing scope', async () => {
    const { model, open } = gatedModels();
    const waits: Array<{ key: string; waitedMs: number }> = [];
    const models = limitJudgeConcurrency({ languageModel: () => model('judge-a') }, 1, {
      onSlotWait: (identity, waitedMs) => waits.push({ key: `${identity.provider}:${identity.modelId}`, waitedMs }),
    });
    const limited = models.languageModel('judge-a') as LanguageModelV4;
    const first = limited.doGenerate(callOptions('first'));
    await settle();
    const tally: SlotWaitTally = { queuedMs: undefined };
    const second = slotWaitScope(tally, async () => limited.doGenerate(callOptions('second')));
    await settle();
    await new Promise((resolve) => setTimeout(resolve, 15));
    await open('first');
    await open('second');
    await Promise.all([first, second]);
    expect(waits.map((wait) => wait.key)).toEqual(['mock-provider:judge-a', 'mock-provider:judge-a']);
    expect(waits[0]!.waitedMs).toBe(0);
    expect(waits[1]!.waitedMs).toBeGreaterThan(0);
    expect(tally.queuedMs).toBe(waits[1]!.waitedMs);
  });
});
