// A batch-mode binding's attempt (src/engine/judge-batch/batch-judge.ts) and its config: a judge
// call without an answer is deferred (the request captured), one with an answer is answered as
// live; each call answered fresh passes the run's gate once, at the batch rate, and a call an
// earlier round counted is priced for the record without passing it again; a judge given as a
// model object is refused with what to do. The config refuses batch mode without `judge.batch`
// and on a thread binding. The real OpenAI-compatible provider, no network: answers come from
// the batch fetch.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPriceTable } from '../../../../../src/engine/budget/prices.ts';
import { ConfigError } from '../../../../../src/engine/config/config-error.ts';
import { resolveConfig } from '../../../../../src/engine/config/resolve-config.ts';
import { createBatchJudge } from '../../../../../src/engine/judge-batch/batch-judge.ts';
import type { KeyedBatchAnswer } from '../../../../../src/engine/judge-batch/batch-judge.ts';
import { createOpenAICompatibleJudgeProvider } from '../../../../../src/kit/judge/openai-compatible.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import type { JudgeCallGate, MadeJudgeCall } from '../../../../../src/kit/scorer-services.ts';
import { chatCompletionFor } from '../../../../helpers/fault-judge-server.ts';
import type { OpenAIRequestBody } from '../../../../helpers/fault-judge-server.ts';

const baseURL = 'http://judge.invalid/v1';
const scorer = createScorer({ id: 'polite', description: 'Polite?', judge: { model: 'judge-7b', instructions: 'Judge.', modelSettings: { maxRetries: 0 } } })
  .analyze({ description: 'Decide', outputSchema: z.object({ verdict: z.enum(['yes', 'no']) }), createPrompt: ({ run }) => `Polite? ${String(run.output)}` })
  .generateScore(({ results }) => (results.analyzeStepResult.verdict === 'yes' ? 1 : 0));

const batchJudge = createBatchJudge({
  baseURL,
  models: (fetch) => ({ languageModel: (id) => createOpenAICompatibleJudgeProvider({ baseURL, fetch }).languageModel(id) }),
  priceRate: 0.5,
  prices: createPriceTable({ 'judge-7b': { inputPerMillion: 1_000, outputPerMillion: 2_000 } }),
});

/** A gate that records what passes it and prices like the service's at the rate it is told. */
function recordingGate() {
  const made: MadeJudgeCall[] = [];
  const gate: JudgeCallGate = { before: () => ({ after: (call) => (made.push(call), { amount: 1 * (call.priceRate ?? 1), unit: 'USD', source: 'price-table' }) }) };
  return { gate, made };
}

const run = { runId: 'r-1', output: 'Thank you for waiting.' };

