// The batch tier's seam (docs/spend-and-replay.md, "The batch tier"): a judge whose provider has
// the batch fetch defers each call it has no answer for, capturing the body the live call would
// have sent; the provider's batch API (OpenAI's Batch API, Anthropic's Message Batches, on the
// repo's mock batch server) answers those bodies; fed back through the same fetch, the same
// provider code reads them as live responses, and the scorer reaches the very score, verdict and
// reason the live call gives — one batch round per judge step. Real AI SDK providers
// (@ai-sdk/openai-compatible, @ai-sdk/anthropic) over real HTTP.
import { createAnthropic } from '@ai-sdk/anthropic';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBatchFetch } from '../../../../../src/engine/judge-batch/batch-fetch.ts';
import type { BatchAnswer } from '../../../../../src/engine/judge-batch/batch-request.ts';
import type { BatchProvider } from '../../../../../src/engine/judge-batch/batch-provider.ts';
import { createAnthropicBatches } from '../../../../../src/engine/judge-batch/anthropic-batches.ts';
import { createOpenAIBatches } from '../../../../../src/engine/judge-batch/openai-batches.ts';
import { JudgeDeferredToBatchError } from '../../../../../src/engine/judge-batch/judge-batch-errors.ts';
import { waitForBatch } from '../../../../../src/engine/judge-batch/wait-for-batch.ts';
import { createOpenAICompatibleJudgeProvider } from '../../../../../src/kit/judge/openai-compatible.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import type { JudgeModel } from '../../../../../src/kit/judge/types.ts';
import { startAnthropicJudgeServer } from '../../../../helpers/anthropic-judge-server.ts';
import type { AnthropicJudgeServer } from '../../../../helpers/anthropic-judge-server.ts';
import { startFaultJudgeServer } from '../../../../helpers/fault-judge-server.ts';
import type { FaultJudgeServer } from '../../../../helpers/fault-judge-server.ts';
import { startMockBatchServer } from '../../../../helpers/mock-batch-server.ts';
import type { MockBatchServer } from '../../../../helpers/mock-batch-server.ts';

let live: FaultJudgeServer;
let liveAnthropic: AnthropicJudgeServer;
let batches: MockBatchServer;
beforeAll(async () => {
  [live, liveAnthropic, batches] = await Promise.all([startFaultJudgeServer('ok'), startAnthropicJudgeServer(), startMockBatchServer({ completeAfterMs: 30 })]);
});
afterAll(async () => {
  await Promise.all([live.close(), liveAnthropic.close(), batches.close()]);
});

/** Two judge steps: a verdict, then a reason. */
function verdictScorer(model: JudgeModel) {
  return createScorer({ id: 'politeness', description: 'Is the answer polite?', judge: { model, instructions: 'You judge support answers.', modelSettings: { maxRetries: 0, maxOutputTokens: 400 } } })
    .analyze({ description: 'Decide', outputSchema: z.object({ verdict: z.enum(['yes', 'no']) }), createPrompt: ({ run }) => `Is this answer polite? ${String(run.output)}` })
    .generateScore(({ results }) => (results.analyzeStepResult.verdict === 'yes' ? 1 : 0))
    .generateReason({ description: 'Explain', createPrompt: ({ score }) => `Explain the score ${String(score)} in one sentence.` });
}

/** The deferral in an error's cause chain. */
function deferralOf(error: unknown): JudgeDeferredToBatchError | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; current = (current as { cause?: unknown }).cause, depth++) {
    if (JudgeDeferredToBatchError.isInstance(current)) return current;
  }
  return undefined;
}

/** Scores the run with every judge call answered by batches: each deferral submitted, waited for, and its answer kept; then runs again. */
async function scoreThroughBatches(model: (fetch: typeof globalThis.fetch) => JudgeModel, provider: BatchProvider, baseURL: string) {
  const answers = new Map<string, BatchAnswer>();
  const fetch = createBatchFetch({ baseURL, answerOf: (request) => answers.get(request.customId) });
  const scorer = verdictScorer(model(fetch));
  const deferred: string[] = [];
  for (let round = 0; round < 5; round++) {
    try {
      return { result: await scorer.run({ runId: 'run-1', output: 'Thank you for waiting, your parcel left today.' }), deferred };
    } catch (error) {
      const deferral = deferralOf(error);
      if (deferral === undefined) throw error;
      deferred.push(deferral.request.customId);
      const submitted = await provider.submit([deferral.request]);
      await waitForBatch(provider, submitted.id, { backoff: { firstDelayMs: 10, maxDelayMs: 50 }, wait: (ms) => sleep(ms) });
      for (const [customId, answer] of await provider.answers(submitted.id)) answers.set(customId, answer);
    }
  }
  throw new Error('more rounds than the scorer has judge steps');
}

describe('the batch tier, from the judge to the batch API and back', () => {
  it('OpenAI Batch API: the score, verdict and reason a live call gives, one round per judge step, each request submitted once', async () => {
    const liveScorer = verdictScorer(createOpenAICompatibleJudgeProvider({ baseURL: live.baseURL }).languageModel('judge-7b'));
    const liveResult = await liveScorer.run({ runId: 'run-1', output: 'Thank you for waiting, your parcel left today.' });
    const provider = createOpenAIBatches({ baseURL: batches.baseURL, apiKey: 'sk-test' });
    const { result, deferred } = await scoreThroughBatches((fetch) => createOpenAICompatibleJudgeProvider({ baseURL: batches.baseURL, fetch }).languageModel('judge-7b'), provider, batches.baseURL);
    expect(deferred).toHaveLength(2);
    expect(result.score).toBe(liveResult.score);
    expect(result.analyzeStepResult).toEqual(liveResult.analyzeStepResult);
    expect(result.reason).toBe(liveResult.reason);
    // The batch lines carried the very bodies the live server received.
    expect(batches.batches.slice(-2).map((batch) => batch.bodies)).toEqual(live.bodies.slice(-2).map((body) => [body]));
    for (const customId of deferred) expect(batches.submissions.get(customId)).toBe(1);
  });

  it('Anthropic Message Batches: the same through @ai-sdk/anthropic', async () => {
    const liveScorer = verdictScorer(createAnthropic({ baseURL: liveAnthropic.baseURL, apiKey: 'k' })('claude-judge'));
    const liveResult = await liveScorer.run({ runId: 'run-1', output: 'Thank you for waiting, your parcel left today.' });
    const provider = createAnthropicBatches({ baseURL: batches.baseURL, apiKey: 'k' });
    const { result, deferred } = await scoreThroughBatches((fetch) => createAnthropic({ baseURL: batches.baseURL, apiKey: 'k', fetch })('claude-judge'), provider, batches.baseURL);
    expect(deferred).toHaveLength(2);
    expect(result.score).toBe(liveResult.score);
    expect(result.analyzeStepResult).toEqual(liveResult.analyzeStepResult);
    expect(result.reason).toBe(liveResult.reason);
    expect(batches.batches.slice(-2).map((batch) => batch.bodies)).toEqual(liveAnthropic.bodies.slice(-2).map((body) => [body]));
    expect(batches.batches.slice(-2).every((batch) => batch.shape === 'anthropic')).toBe(true);
  });
});
