// Re-scoring on feedback, the pure part (docs/feedback.md, re-scoring): only a binding that opted
// in for the request's reason is scored again; the re-score's records carry the mark and the
// re-score's id (one per pair and feedback, never the pair's own); budgets admit and gate it like
// any judge work, a refusal being a budget_exhausted decision; a transient failure is deferred
// with the mark kept through the retry; a run no longer on the topic is a run_unavailable decision.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { budgetSchema, pricingSchema } from '../../../../../src/engine/budget/budget-schema.ts';
import { createJudgeSpend } from '../../../../../src/engine/budget/judge-spend.ts';
import type { RescoreRequest } from '../../../../../src/kit/contracts/rescore-request.ts';
import { rescoreIdFor, scoreIdFor } from '../../../../../src/kit/contracts/score-id.ts';
import { recordKeyOf } from '../../../../../src/kit/contracts/record-key.ts';
import { admitRescore, rescoreUnavailable, scoreRescore } from '../../../../../src/engine/pipeline/score-rescore.ts';
import { scoreRetry } from '../../../../../src/engine/pipeline/score-retry.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { mockJudge, providerError } from '../../../../../src/kit/testing/mock-judge.ts';
import { bindings, runFacts, source } from './fixtures.ts';

const fixed = (id: string, score: number) => createScorer({ id, description: 'd' }).generateScore(() => score);
const judged = (judge: ReturnType<typeof mockJudge>) =>
  createScorer({ id: 'judged', description: 'd', judge: { model: judge, instructions: 'You grade answers.' } })
    .analyze({ description: 'grade', outputSchema: z.object({ good: z.boolean() }), createPrompt: () => 'Is this answer good?' })
    .generateScore(({ results }) => (results.analyzeStepResult.good ? 1 : 0));

const start = Date.parse('2026-12-02T08:00:00.000Z');

function request(fields: Partial<RescoreRequest> = {}): RescoreRequest {
  return {
    schemaVersion: 1,
    runId: 'run-1',
    scorerId: 'opted',
    scorerVersion: '2',
    scoreId: scoreIdFor({ runId: 'run-1', scorerId: 'opted', scorerVersion: '2' }),
    source,
    rescore: { feedbackId: 'fb-1', reason: 'thumbs-down' },
    requestedAt: new Date(start).toISOString(),
    ...fields,
  };
}

describe('admitRescore', () => {
  const configured = bindings({ scorer: fixed('opted', 0.9), version: '2', rescoreOn: ['thumbs-down'] }, { scorer: fixed('plain', 0.9), version: '2' });

  it('admits only the binding, by id and version, that opted in for the reason', () => {
    expect(admitRescore(request(), configured)).toMatchObject({ admitted: true, binding: { scorerId: 'opted' } });
    expect(admitRescore(request({ rescore: { feedbackId: 'fb-1', reason: 'correction' } }), configured)).toEqual({ admitted: false, refusal: 'not_enabled' });
    expect(admitRescore(request({ scorerId: 'plain' }), configured)).toEqual({ admitted: false, refusal: 'not_enabled' });
    expect(admitRescore(request({ scorerVersion: '1' }), configured)).toEqual({ admitted: false, refusal: 'binding_not_found' });
  });
});

