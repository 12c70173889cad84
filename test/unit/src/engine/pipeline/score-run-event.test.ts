// scoreRunEvent: one record per eligible binding, one decision per skipped one. The span contract:
// a scorer whose run starts a span (a prompt step, its own) has its `score {scorerId}` span under the
// agent run's propagated span; the others (code scorers) share the run's one `score run` span, each
// an evaluation event on it, or — codeScores 'log-records' — no span. Spans are captured with an
// in-memory exporter on a tracer passed in (no global registration).
import { context, ROOT_CONTEXT, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScorerLike } from '../../../../../src/engine/config/config-types.ts';
import { parseDecisionRecord, parseScoreRecord } from '../../../../../src/kit/contracts/parse.ts';
import { samplingBucket } from '../../../../../src/engine/eligibility/sampling.ts';
import { scoreRunEvent as outcomesOf } from '../../../../../src/engine/pipeline/score-run-event.ts';
import { settleOutcomes } from '../../../../../src/engine/pipeline/scoring-outcome.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { notScorable } from '../../../../../src/kit/scorer/not-scorable.ts';
import { createCompletenessScorer } from '../../../../../src/kit/scorers/code/completeness/index.ts';
import { traceFor } from '../../../../helpers/runs.ts';
import { bindings, deferred, runFacts, source } from './fixtures.ts';
import { handMadeScorer } from '../../../../helpers/hand-made-scorer.ts';

/** A run's records and decisions once every binding is done (the transport takes them one by one as they finish). */
const scoreRunEvent = (...args: Parameters<typeof outcomesOf>) => settleOutcomes(outcomesOf(...args));

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const tracer = provider.getTracer('scorestream-test');

afterEach(() => {
  exporter.reset();
});
// The scorer's context is active in its steps (what the service's SDK set-up registers).
beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
});
afterAll(() => {
  context.disable();
});

const scored = createScorer({ id: 'answer-quality', name: 'Answer quality', description: 'd' }).generateScore(() => 0.75);
const sameName = createScorer({ id: 'tone', description: 'd' }).generateScore(() => 0.5);
const refusing = createScorer({ id: 'refund-only', description: 'd' })
  .preprocess(() => notScorable('not a refund'))
  .generateScore(() => 1);
const throwing = createScorer({ id: 'always-throws', description: 'd' })
  .analyze(() => {
    throw new Error('the analyzer exploded');
  })
  .generateScore(() => 0);
/** Touching the active span is a use of it: the scorer's own `score {scorerId}` span starts. */
const touchSpan = () => trace.getActiveSpan()!.setAttribute('app.checked', true);
const tracedThrowing = createScorer({ id: 'always-throws', description: 'd' })
  .analyze(() => {
    touchSpan();
    throw new Error('the analyzer exploded');
  })
  .generateScore(() => 0);
const tracedRefusing = createScorer({ id: 'refund-only', description: 'd' })
  .preprocess(() => {
    touchSpan();
    return notScorable('not a refund');
  })
  .generateScore(() => 1);
const tracedScored = createScorer({ id: 'traced', description: 'd' })
  .preprocess(() => {
    touchSpan();
    return {};
  })
  .generateScore(() => 0.25);

/** The agent run's propagated context, as runTraceContext (consumers/message-trace.ts) hands it over. */
function agentContext(runId: string) {
  const { traceId, spanId } = traceFor(runId);
  return { traceId, spanId, context: trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true }) };
}

const clock = (...readings: number[]) => {
  let index = 0;
  return () => readings[Math.min(index++, readings.length - 1)]!;
};

