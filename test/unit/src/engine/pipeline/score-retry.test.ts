// scoreRetry: a deferred pair scored again with the binding decided the first time. Its judge
// calls are priced and counted against the budgets like any; its `runs` budget is not decided
// again; a budget that refuses a retried call defers the pair to its next attempt (so the group
// never spends past its cap), and only a pair still refused at maxAgeMs becomes a
// budget_exhausted decision. A binding no longer configured ends the pair as binding_removed.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { budgetSchema, pricingSchema } from '../../../../../src/engine/budget/budget-schema.ts';
import { createJudgeSpend } from '../../../../../src/engine/budget/judge-spend.ts';
import type { RetryMessage } from '../../../../../src/kit/contracts/retry-message.ts';
import { scoreRetry } from '../../../../../src/engine/pipeline/score-retry.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import { applyEvidence } from '../../../../../src/engine/data-handling/apply-evidence.ts';
import { parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import { bindings, runFacts, source } from './fixtures.ts';

const judgeScorer = (judge: ReturnType<typeof mockJudge>) =>
  createScorer({ id: 'judged', description: 'd', judge: { model: judge, instructions: 'You grade answers.' } })
    .analyze({ description: 'grade', outputSchema: z.object({ good: z.boolean() }), createPrompt: () => 'Is this answer good?' })
    .generateScore(({ results }) => (results.analyzeStepResult.good ? 1 : 0));

const pricing = pricingSchema.parse({ models: { 'mock-judge': { inputPerMillion: 2, outputPerMillion: 10 } } });
const start = Date.parse('2026-11-29T12:00:00.000Z');
const policy = { enabled: true, delaysMs: [1_000], maxAgeMs: 10_000 };

function retryOf(facts: ReturnType<typeof runFacts>): RetryMessage {
  return {
    schemaVersion: 1,
    runId: facts.event.runId,
    scorerId: 'judged',
    attempt: 1,
    firstFailedAt: new Date(start).toISOString(),
    dueAt: new Date(start + 1_000).toISOString(),
    source,
    trace: {},
    attempts: [{ failedAt: new Date(start).toISOString(), durationMs: 5, error: { name: 'APICallError', message: '503', failedStep: 'analyze', completedSteps: [], retryable: true } }],
    event: facts.event,
  };
}

describe('scoreRetry', () => {
  it("adds the earlier attempts' judge spend to the record's, which every evidence level keeps", async () => {
    const judge = mockJudge({ answer: { good: true }, usage: { inputTokens: 1000, outputTokens: 200 } });
    const spend = createJudgeSpend({ pricing, budgets: [], now: () => start });
    const facts = runFacts({ runId: 'run-spend' });
    const earlier = { judgeCalls: 2, inputTokens: 300, cachedInputTokens: 100, cacheWriteTokens: 0, outputTokens: 20, reasoningTokens: 0, cost: { amount: 0.0008, unit: 'USD' }, unpricedCalls: 1 };
    const outcome = await scoreRetry(facts, { ...retryOf(facts), spend: earlier }, { bindings: bindings({ scorer: judgeScorer(judge) }), services: { judgeCalls: spend.gate }, spend, retries: policy, now: () => start + 1_000 });
    if (outcome.kind !== 'record') throw new Error(`expected a record, got ${outcome.kind}`);
    // This attempt: one call, 1,000 in and 200 out at 2 / 10 per million = 0.004.
    expect(outcome.record.spend).toEqual({ judgeCalls: 3, inputTokens: 1300, cachedInputTokens: 100, cacheWriteTokens: 0, outputTokens: 220, reasoningTokens: 0, cost: { amount: 0.0048, unit: 'USD' }, unpricedCalls: 1 });
    expect(parseScoreRecord(outcome.record).success).toBe(true);
    const kept = applyEvidence(outcome.record, 'none');
    expect(kept).not.toHaveProperty('judge');
    expect(kept.spend).toEqual(outcome.record.spend);
  });

  it('carries the spend so far in the retry message of a pair deferred again', async () => {
    const judge = mockJudge({ answer: { good: true }, usage: { inputTokens: 50, outputTokens: 5 } });
    // The judge answers, then the score step fails transiently: the call was paid, the pair waits again.
    const flaky = createScorer({ id: 'judged', description: 'd', judge: { model: judge, instructions: 'You grade answers.' } })
      .analyze({ description: 'grade', outputSchema: z.object({ good: z.boolean() }), createPrompt: () => 'Is this answer good?' })
      .generateScore(() => {
        throw Object.assign(new Error('score store unavailable'), { isRetryable: true });
      });
    const facts = runFacts({ runId: 'run-spend-2' });
    const earlier = { judgeCalls: 1, inputTokens: 40, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 4, reasoningTokens: 0 };
    const outcome = await scoreRetry(facts, { ...retryOf(facts), spend: earlier }, { bindings: bindings({ scorer: flaky }), retries: policy, now: () => start + 1_000 });
    if (outcome.kind !== 'deferred') throw new Error(`expected a deferral, got ${outcome.kind}`);
    expect(outcome.retry.spend).toEqual({ judgeCalls: 2, inputTokens: 90, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 9, reasoningTokens: 0 });
    expect(outcome.final.spend).toEqual(outcome.retry.spend);
  });

  it('prices the retried call and counts it against the budgets, without deciding the runs budget again', async () => {
    const judge = mockJudge({ answer: { good: true }, usage: { inputTokens: 1000, outputTokens: 200 } });
    const spend = createJudgeSpend({
      pricing,
      budgets: [budgetSchema.parse({ name: 'calls', of: 'judgeCalls', max: 10, window: 'minute' }), budgetSchema.parse({ name: 'no-runs', of: 'runs', max: 1, window: 'minute' })],
      now: () => start,
    });
    spend.ledger!.admitRun('judged', 'acme'); // the first attempt took the only run
    const facts = runFacts({ runId: 'run-1' });
    const outcome = await scoreRetry(facts, retryOf(facts), { bindings: bindings({ scorer: judgeScorer(judge) }), services: { judgeCalls: spend.gate }, spend, retries: policy, now: () => start + 1_000 });
    expect(outcome).toMatchObject({ kind: 'record', record: { status: 'scored', retries: { attempts: [{ error: { message: '503' } }] } } });
    const execution = outcome.kind === 'record' ? outcome.record.judge?.analyze?.executions[0] : undefined;
    expect(execution?.cost).toEqual({ amount: 0.004, unit: 'USD', source: 'price-table' });
    expect(spend.ledger!.used('calls')).toBe(1);
    expect(spend.ledger!.used('no-runs', 'acme')).toBe(1);
  });

  it('defers a retry whose judge call a budget refuses instead of skipping it, and decides budget_exhausted only at maxAgeMs', async () => {
    const judge = mockJudge({ answer: { good: true } });
    const spend = createJudgeSpend({ pricing, budgets: [budgetSchema.parse({ name: 'no-calls', of: 'judgeCalls', max: 1, window: 'minute' })], now: () => start });
    spend.ledger!.reserveJudgeCall({ scorerId: 'judged', tenant: 'acme', modelId: 'mock-judge' }, { calls: 1, tokens: 0, cost: 0 }); // the window is full
    const facts = runFacts({ runId: 'run-2' });
    const options = { bindings: bindings({ scorer: judgeScorer(judge) }), services: { judgeCalls: spend.gate }, spend, retries: policy };
    const waiting = await scoreRetry(facts, retryOf(facts), { ...options, now: () => start + 1_000 });
    expect(waiting).toMatchObject({ kind: 'deferred', retry: { attempt: 2, attempts: [{}, { error: { code: 'budget_exhausted', retryable: true } }] }, delayMs: 1_000 });
    expect(judge.calls).toHaveLength(0);
    const ended = await scoreRetry(facts, retryOf(facts), { ...options, now: () => start + 10_000 });
    expect(ended).toMatchObject({ kind: 'skipped', decision: { runId: 'run-2', scorerId: 'judged', decision: 'skipped', reason: 'budget_exhausted', budget: { name: 'no-calls', window: 'minute' } } });
  });

  it('ends a pair whose binding is gone with a failed record, binding_removed, carrying the attempts', async () => {
    const facts = runFacts({ runId: 'run-3' });
    const outcome = await scoreRetry(facts, { ...retryOf(facts), scorerId: 'gone' }, { bindings: bindings({ scorer: judgeScorer(mockJudge({ answer: { good: true } })) }), retries: policy, now: () => start + 1_000 });
    expect(outcome).toMatchObject({ kind: 'record', record: { status: 'failed', scorerId: 'gone', error: { code: 'binding_removed', retryable: false }, retries: { attempts: [{}] } } });
  });
});