describe('scoreRescore', () => {
  it('scores the pair again under the re-score id, marked with the feedback, keyed apart from the pair', async () => {
    const [opted] = bindings({ scorer: fixed('opted', 0.25), version: '2', rescoreOn: ['thumbs-down'] });
    const outcome = await scoreRescore(runFacts({ runId: 'run-1' }), request(), opted!, { bindings: [], now: () => start });
    expect(outcome.kind).toBe('record');
    const record = outcome.kind === 'record' ? outcome.record : undefined;
    const id = rescoreIdFor({ runId: 'run-1', scorerId: 'opted', scorerVersion: '2', feedbackId: 'fb-1' });
    expect(record).toMatchObject({ status: 'scored', score: 0.25, scoreId: id, rescore: { feedbackId: 'fb-1', reason: 'thumbs-down' }, source });
    expect(id).not.toBe(scoreIdFor({ runId: 'run-1', scorerId: 'opted', scorerVersion: '2' }));
    expect(recordKeyOf(record!)).toEqual({ key: id, partitionKey: 'run-1' });
    // Another feedback on the same pair is another re-score.
    expect(rescoreIdFor({ runId: 'run-1', scorerId: 'opted', scorerVersion: '2', feedbackId: 'fb-2' })).not.toBe(id);
  });

  it('is admitted by the runs budget like first work: refused, it is a budget_exhausted decision with the mark', async () => {
    const spend = createJudgeSpend({ pricing: pricingSchema.parse({}), budgets: [budgetSchema.parse({ name: 'one-run', of: 'runs', max: 1, window: 'minute' })], now: () => start });
    spend.ledger!.admitRun('opted', 'acme'); // the first scoring took the only run
    const [opted] = bindings({ scorer: fixed('opted', 0.25), version: '2', rescoreOn: ['thumbs-down'] });
    const outcome = await scoreRescore(runFacts({ runId: 'run-1' }), request(), opted!, { bindings: [], spend, now: () => start });
    expect(outcome).toMatchObject({ kind: 'skipped', decision: { decision: 'skipped', reason: 'budget_exhausted', budget: { name: 'one-run' }, rescore: { feedbackId: 'fb-1' } } });
    if (outcome.kind === 'skipped') expect(recordKeyOf(outcome.decision).key).toBe(rescoreIdFor({ runId: 'run-1', scorerId: 'opted', scorerVersion: '2', feedbackId: 'fb-1' }));
  });

  it('has its judge calls gated by the judge budgets: a refused call is a budget_exhausted decision, no call made', async () => {
    const judge = mockJudge({ answer: { good: true } });
    const spend = createJudgeSpend({ pricing: pricingSchema.parse({}), budgets: [budgetSchema.parse({ name: 'no-calls', of: 'judgeCalls', max: 1, window: 'minute' })], now: () => start });
    spend.ledger!.reserveJudgeCall({ scorerId: 'judged', tenant: 'acme', modelId: 'mock-judge' }, { calls: 1, tokens: 0, cost: 0 });
    const [binding] = bindings({ scorer: judged(judge), rescoreOn: ['correction'] });
    const outcome = await scoreRescore(runFacts({ runId: 'run-1' }), request({ scorerId: 'judged', scorerVersion: undefined, rescore: { feedbackId: 'fb-9', reason: 'correction' } }), binding!, { bindings: [], spend, services: { judgeCalls: spend.gate }, now: () => start });
    expect(outcome).toMatchObject({ kind: 'skipped', decision: { reason: 'budget_exhausted', budget: { name: 'no-calls' }, rescore: { feedbackId: 'fb-9', reason: 'correction' } } });
    expect(judge.calls).toHaveLength(0);
  });

  it('defers a transient failure with the mark on the retry, and the retry scores under the same re-score id', async () => {
    const failing = mockJudge({ answer: providerError(503, { retryAfterMs: 1 }) });
    const [binding] = bindings({ scorer: judged(failing), rescoreOn: ['thumbs-down'] });
    const facts = runFacts({ runId: 'run-1' });
    const retries = { enabled: true, delaysMs: [1_000], maxAgeMs: 60_000 };
    const first = await scoreRescore(facts, request({ scorerId: 'judged', scorerVersion: undefined }), binding!, { bindings: [], retries, now: () => start });
    expect(first).toMatchObject({ kind: 'deferred', retry: { rescore: { feedbackId: 'fb-1' } }, decision: { reason: 'deferred_retry', rescore: { feedbackId: 'fb-1' } }, final: { rescore: { feedbackId: 'fb-1' } } });
    if (first.kind !== 'deferred') return;
    const id = rescoreIdFor({ runId: 'run-1', scorerId: 'judged', feedbackId: 'fb-1' });
    expect(first.final.scoreId).toBe(id);
    const [healed] = bindings({ scorer: judged(mockJudge({ answer: { good: false } })), rescoreOn: ['thumbs-down'] });
    const second = await scoreRetry(facts, first.retry, { bindings: [healed!], retries, now: () => start + 1_000 });
    expect(second).toMatchObject({ kind: 'record', record: { status: 'scored', score: 0, scoreId: id, rescore: { feedbackId: 'fb-1', reason: 'thumbs-down' }, retries: { attempts: [{}] } } });
  });
});

describe('rescoreUnavailable', () => {
  it('is a run_unavailable decision with the mark, the reason, and where the run was', () => {
    const outcome = rescoreUnavailable(request(), 'offset 1041 of agent-runs[2] is no longer on the topic', new Date(start).toISOString());
    expect(outcome).toMatchObject({ kind: 'skipped', decision: { runId: 'run-1', scorerId: 'opted', scorerVersion: '2', decision: 'skipped', reason: 'run_unavailable', detail: 'offset 1041 of agent-runs[2] is no longer on the topic', source, rescore: { feedbackId: 'fb-1', reason: 'thumbs-down' } } });
  });
});
