// What a judge call costs, through the real provider path (docs/spend-and-replay.md, prices): a
// fault-injecting OpenAI-compatible server reports usage the way OpenAI does, with prompt-cache
// reads in `prompt_tokens_details.cached_tokens`; the service reads it through the AI SDK's
// OpenAI-compatible provider, prices it with the price table — cached input at its cache rate —
// and the record's judge evidence, the cost metric and a cost budget agree with the hand-computed
// figure. A model the table has no price for is `unpriced`: its usage kept, no cost guessed.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createOpenAICompatibleJudgeProvider } from '../../../src/kit/judge/openai-compatible.ts';
import { judgeScorer } from '../../fixtures/scorers.ts';
import { startFaultJudgeServer } from '../../helpers/fault-judge-server.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { installTestTelemetry, metricValue } from '../../helpers/spans.ts';
import type { TelemetryCapture } from '../../helpers/spans.ts';

let capture: TelemetryCapture;
beforeAll(async () => {
  capture = await installTestTelemetry();
});
afterAll(async () => {
  await capture.uninstall();
});

/** OpenAI's shape: 2,000 prompt tokens of which 1,536 were read from the prompt cache, 100 out. */
const cachedUsage = { prompt_tokens: 2000, completion_tokens: 100, total_tokens: 2100, prompt_tokens_details: { cached_tokens: 1536 } };
// gpt-4o-mini at 0.15 / 0.075 cached / 0.60 per million: 464 × 0.15 + 1,536 × 0.075 + 100 × 0.60 = 244.8 per million.
const perCall = 0.0002448;

describe('judge prices through an OpenAI-compatible server', () => {
  it("prices cached input at the cache rate in the record, the cost metric and a cost budget; a model without a price is unpriced", async () => {
    const server = await startFaultJudgeServer('ok', { usage: cachedUsage });
    onTestFinished(() => server.close());
    const provider = createOpenAICompatibleJudgeProvider({ baseURL: server.baseURL });
    const topics = await useServiceTopics(1);
    const runIds = ['price-1', 'price-2', 'price-3'];
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    const service = await startTestService({
      topics,
      judge: { models: { languageModel: (id: string) => provider.languageModel(id) } },
      scorers: [{ scorer: judgeScorer('priced', 'gpt-4o-mini' as never) }, { scorer: judgeScorer('unpriced', 'house-judge-7b' as never) }],
      // A cost budget far from full: it books what each call cost, cached tokens at their price.
      budgets: [{ name: 'judge-spend-per-day', of: 'cost' as const, max: 10, window: 'day' as const }],
    });
    const records = await readRecords<ScoreRecord>(topics.results, runIds.length * 2);
    expect(records.every((record) => record.status === 'scored')).toBe(true);

    for (const record of records.filter((candidate) => candidate.scorerId === 'priced')) {
      const execution = record.judge!.generateScore!.executions[0]!;
      expect(execution.usage).toMatchObject({ inputTokens: 2000, cachedInputTokens: 1536, outputTokens: 100 });
      expect(execution.cost).toEqual({ amount: perCall, unit: 'USD', source: 'price-table' });
      expect(execution).not.toHaveProperty('unpriced');
    }
    for (const record of records.filter((candidate) => candidate.scorerId === 'unpriced')) {
      const execution = record.judge!.generateScore!.executions[0]!;
      expect(execution.usage).toMatchObject({ inputTokens: 2000, cachedInputTokens: 1536 });
      expect(execution.unpriced).toBe(true);
      expect(execution).not.toHaveProperty('cost');
    }

    const metrics = await capture.collectMetrics();
    expect(metricValue(metrics, 'scorestream.judge.cost', { 'gen_ai.request.model': 'gpt-4o-mini' })).toBeCloseTo(perCall * runIds.length, 12);
    // By whom: the binding's scorer and the run's tenant; the tokens by type.
    expect(metricValue(metrics, 'scorestream.judge.cost', { 'scorestream.scorer.id': 'priced', 'scorestream.tenant.id': 'acme', 'scorestream.currency': 'USD' })).toBeCloseTo(perCall * runIds.length, 12);
    expect(metricValue(metrics, 'scorestream.judge.usage', { 'scorestream.scorer.id': 'priced', 'gen_ai.token.type': 'cached_input' })).toBe(1536 * runIds.length);
    expect(metricValue(metrics, 'scorestream.judge.usage', { 'scorestream.scorer.id': 'unpriced', 'gen_ai.token.type': 'input' })).toBe(2000 * runIds.length);
    expect(metricValue(metrics, 'scorestream.judge.cost', { 'gen_ai.request.model': 'house-judge-7b' })).toBe(0);
    expect(metricValue(metrics, 'scorestream.judge.unpriced', { 'gen_ai.request.model': 'house-judge-7b', 'scorestream.scorer.id': 'unpriced' })).toBe(runIds.length);
    // The budget booked the priced calls at their cost, the unpriced ones at nothing.
    expect(service.spend.ledger!.used('judge-spend-per-day')).toBeCloseTo(perCall * runIds.length, 12);
  });
});