describe('a batch-mode attempt', () => {
  it('defers a judge call without an answer, capturing the body the live call would send', async () => {
    const { gate, made } = recordingGate();
    const attempt = batchJudge.attempt([], new Set(), gate);
    await expect(scorer.run(run, attempt.services)).rejects.toThrow();
    const [request] = attempt.deferred();
    expect(request).toMatchObject({ path: '/chat/completions' });
    expect(JSON.parse(request!.body)).toMatchObject({ model: 'judge-7b' });
    expect(made).toEqual([]);
  });

  it('answers the call from its answer as live, passing the gate once at the batch rate; a call counted before is priced, not passed again', async () => {
    const first = batchJudge.attempt([], new Set(), recordingGate().gate);
    await expect(scorer.run(run, first.services)).rejects.toThrow();
    const request = first.deferred()[0]!;
    const answers: KeyedBatchAnswer[] = [{ customId: request.customId, status: 'succeeded', body: chatCompletionFor(JSON.parse(request.body) as OpenAIRequestBody) }];

    const fresh = recordingGate();
    const answered = batchJudge.attempt(answers, new Set(), fresh.gate);
    const result = await scorer.run(run, answered.services);
    expect(result.score).toBe(1);
    expect(answered.deferred()).toEqual([]);
    expect(fresh.made).toHaveLength(1);
    expect(fresh.made[0]!.priceRate).toBe(0.5);

    const again = recordingGate();
    const replayed = batchJudge.attempt(answers, new Set([request.customId]), again.gate);
    const replay = await scorer.run(run, replayed.services);
    expect(again.made).toEqual([]);
    // Still priced on the record, from the table at the batch rate.
    const cost = replay.judge?.analyze?.executions[0]?.cost;
    expect(cost).toMatchObject({ unit: 'USD' });
    expect(typeof cost === 'object' && cost.amount > 0).toBe(true);
  });

  it('a failed answer is met as the HTTP error a live call would have seen', async () => {
    const first = batchJudge.attempt([], new Set(), undefined);
    await expect(scorer.run(run, first.services)).rejects.toThrow();
    const request = first.deferred()[0]!;
    const failed = batchJudge.attempt([{ customId: request.customId, status: 'failed', statusCode: 500, error: 'server error' }], new Set(), undefined);
    await expect(scorer.run(run, failed.services)).rejects.toMatchObject({ cause: expect.anything() });
    expect(failed.deferred()).toEqual([]);
  });

  it("with liveOnFailure, a request its batch failed is made live at once, at the list price", async () => {
    const first = batchJudge.attempt([], new Set(), undefined);
    await expect(scorer.run(run, first.services)).rejects.toThrow();
    const request = first.deferred()[0]!;
    const sent: string[] = [];
    const live: typeof globalThis.fetch = async (input, init) => {
      sent.push(`${String(input)} ${String(init?.body).length}`);
      return Response.json(chatCompletionFor(JSON.parse(String(init?.body)) as OpenAIRequestBody));
    };
    const judge = createBatchJudge({ baseURL, models: (fetch) => ({ languageModel: (id) => createOpenAICompatibleJudgeProvider({ baseURL, fetch }).languageModel(id) }), priceRate: 0.5, prices: createPriceTable(), live });
    const { gate, made } = recordingGate();
    const attempt = judge.attempt([{ customId: request.customId, status: 'failed', statusCode: 500, error: 'server error' }], new Set(), gate, { liveOnFailure: true });
    expect((await scorer.run(run, attempt.services)).score).toBe(1);
    expect(sent).toEqual([`${baseURL}/chat/completions ${request.body.length}`]);
    expect(made).toHaveLength(1);
    expect(made[0]!.priceRate).toBeUndefined();
  });

  it('refuses a judge given as a model object, saying to name it by id', () => {
    const attempt = batchJudge.attempt([], new Set(), undefined);
    expect(() => attempt.services.prepareModel?.({} as never)).toThrow(/names its judge model by id/);
  });
});

describe('the config of batch mode', () => {
  const brokers = { kafka: { brokers: ['b:1'] } };
  const batch = { api: 'openai' as const, baseURL, models: () => ({ languageModel: () => ({}) as never }) };

  it("refuses judge mode 'batch' without judge.batch, naming the binding", () => {
    expect(() => resolveConfig({ ...brokers, scorers: [{ scorer, judge: { mode: 'batch' } }] })).toThrow(ConfigError);
    expect(() => resolveConfig({ ...brokers, scorers: [{ scorer, judge: { mode: 'batch' } }] })).toThrow(/scorers\[0\]\.judge\.mode.*judge\.batch/s);
  });

  it('refuses liveOnFailure outside batch mode', () => {
    expect(() => resolveConfig({ ...brokers, scorers: [{ scorer, judge: { mode: 'live', liveOnFailure: true } }] })).toThrow(/scorers\[0\]\.judge\.liveOnFailure.*mode 'batch'/s);
  });

  it('refuses batch mode on a thread binding', () => {
    expect(() => resolveConfig({ ...brokers, judge: { batch }, scorers: [{ scorer, level: 'thread', judge: { mode: 'batch' } }] })).toThrow(/thread binding.*judges live/s);
  });

  it('fills in the batch defaults, and the batch rate of the price table', () => {
    const config = resolveConfig({ ...brokers, judge: { batch }, scorers: [{ scorer, judge: { mode: 'batch' } }] });
    expect(config.judge?.batch).toMatchObject({ maxRequests: 10_000, maxWaitMs: 60_000, pollMs: 30_000, maxPendingPairs: 2_000 });
    expect(config.pricing.batchRate).toBe(0.5);
    expect(config.scorers[0]!.judge).toEqual({ mode: 'batch' });
  });
});
