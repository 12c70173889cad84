// scoreThreadClose: a close effect scored through the run path's own scoreWithBinding, inside a
// span whose parent is the last turn's agent span and which links every turn's. Spans are captured
// with an in-memory exporter on a tracer passed in.
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { budgetSchema, pricingSchema } from '../../../../../src/engine/budget/budget-schema.ts';
import { createJudgeSpend } from '../../../../../src/engine/budget/judge-spend.ts';
import { parseDecisionRecord, parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import { threadScoreIdFor, threadVersionIdFor } from '../../../../../src/kit/contracts/thread-ids.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { createUserFrustrationScorer } from '../../../../../src/kit/scorers/llm/user-frustration/index.ts';
import { mockJudge, providerError } from '../../../../../src/kit/testing/mock-judge.ts';
import { settleOutcomes } from '../../../../../src/engine/pipeline/scoring-outcome.ts';
import { THREAD_RUN_IDS_KEPT } from '../../../../../src/kit/contracts/thread-ref.ts';
import { scoreThreadClose, threadTraceContext, threadVersionOf } from '../../../../../src/engine/threads/score-thread-close.ts';
import type { ScoreThreadCloseOptions } from '../../../../../src/engine/threads/score-thread-close.ts';
import type { ThreadClose } from '../../../../../src/engine/threads/thread-effects.ts';
import { threadRunOf } from '../../../../../src/kit/scorer/thread-run.ts';
import { traceFor } from '../../../../helpers/runs.ts';
import { threadBindings, turnOf } from './fixtures.ts';

/** A close's one outcome, by kind (records / decisions). */
const scored = (close: ThreadClose, options: ScoreThreadCloseOptions<unknown>) => settleOutcomes([scoreThreadClose(close, options)]);

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const tracer = provider.getTracer('scorestream-test');
afterEach(() => exporter.reset());

const turns = [turnOf({ runId: 'run-1', offset: 1 }), turnOf({ runId: 'run-2', offset: 2 }), turnOf({ runId: 'run-3', offset: 3 })];

function closeOf(scorerId: string, extra: Partial<ThreadClose> = {}): ThreadClose {
  return {
    type: 'close',
    key: 'acme:t-1',
    threadId: 't-1',
    tenantId: 'acme',
    scorerId,
    closedBy: 'idle',
    version: 2,
    versionId: threadVersionIdFor('acme:t-1', ['run-1', 'run-2', 'run-3']),
    supersedes: threadVersionIdFor('acme:t-1', ['run-1', 'run-2']),
    scope: 'conversation',
    sampling: { rate: 0.5, bucket: 0.25 },
    turns: turns.map(({ turn, json }) => ({ runId: turn.run.runId, json })),
    // The last turn (2026-11-29T12:00:00Z) joined the state 1.5 s after its event; the thread closed 30 s later.
    lastJoinedAt: Date.parse('2026-11-29T12:00:01.500Z'),
    closedAt: Date.parse('2026-11-29T12:00:31.500Z'),
    ...extra,
  };
}

const seen: unknown[] = [];
const turnCounter = createScorer({ id: 'turn-counter', description: 'd' }).generateScore(({ run }) => {
  seen.push(run);
  return threadRunOf(run)!.turns.length;
});

describe('scoreThreadClose', () => {
  it('scores the whole conversation as one run: the record carries the thread block and a thread score id', async () => {
    const { records, decisions } = await scored(closeOf('turn-counter', { scorerVersion: '3' }), { bindings: threadBindings({ scorer: turnCounter, version: '3' }), tracer });
    expect(decisions).toEqual([]);
    const [record] = records;
    expect(parseScoreRecord(record).success).toBe(true);
    expect(record).toMatchObject({
      status: 'scored',
      score: 3,
      runId: 'run-3',
      scorerId: 'turn-counter',
      scorerVersion: '3',
      source: { topic: 'agent-runs', partition: 1, offset: '3' },
      sampling: { rate: 0.5, bucket: 0.25 },
      thread: { id: 't-1', key: 'acme:t-1', version: 2, turns: 3, firstRunId: 'run-1', lastRunId: 'run-3', closedBy: 'idle', scope: 'conversation', supersedes: threadVersionIdFor('acme:t-1', ['run-1', 'run-2']) },
    });
    expect(record!.scoreId).toBe(threadScoreIdFor({ threadKey: 'acme:t-1', scorerId: 'turn-counter', scorerVersion: '3', versionId: threadVersionIdFor('acme:t-1', ['run-1', 'run-2', 'run-3']) }));
    expect(record!.thread!.runIds).toEqual(['run-1', 'run-2', 'run-3']);
  });

  it("says where the thread score's time went: its last turn's way to the state (kafka), the thread's idle wait, the scorer's own run", async () => {
    // The scorer starts 5 ms after the close, on the scoring clock.
    const now = () => Date.parse('2026-11-29T12:00:31.505Z');
    const { records } = await scored(closeOf('turn-counter'), { bindings: threadBindings({ scorer: turnCounter }), tracer, now });
    expect(records[0]!.latency).toEqual({ kafkaMs: 1_500, threadWaitMs: 30_000, dispatchMs: 5, scoringMs: 0 });
  });

  it('names at most the last THREAD_RUN_IDS_KEPT turns of a long thread in its record, and says how many there were', async () => {
    const long = Array.from({ length: THREAD_RUN_IDS_KEPT + 20 }, (_, index) => ({ runId: `run-${index + 1}`, json: turns[index % 3]!.json }));
    const version = threadVersionOf({ ...closeOf('turn-counter'), turns: long });
    expect(version.turns).toBe(THREAD_RUN_IDS_KEPT + 20);
    expect(version.runIds).toHaveLength(THREAD_RUN_IDS_KEPT);
    expect(version.runIds![0]).toBe('run-21');
    expect(version.runIds!.at(-1)).toBe(version.lastRunId);
    expect(parseScoreRecord({ ...(await scored(closeOf('turn-counter'), { bindings: threadBindings({ scorer: turnCounter }), tracer })).records[0], thread: { ...version, runIds: [...version.runIds!, 'one-too-many'] } }).success).toBe(false);
  });

  it("puts the score span under the last turn's agent span and links every turn's agent span", async () => {
    const { records } = await scored(closeOf('turn-counter'), { bindings: threadBindings({ scorer: turnCounter }), tracer });
    // A code scorer's thread score is an evaluation on the conversation's `score thread` span.
    const [span] = exporter.getFinishedSpans().filter((candidate) => candidate.name === 'score thread');
    expect(span!.events.map((event) => event.attributes?.['gen_ai.evaluation.name'])).toEqual(['turn-counter']);
    expect(span!.spanContext().traceId).toBe(traceFor('run-3').traceId);
    expect(span!.parentSpanContext?.spanId).toBe(traceFor('run-3').spanId);
    expect(span!.links.map((link) => [link.context.traceId, link.context.spanId])).toEqual(['run-1', 'run-2', 'run-3'].map((runId) => [traceFor(runId).traceId, traceFor(runId).spanId]));
    expect(span!.attributes).toMatchObject({ 'scorestream.thread.id': 't-1', 'scorestream.thread.version': 2, 'scorestream.thread.turns': 3, 'scorestream.run.id': 'run-3' });
    expect(records[0]!.trace).toEqual({ traceId: traceFor('run-3').traceId, parentSpanId: traceFor('run-3').spanId, spanId: span!.spanContext().spanId });
  });

  it('starts a root span, linking the turns that had trace context, when the last turn had none', () => {
    const untraced = [turns[0]!.turn, turnOf({ runId: 'run-4', traced: false }).turn];
    const { links, parentContext } = threadTraceContext(untraced);
    expect(links.map((link) => link.context.spanId)).toEqual([traceFor('run-1').spanId]);
    expect(trace.getSpanContext(parentContext)).toBeUndefined();
  });

  it('records a scorer that throws as failed, with the thread block', async () => {
    const throwing = createScorer({ id: 'exploding', description: 'd' })
      .analyze(() => {
        throw new Error('the analyzer exploded');
      })
      .generateScore(() => 0);
    const { records } = await scored(closeOf('exploding'), { bindings: threadBindings({ scorer: throwing }), tracer });
    expect(records[0]).toMatchObject({ status: 'failed', error: { failedStep: 'analyze', message: 'the analyzer exploded' }, thread: { version: 2 } });
    expect(parseScoreRecord(records[0]).success).toBe(true);
  });

  it('records a scorer that outlives its timeout as failed (scorer_timeout), retryable', async () => {
    const hanging = createScorer({ id: 'hanging', description: 'd' }).generateScore(({ abortSignal }) => new Promise<number>((_, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason))));
    const { records } = await scored(closeOf('hanging'), { bindings: threadBindings({ scorer: hanging, timeoutMs: 20 }), tracer });
    expect(records[0]).toMatchObject({ status: 'failed', error: { code: 'scorer_timeout', retryable: true }, thread: { key: 'acme:t-1' } });
  });

  it('decides a close refused by a runs budget as budget_exhausted, with the thread block, without running the scorer', async () => {
    const pricing = pricingSchema.parse({});
    const spend = createJudgeSpend({ pricing, budgets: [budgetSchema.parse({ name: 'no-runs', of: 'runs', max: 1, window: 'minute' })], now: () => 0 });
    const options = { bindings: threadBindings({ scorer: turnCounter }), tracer, spend, now: () => Date.parse('2026-11-29T13:00:00.000Z') };
    await scored(closeOf('turn-counter'), options);
    seen.length = 0;
    const { records, decisions } = await scored(closeOf('turn-counter'), options);
    expect(records).toEqual([]);
    expect(seen).toEqual([]);
    expect(decisions[0]).toMatchObject({ reason: 'budget_exhausted', budget: { name: 'no-runs', window: 'minute' }, runId: 'run-3', decidedAt: '2026-11-29T13:00:00.000Z', thread: { key: 'acme:t-1', turns: 3, lastRunId: 'run-3' } });
    expect(parseDecisionRecord(decisions[0]).success).toBe(true);
  });

  it('decides a close whose judge call a budget refused as budget_exhausted, not failed', async () => {
    const judge = mockJudge({ answer: { good: true } });
    const judged = createScorer({ id: 'judged', description: 'd', judge: { model: judge, instructions: 'grade' } })
      .analyze({ description: 'grade', outputSchema: z.object({ good: z.boolean() }), createPrompt: () => 'Is this conversation good?' })
      .generateScore(({ results }) => (results.analyzeStepResult.good ? 1 : 0));
    const spend = createJudgeSpend({ pricing: pricingSchema.parse({}), budgets: [budgetSchema.parse({ name: 'no-calls', of: 'judgeCalls', max: 0.5, window: 'minute' })], now: () => 0 });
    const { records, decisions } = await scored(closeOf('judged'), { bindings: threadBindings({ scorer: judged }), tracer, spend, services: { judgeCalls: spend.gate } });
    expect(records).toEqual([]);
    expect(judge.calls).toEqual([]);
    expect(decisions[0]).toMatchObject({ reason: 'budget_exhausted', budget: { name: 'no-calls' }, thread: { key: 'acme:t-1' } });
  });

  it('records a built-in thread judge whose provider fails as failed and retryable, with the judge evidence', async () => {
    const judge = mockJudge({ answer: providerError(503, { retryAfterMs: 1 }) });
    const frustration = createUserFrustrationScorer({ model: judge });
    const { records } = await scored(closeOf('user-frustration'), { bindings: threadBindings({ scorer: frustration }), tracer });
    const [record] = records;
    expect(record).toMatchObject({ status: 'failed', error: { failedStep: 'analyze', retryable: true }, thread: { key: 'acme:t-1', version: 2 } });
    expect(record!.judge?.analyze?.executions[0]).toMatchObject({ status: 'failed', judgeModelId: 'mock-judge' });
    expect(judge.calls.length).toBeGreaterThan(1);
    expect(parseScoreRecord(record).success).toBe(true);
  });

  it('refuses a close whose binding is not configured, naming what to do', async () => {
    await expect(scoreThreadClose(closeOf('unknown'), { bindings: threadBindings({ scorer: turnCounter }) })).rejects.toMatchObject({ code: 'thread_binding_missing' });
  });
});