describe('scoreRunEvent', () => {
  it('scores inside a child span of the propagated agent span and records { traceId, parentSpanId, spanId }', async () => {
    const agent = agentContext('run-1');
    const facts = runFacts({ runId: 'run-1', trace: true });
    const { records, decisions } = await scoreRunEvent(facts, { bindings: bindings({ scorer: scored, version: '2' }), parentContext: agent.context, tracer });
    expect(decisions).toEqual([]);
    expect(records).toHaveLength(1);
    const [span] = exporter.getFinishedSpans();
    // A code scorer starts no span: its score is an evaluation event on the run's shared span.
    expect(span!.name).toBe('score run');
    expect(span!.spanContext().traceId).toBe(agent.traceId);
    expect(span!.parentSpanContext?.spanId).toBe(agent.spanId);
    expect(span!.parentSpanContext?.traceId).toBe(agent.traceId);
    expect(span!.attributes).toEqual({ 'scorestream.run.id': 'run-1' });
    expect(span!.events.map((event) => [event.name, event.attributes])).toEqual([
      ['gen_ai.evaluation.result', { 'gen_ai.evaluation.name': 'answer-quality', 'gen_ai.evaluation.score.value': 0.75, 'scorestream.score_id': records[0]!.scoreId, 'scorestream.scorer.version': '2' }],
    ]);
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    expect(records[0]!.trace).toEqual({ traceId: agent.traceId, parentSpanId: agent.spanId, spanId: span!.spanContext().spanId });
    expect(records[0]).toMatchObject({ status: 'scored', score: 0.75, scorerName: 'Answer quality', scorerVersion: '2', source });
    expect(parseScoreRecord(records[0]).success).toBe(true);
  });

  it('starts a root span without a propagated parent, and records no parentSpanId', async () => {
    const facts = runFacts({ runId: 'run-2' });
    const { records } = await scoreRunEvent(facts, { bindings: bindings({ scorer: scored }), tracer });
    const [span] = exporter.getFinishedSpans();
    expect(span!.parentSpanContext).toBeUndefined();
    expect(records[0]!.trace).toEqual({ traceId: span!.spanContext().traceId, spanId: span!.spanContext().spanId });
    expect(records[0]!.trace).not.toHaveProperty('parentSpanId');
  });

  it('records only the agent trace when the tracer does not record (no SDK running)', async () => {
    const agent = agentContext('run-3');
    const { records } = await scoreRunEvent(runFacts({ runId: 'run-3', trace: true }), { bindings: bindings({ scorer: scored }), parentContext: agent.context });
    // A no-op span carries its parent's ids: reporting them as the score span would be wrong.
    expect(records[0]!.trace).toEqual({ traceId: agent.traceId, parentSpanId: agent.spanId });
  });

  it('records no trace at all without a propagated context and without a recording tracer', async () => {
    const { records } = await scoreRunEvent(runFacts({ runId: 'run-3' }), { bindings: bindings({ scorer: scored }) });
    expect(records[0]).not.toHaveProperty('trace');
    expect(parseScoreRecord(records[0]).success).toBe(true);
  });

  it('marks the span of a failed scorer as ERROR with the exception, and still publishes a failed record', async () => {
    const agent = agentContext('run-4');
    const { records } = await scoreRunEvent(runFacts({ runId: 'run-4', trace: true }), { bindings: bindings({ scorer: tracedThrowing }), parentContext: agent.context, tracer });
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('score always-throws');
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'the analyzer exploded' });
    expect(span!.attributes).toMatchObject({ 'scorestream.status': 'failed', 'scorestream.failed_step': 'analyze' });
    expect(span!.events.find((event) => event.name === 'exception')?.attributes).toMatchObject({ 'exception.message': 'the analyzer exploded' });
    expect(records[0]).toMatchObject({ status: 'failed', error: { failedStep: 'analyze', message: 'the analyzer exploded' } });
    expect(records[0]!.trace?.parentSpanId).toBe(agent.spanId);
    expect(parseScoreRecord(records[0]).success).toBe(true);
  });

  it('marks the shared span ERROR naming the failed code scorer, beside the others\' evaluations', async () => {
    const agent = agentContext('run-4b');
    const { records } = await scoreRunEvent(runFacts({ runId: 'run-4b', trace: true }), { bindings: bindings({ scorer: scored }, { scorer: throwing }), parentContext: agent.context, tracer });
    const [span] = exporter.getFinishedSpans();
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    expect(span!.name).toBe('score run');
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'always-throws failed in analyze: the analyzer exploded' });
    expect(span!.events.find((event) => event.name === 'exception')?.attributes).toMatchObject({ 'exception.message': 'always-throws failed in analyze: the analyzer exploded' });
    expect(span!.events.filter((event) => event.name === 'gen_ai.evaluation.result').map((event) => event.attributes?.['gen_ai.evaluation.name']).sort()).toEqual(['always-throws', 'answer-quality']);
    // Both records name the shared span.
    for (const record of records) expect(record.trace).toEqual({ traceId: agent.traceId, parentSpanId: agent.spanId, spanId: span!.spanContext().spanId });
  });

  it('ends the span of a not-scorable run without an error', async () => {
    const { records } = await scoreRunEvent(runFacts({ runId: 'run-5' }), { bindings: bindings({ scorer: tracedRefusing }), tracer });
    const [span] = exporter.getFinishedSpans();
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    expect(span!.attributes).toMatchObject({ 'scorestream.status': 'not_scorable', 'scorestream.not_scorable.step': 'preprocess' });
    expect(records[0]).toMatchObject({ status: 'not_scorable', notScorable: { step: 'preprocess', reason: 'not a refund' } });
  });

  it('adds the GenAI gen_ai.evaluation.result event to each score span; the explanation only when inputs are recorded', async () => {
    const reasoned = createScorer({ id: 'polite', description: 'd' })
      .generateScore(() => 0.9)
      .generateReason(() => 'says please');
    await scoreRunEvent(runFacts({ runId: 'run-eval' }), { bindings: bindings({ scorer: reasoned }, { scorer: refusing }, { scorer: throwing }), tracer });
    const eventOf = (scorerId: string) =>
      exporter
        .getFinishedSpans()
        .flatMap((span) => span.events)
        .find((event) => event.name === 'gen_ai.evaluation.result' && event.attributes?.['gen_ai.evaluation.name'] === scorerId)?.attributes;
    const scoreId = expect.any(String);
    expect(eventOf('polite')).toEqual({ 'gen_ai.evaluation.name': 'polite', 'gen_ai.evaluation.score.value': 0.9, 'scorestream.score_id': scoreId });
    expect(eventOf('refund-only')).toEqual({ 'gen_ai.evaluation.name': 'refund-only', 'gen_ai.evaluation.score.label': 'not_scorable', 'gen_ai.evaluation.explanation': 'preprocess: not a refund', 'scorestream.score_id': scoreId });
    expect(eventOf('always-throws')).toMatchObject({ 'gen_ai.evaluation.score.label': 'failed', 'gen_ai.evaluation.explanation': 'analyze: the analyzer exploded' });
    exporter.reset();
    await scoreRunEvent(runFacts({ runId: 'run-eval-2' }), { bindings: bindings({ scorer: reasoned }, { scorer: tracedScored }), tracer, services: { recordInputs: true } });
    expect(eventOf('polite')).toEqual({ 'gen_ai.evaluation.name': 'polite', 'gen_ai.evaluation.score.value': 0.9, 'gen_ai.evaluation.explanation': 'says please', 'scorestream.score_id': scoreId });
    // A scorer with its own span carries its event there.
    const own = exporter.getFinishedSpans().find((span) => span.name === 'score traced')!;
    expect(own.events.map((event) => event.attributes)).toEqual([{ 'gen_ai.evaluation.name': 'traced', 'gen_ai.evaluation.score.value': 0.25 }]);
  });

  it('returns a record per eligible binding and a valid decision per skipped one', async () => {
    const agent = agentContext('run-2');
    const facts = runFacts({ runId: 'run-2', trace: true, requestContext: { tier: 'free' } });
    const bucket = samplingBucket(agent.traceId);
    const all = bindings(
      { scorer: scored },
      { scorer: sameName, filter: { op: 'eq', left: { path: 'requestContext.tier' }, right: { literal: 'gold' } } },
      { scorer: refusing, sampling: { type: 'ratio', rate: 0 } },
      { scorer: throwing, version: '9', when: () => false },
    );
    const { records, decisions } = await scoreRunEvent(facts, { bindings: all, parentContext: agent.context, tracer, now: () => Date.parse('2026-11-29T12:00:05.000Z') });
    expect(records.map((record) => record.scorerId)).toEqual(['answer-quality']);
    // Every decision names the run's agent and tenant (the dashboard splits skips by both).
    const run = { entity: { type: 'agent', id: 'support-agent', name: 'Support agent' }, metadata: { tenantId: 'acme' } };
    expect(decisions).toEqual([
      { schemaVersion: 1, runId: 'run-2', scorerId: 'tone', ...run, decision: 'skipped', reason: 'filter', trace: { traceId: agent.traceId, parentSpanId: agent.spanId }, source, decidedAt: '2026-11-29T12:00:05.000Z' },
      {
        schemaVersion: 1,
        runId: 'run-2',
        scorerId: 'refund-only',
        ...run,
        decision: 'skipped',
        reason: 'sampling',
        sampling: { rate: 0, bucket },
        trace: { traceId: agent.traceId, parentSpanId: agent.spanId },
        source,
        decidedAt: '2026-11-29T12:00:05.000Z',
      },
      { schemaVersion: 1, runId: 'run-2', scorerId: 'always-throws', scorerVersion: '9', ...run, decision: 'skipped', reason: 'when', trace: { traceId: agent.traceId, parentSpanId: agent.spanId }, source, decidedAt: '2026-11-29T12:00:05.000Z' },
    ]);
    for (const decision of decisions) expect(parseDecisionRecord(decision).success).toBe(true);
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['score run']);
  });

  it('records the sampling decision on the span and the record of a sampled-in run', async () => {
    const { records } = await scoreRunEvent(runFacts({ runId: 'run-3' }), { bindings: bindings({ scorer: scored, sampling: { type: 'ratio', rate: 0.5 } }), tracer });
    const bucket = samplingBucket('run-3');
    expect(records[0]!.sampling).toEqual({ rate: 0.5, bucket });
    expect(exporter.getFinishedSpans()[0]!.events[0]!.attributes).toMatchObject({ 'scorestream.sampling.rate': 0.5, 'scorestream.sampling.bucket': bucket });
    exporter.reset();
    await scoreRunEvent(runFacts({ runId: 'run-3' }), { bindings: bindings({ scorer: tracedScored, sampling: { type: 'ratio', rate: 0.5 } }), tracer });
    expect(exporter.getFinishedSpans()[0]!.attributes).toMatchObject({ 'scorestream.sampling.rate': 0.5, 'scorestream.sampling.bucket': bucket });
  });

  it('names the scorer only when its name differs from its id', async () => {
    const { records } = await scoreRunEvent(runFacts({ runId: 'run-1' }), { bindings: bindings({ scorer: scored }, { scorer: sameName }), tracer });
    expect(records[0]!.scorerName).toBe('Answer quality');
    expect(records[1]).not.toHaveProperty('scorerName');
  });

  it('takes scoredAt and durationMs from the injected clock', async () => {
    const start = Date.parse('2026-11-29T12:00:00.000Z');
    const { records } = await scoreRunEvent(runFacts({ runId: 'run-1' }), { bindings: bindings({ scorer: scored }), tracer, now: clock(start, start + 42.4) });
    expect(records[0]).toMatchObject({ scoredAt: '2026-11-29T12:00:00.042Z', durationMs: 42 });
  });

  it('links every score span to the given links', async () => {
    const link = { context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED } };
    await scoreRunEvent(runFacts({ runId: 'run-1' }), { bindings: bindings({ scorer: scored }, { scorer: sameName }), tracer, links: [link] });
    for (const span of exporter.getFinishedSpans()) expect(span.links.map((each) => each.context.spanId)).toEqual(['b'.repeat(16)]);
  });

  it('hands each scorer the live-scoring input: agent run id, flattened request context, target anchors', async () => {
    const seen: Record<string, unknown>[] = [];
    const spy = handMadeScorer('spy', async (input) => {
      seen.push(input);
      return { score: 1 };
    });
    const agent = agentContext('run-6');
    await scoreRunEvent(runFacts({ runId: 'run-6', trace: true, requestContext: { user: { tier: 'gold' } } }), { bindings: bindings({ scorer: spy }), parentContext: agent.context, tracer });
    expect(seen[0]).toMatchObject({
      runId: 'run-6',
      requestContext: { tenantId: 'acme', tier: 'gold', 'user.tier': 'gold' },
      scoreSource: 'live',
      targetTraceId: agent.traceId,
      targetSpanId: agent.spanId,
      entityType: 'AGENT',
      source: 'LIVE',
    });
  });

  it("hands a run's `missing` to the scorers and carries it on the record: a scorer that needs the part says why it is absent", async () => {
    const facts = runFacts({ runId: 'run-7' });
    const missing = [{ part: 'answer' as const, reason: "no final answer in the spans of the run ('invoke_agent a', 'chat m' ×2)" }];
    const withMissing = { ...facts, event: { ...facts.event, output: [], missing } };
    const { records } = await scoreRunEvent(withMissing, { bindings: bindings({ scorer: createCompletenessScorer() }), tracer });
    expect(records[0]).toMatchObject({ status: 'not_scorable', missing, notScorable: { step: 'preprocess', reason: expect.stringContaining("no final answer in the spans of the run ('invoke_agent a', 'chat m' ×2)") } });
    expect(parseScoreRecord(records[0]).success).toBe(true);
  });

  it('runs the eligible scorers concurrently', async () => {
    const gates = [deferred<unknown>(), deferred<unknown>()];
    const started: string[] = [];
    const gated = (id: string, gate: (typeof gates)[number]): ScorerLike =>
      handMadeScorer(id, () => {
        started.push(id);
        return gate.promise;
      });
    const scoring = scoreRunEvent(runFacts({ runId: 'run-1' }), { bindings: bindings({ scorer: gated('first', gates[0]!) }, { scorer: gated('second', gates[1]!) }), tracer });
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['first', 'second']);
    gates[1]!.resolve({ score: 0.2 });
    gates[0]!.resolve({ score: 0.1 });
    const { records } = await scoring;
    expect(records.map((record) => [record.scorerId, record.status === 'scored' && record.score])).toEqual([
      ['first', 0.1],
      ['second', 0.2],
    ]);
  });
});
