// The service's judge services as start-service.ts builds them, through the real pipeline: a
// classifier's decision call and a prompt step's judge call are each priced and counted once,
// under the binding's scorer and the run's tenant — with budgets or without.
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { judgeServices } from '../../../service/judge-services.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { scoreRunEvent } from '../../../src/engine/pipeline/score-run-event.ts';
import { settleOutcomes } from '../../../src/engine/pipeline/scoring-outcome.ts';
import { Classifier } from '../../../src/kit/classifier/classifier.ts';
import { createClassifierScorer } from '../../../src/kit/classifier/classifier-scorer.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { CollectingMetricReader, metricValue } from '../../helpers/spans.ts';
import { runFacts } from '../src/engine/pipeline/fixtures.ts';
import { decisionResult, questions, scriptedDecisionModel } from '../src/kit/classifier/fixtures.ts';

async function servicesFor(budgets: unknown[], logger = pino({ level: 'silent' }), options: { unpricedJudge?: boolean } = {}) {
  const { model } = scriptedDecisionModel([1, 2, 3].map(() => decisionResult({ usage: { inputTokens: 500, outputTokens: 100 } })));
  const classifier = new Classifier({ id: 'quality', model, questions, retry: { sleep: async () => {} } });
  const tone = createClassifierScorer({ id: 'tone', classifier, question: 'tone', scores: { polite: 1, neutral: 0.5, rude: 0 }, state: () => 'x' });
  const judge = mockJudge({ answer: { good: true }, usage: { inputTokens: 1000, outputTokens: 200 } });
  const graded = createScorer({ id: 'graded', description: 'd', judge: { model: judge, instructions: 'You grade answers.' } }).analyze({ description: 'grade', outputSchema: z.object({ good: z.boolean() }), createPrompt: () => 'Is it good?' }).generateScore(() => 1);
  const config = resolveConfig({
    kafka: { brokers: ['localhost:9092'] },
    scorers: [{ scorer: tone }, { scorer: graded, version: '4' }],
    pricing: { models: { 'mock-decider': { inputPerMillion: 2, outputPerMillion: 10 }, ...(options.unpricedJudge === true ? {} : { 'mock-judge': { inputPerMillion: 1, outputPerMillion: 5 } }) } },
    budgets,
  } as never);
  const reader = new CollectingMetricReader();
  const meter = new MeterProvider({ readers: [reader] }).getMeter('scorestream');
  const admin = { fetchTopicMetadata: async () => ({ topics: [{ name: config.topics.runs, partitions: [{ partitionId: 0 }] }] }) };
  const built = await judgeServices({ config, logger, edge: { admin } as never }, meter);
  // The whole budget, as an instance that owns every partition (budget-share.ts sets it from the assignment).
  built.spend.ledger?.setShare(1);
  return { config, ...built, collect: async () => (await reader.collect()).resourceMetrics };
}

describe.each([
  ['without budgets', []],
  ['with a budget', [{ name: 'calls', of: 'judgeCalls', max: 100, window: 'hour' }]],
])('the judge services %s', (_label, budgets) => {
  it("count each classifier decision call and each judge call once, under its binding's scorer and the run's tenant", async () => {
    const { config, services, spend, collect } = await servicesFor(budgets);
    const settled = await settleOutcomes(scoreRunEvent(runFacts({ runId: 'run-1', tenantId: 'acme' }), { bindings: config.scorers, services, spend }));
    expect(settled.records.map((record) => record.status)).toEqual(['scored', 'scored']);
    const metrics = await collect();
    const usage = (attributes: Record<string, string>) => metricValue(metrics, 'scorestream.judge.usage', { 'gen_ai.token.type': 'input', ...attributes });
    expect(usage({ 'scorestream.scorer.id': 'tone', 'scorestream.tenant.id': 'acme', 'gen_ai.request.model': 'mock-decider' })).toBe(500);
    expect(usage({ 'scorestream.scorer.id': 'graded', 'scorestream.scorer.version': '4', 'scorestream.tenant.id': 'acme', 'gen_ai.request.model': 'mock-judge' })).toBe(1000);
    // Nothing counted twice, nothing without its scorer.
    expect(usage({})).toBe(1500);
    // 500 × 2 + 100 × 10 = 2,000 and 1,000 × 1 + 200 × 5 = 2,000 per million.
    expect(metricValue(metrics, 'scorestream.judge.cost')).toBeCloseTo(0.004, 12);
  });
});

describe('an unpriced judge model', () => {
  it('is said once per model, naming the setting, however many calls it makes', async () => {
    const lines: Array<{ msg: string; modelId?: string }> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line) as { msg: string; modelId?: string }) });
    const { config, services, spend } = await servicesFor([], logger, { unpricedJudge: true });
    for (const runId of ['run-1', 'run-2', 'run-3']) await settleOutcomes(scoreRunEvent(runFacts({ runId, tenantId: 'acme' }), { bindings: config.scorers, services, spend }));
    const said = lines.filter((line) => line.msg.includes('has no price in the price table'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ modelId: 'mock-judge' });
    expect(said[0]!.msg).toContain('add it to pricing.models');
  });
});
