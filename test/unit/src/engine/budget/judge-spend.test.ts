// Budgets and cost through the real pipeline (scoreRunEvent with a judge scorer on mockJudge):
// a refused run or judge call becomes a budget_exhausted decision, never a failed record, and the
// judge evidence carries the priced usage.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { budgetSchema, pricingSchema } from '../../../../../src/engine/budget/budget-schema.ts';
import { createJudgeSpend } from '../../../../../src/engine/budget/judge-spend.ts';
import { Classifier } from '../../../../../src/kit/classifier/classifier.ts';
import { createClassifierScorer } from '../../../../../src/kit/classifier/classifier-scorer.ts';
import { decisionResult, questions, scriptedDecisionModel } from '../../kit/classifier/fixtures.ts';
import { parseDecisionRecord } from '../../../../../src/kit/contracts/parse.ts';
import type { ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';
import { scoreRunEvent as outcomesOf } from '../../../../../src/engine/pipeline/score-run-event.ts';
import { settleOutcomes } from '../../../../../src/engine/pipeline/scoring-outcome.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import { bindings, runFacts } from '../pipeline/fixtures.ts';

/** A run's records and decisions once every binding is done (the transport takes them one by one as they finish). */
const scoreRunEvent = (...args: Parameters<typeof outcomesOf>) => settleOutcomes(outcomesOf(...args));

function judgeScorer(judge: ReturnType<typeof mockJudge>, id = 'judged') {
  return createScorer({ id, description: 'd', judge: { model: judge, instructions: 'You grade answers.' } })
    .analyze({ description: 'grade', outputSchema: z.object({ good: z.boolean() }), createPrompt: () => 'Is this answer good? '.repeat(10) })
    .generateScore(({ results }) => (results.analyzeStepResult.good ? 1 : 0));
}

const pricing = pricingSchema.parse({ models: { 'mock-judge': { inputPerMillion: 2, outputPerMillion: 10 } } });

describe('judge spend in scoreRunEvent', () => {
  it('puts the priced usage on each judge execution: 1,000 in and 200 out at 2 / 10 per million = 0.004', async () => {
    const judge = mockJudge({ answer: { good: true }, usage: { inputTokens: 1000, outputTokens: 200 } });
    const calls: unknown[] = [];
    const spend = createJudgeSpend({ pricing, now: () => 0, onCall: (call, scope) => calls.push({ cost: call.cost, usage: call.usage, scope }) });
    const scoring = await scoreRunEvent(runFacts({ runId: 'run-cost' }), { bindings: bindings({ scorer: judgeScorer(judge), version: '2' }), services: { judgeCalls: spend.gate }, spend });
    const record = scoring.records[0] as ScoreRecord;
    expect(record.status).toBe('scored');
    expect(record.judge?.analyze?.executions[0]?.cost).toEqual({ amount: 0.004, unit: 'USD', source: 'price-table' });
    // Counted under the binding and the run's tenant (the spend metrics' labels), with its usage.
    expect(calls).toEqual([{ cost: { amount: 0.004, unit: 'USD', source: 'price-table' }, usage: expect.objectContaining({ inputTokens: 1000, outputTokens: 200 }), scope: { scorerId: 'judged', scorerVersion: '2', tenant: 'acme' } }]);
  });

  it("says a model without a price is unpriced — on its judge execution and to the spend metrics — and guesses no cost", async () => {
    const judge = mockJudge({ modelId: 'house-judge', answer: { good: true }, usage: { inputTokens: 1000, outputTokens: 200 } });
    const calls: unknown[] = [];
    const spend = createJudgeSpend({ pricing, now: () => 0, onCall: (call, scope) => calls.push({ modelId: call.modelId, cost: call.cost, scorerId: scope?.scorerId }) });
    const scoring = await scoreRunEvent(runFacts({ runId: 'run-unpriced' }), { bindings: bindings({ scorer: judgeScorer(judge) }), services: { judgeCalls: spend.gate }, spend });
    const execution = (scoring.records[0] as ScoreRecord).judge?.analyze?.executions[0];
    expect(execution?.unpriced).toBe(true);
    expect(execution).not.toHaveProperty('cost');
    expect(calls).toEqual([{ modelId: 'house-judge', cost: 'unpriced', scorerId: 'judged' }]);
  });

  it('keeps one gate per scorer, version and tenant without budgets (it holds no state), and makes one per run with them (it remembers a refusal)', () => {
    const free = createJudgeSpend({ pricing, now: () => 0 });
    expect(free.runGate('judged', '2', 'acme')).toBe(free.runGate('judged', '2', 'acme'));
    expect(free.runGate('judged', '2', 'acme')).not.toBe(free.runGate('judged', '2', 'globex'));
    expect(free.runGate('judged', '2', 'acme')).not.toBe(free.runGate('judged', '3', 'acme'));
    const budgeted = createJudgeSpend({ pricing, budgets: [budgetSchema.parse({ name: 'calls', of: 'judgeCalls', max: 5, window: 'minute' })], now: () => 0 });
    expect(budgeted.runGate('judged', '2', 'acme')).not.toBe(budgeted.runGate('judged', '2', 'acme'));
  });

  it('records a run refused by a runs budget as budget_exhausted with the budget’s name and window, without running the scorer', async () => {
    const judge = mockJudge({ answer: { good: true } });
    const spend = createJudgeSpend({ pricing, budgets: [budgetSchema.parse({ name: 'one-run', of: 'runs', max: 1, window: 'minute' })], now: () => 0 });
    const options = { bindings: bindings({ scorer: judgeScorer(judge) }), services: { judgeCalls: spend.gate }, spend };
    const first = await scoreRunEvent(runFacts({ runId: 'run-1' }), options);
    const second = await scoreRunEvent(runFacts({ runId: 'run-2' }), options);
    expect(first.records).toHaveLength(1);
    expect(second.records).toEqual([]);
    expect(second.decisions).toHaveLength(1);
    const decision = second.decisions[0]!;
    expect(parseDecisionRecord(decision).success).toBe(true);
    expect(decision).toMatchObject({ runId: 'run-2', scorerId: 'judged', decision: 'skipped', reason: 'budget_exhausted', budget: { name: 'one-run', window: 'minute' } });
    expect(decision.detail).toMatch(/budget 'one-run' of runs per minute is exhausted.*scorestream replay/);
    expect(judge.calls).toHaveLength(1);
  });

  it('records a pair whose judge call a tokens budget refused mid-pipeline as budget_exhausted, not failed, and settles with the real usage', async () => {
    const judge = mockJudge({ answer: { good: true }, usage: { inputTokens: 40, outputTokens: 10 } });
    // The estimate of one call: (19 + 210 chars) / 4 → 58 in + 256 out = 314 tokens; 2 reservations fit in 700, settled at 50 each.
    const spend = createJudgeSpend({ pricing, budgets: [budgetSchema.parse({ name: 'tokens', of: 'tokens', max: 700, window: 'hour', perTenant: true })], now: () => 0 });
    const options = { bindings: bindings({ scorer: judgeScorer(judge) }), services: { judgeCalls: spend.gate }, spend };
    const outcomes = [];
    for (let index = 0; index < 12; index += 1) outcomes.push(await scoreRunEvent(runFacts({ runId: `run-${index}`, tenantId: 'acme' }), options));
    const scored = outcomes.filter((outcome) => outcome.records.length === 1);
    const skipped = outcomes.filter((outcome) => outcome.decisions.length === 1);
    // Each call books 50 once settled; a new call needs 314 free: (700 − 314) / 50 → 8 calls fit before the 9th is refused.
    expect(scored).toHaveLength(8);
    expect(skipped).toHaveLength(4);
    expect(scored.every((outcome) => outcome.records[0]!.status === 'scored')).toBe(true);
    expect(skipped[0]!.decisions[0]).toMatchObject({ reason: 'budget_exhausted', budget: { name: 'tokens', window: 'hour' } });
    expect(spend.ledger?.used('tokens', 'acme')).toBe(400);
    expect(judge.calls).toHaveLength(8);
    // Another tenant has its own counter.
    const globex = await scoreRunEvent(runFacts({ runId: 'run-globex', tenantId: 'globex' }), options);
    expect(globex.records).toHaveLength(1);
  });

  it("puts a classifier scorer's decision-model calls under the same budgets, priced with their reported usage", async () => {
    const { model, calls } = scriptedDecisionModel([decisionResult({ usage: { inputTokens: 500, outputTokens: 100 } })]);
    const classifier = new Classifier({ id: 'quality', model, questions, retry: { sleep: async () => {} } });
    const scorer = createClassifierScorer({ id: 'tone', classifier, question: 'tone', scores: { polite: 1, neutral: 0.5, rude: 0 }, state: () => 'x' });
    const costs: number[] = [];
    const spend = createJudgeSpend({
      pricing: pricingSchema.parse({ models: { 'mock-decider': { inputPerMillion: 2, outputPerMillion: 10 } } }),
      budgets: [budgetSchema.parse({ name: 'decider-calls', of: 'judgeCalls', max: 2, window: 'minute', model: 'mock-decider' })],
      now: () => 0,
      onCall: (call) => costs.push(call.cost === 'unpriced' ? Number.NaN : call.cost.amount),
    });
    const options = { bindings: bindings({ scorer }), services: { judgeCalls: spend.gate }, spend };
    const outcomes = [];
    for (let index = 0; index < 3; index += 1) outcomes.push(await scoreRunEvent(runFacts({ runId: `run-${index}` }), options));
    expect(outcomes.map((outcome) => outcome.records[0]?.status ?? outcome.decisions[0]?.reason)).toEqual(['scored', 'scored', 'budget_exhausted']);
    expect(outcomes[2]!.decisions[0]).toMatchObject({ budget: { name: 'decider-calls', window: 'minute' } });
    expect(calls).toHaveLength(2);
    // 500 × 2 / 1e6 + 100 × 10 / 1e6 = 0.002 per call
    expect(costs).toEqual([0.002, 0.002]);
  });
});
