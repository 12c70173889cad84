// The span contract (docs/observability.md): a judge scorer's `score {scorerId}` span is the parent
// of its prompt step and judge spans; the code scorers of the same run share one `score run` span,
// ended with the run's last binding at the time the last of them finished; with codeScores
// 'log-records' the code scorers have no span and their records no span id. Real SDK, in-memory
// exporter, a context manager as the service registers.
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scoreRunEvent as outcomesOf } from '../../../../../src/engine/pipeline/score-run-event.ts';
import { settleOutcomes } from '../../../../../src/engine/pipeline/scoring-outcome.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import { judgeScorer } from '../../../../fixtures/scorers.ts';
import { traceFor } from '../../../../helpers/runs.ts';
import { bindings, runFacts } from './fixtures.ts';

const scoreRunEvent = (...args: Parameters<typeof outcomesOf>) => settleOutcomes(outcomesOf(...args));
const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const tracer = provider.getTracer('span-contract');

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  // Step spans come from the global tracer (src/kit/scorer/step-span.ts).
  trace.setGlobalTracerProvider(provider);
});
afterAll(() => {
  context.disable();
  trace.disable();
});
afterEach(() => {
  exporter.reset();
});

const lengthScorer = createScorer({ id: 'length', description: 'd' }).generateScore(({ run }) => (JSON.stringify(run.output).length > 10 ? 1 : 0));
const politeScorer = createScorer({ id: 'polite', description: 'd' }).generateScore(() => 0.5);

function agent(runId: string) {
  const { traceId, spanId } = traceFor(runId);
  return { traceId, spanId, context: trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true }) };
}

describe('the span contract', () => {
  it('gives a judge scorer its own span over its judge spans, and the code scorers one shared span, all under the agent span', async () => {
    const parent = agent('contract-1');
    const judge = judgeScorer('judge', mockJudge({ answer: { score: 0.75 }, delayMs: 30 }));
    const { records } = await scoreRunEvent(runFacts({ runId: 'contract-1', trace: true }), {
      bindings: bindings({ scorer: lengthScorer }, { scorer: judge }, { scorer: politeScorer }),
      parentContext: parent.context,
      tracer,
    });
    const spans = exporter.getFinishedSpans();
    const byName = (name: string) => spans.filter((span) => span.name === name);
    const [shared] = byName('score run');
    const [judgeSpan] = byName('score judge');
    expect(byName('score length')).toEqual([]);
    expect(byName('score polite')).toEqual([]);
    expect(shared!.parentSpanContext?.spanId).toBe(parent.spanId);
    expect(judgeSpan!.parentSpanContext?.spanId).toBe(parent.spanId);
    // The judge's prompt step span and the model's spans nest under its score span.
    const step = spans.find((span) => span.parentSpanContext?.spanId === judgeSpan!.spanContext().spanId);
    expect(step?.name).toBe('generateScore');
    expect(shared!.events.map((event) => event.attributes?.['gen_ai.evaluation.name']).sort()).toEqual(['length', 'polite']);
    expect(judgeSpan!.events.map((event) => event.attributes?.['gen_ai.evaluation.name'])).toEqual(['judge']);
    // Every record points at the span that holds its score.
    const spanIdOf = (scorerId: string) => records.find((record) => record.scorerId === scorerId)!.trace?.spanId;
    expect(spanIdOf('length')).toBe(shared!.spanContext().spanId);
    expect(spanIdOf('polite')).toBe(shared!.spanContext().spanId);
    expect(spanIdOf('judge')).toBe(judgeSpan!.spanContext().spanId);
    // The shared span lasts as long as the code scorers did, not as long as the judge (30 ms), though it ends with the run's last binding.
    const millis = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;
    expect(millis(shared!.endTime)).toBeLessThan(millis(judgeSpan!.endTime) - 15);
    expect(millis(shared!.endTime)).toBeGreaterThanOrEqual(millis(shared!.startTime));
  });

  it("with codeScores 'log-records' gives code scorers no span and their records no span id; a judge keeps its span", async () => {
    const parent = agent('contract-2');
    const judge = judgeScorer('judge', mockJudge({ answer: { score: 0.25 } }));
    const { records } = await scoreRunEvent(runFacts({ runId: 'contract-2', trace: true }), {
      bindings: bindings({ scorer: lengthScorer }, { scorer: judge }),
      parentContext: parent.context,
      tracer,
      codeScores: 'log-records',
    });
    const names = exporter.getFinishedSpans().map((span) => span.name);
    expect(names).toContain('score judge');
    expect(names.filter((name) => name === 'score run' || name === 'score length')).toEqual([]);
    expect(records.find((record) => record.scorerId === 'length')!.trace).toEqual({ traceId: parent.traceId, parentSpanId: parent.spanId });
    expect(records.find((record) => record.scorerId === 'judge')!.trace?.spanId).toEqual(expect.any(String));
  });

  it("starts a code scorer's own span when its step traces something of its own, with the time the scorer started", async () => {
    const parent = agent('contract-3');
    const before = Date.now();
    const spanning = createScorer({ id: 'spanning', description: 'd' })
      .preprocess(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        trace.getTracer('user-code').startSpan('lookup').end();
        return {};
      })
      .generateScore(() => 1);
    const { records } = await scoreRunEvent(runFacts({ runId: 'contract-3', trace: true }), { bindings: bindings({ scorer: spanning }), parentContext: parent.context, tracer });
    const spans = exporter.getFinishedSpans();
    const own = spans.find((span) => span.name === 'score spanning')!;
    expect(spans.map((span) => span.name)).not.toContain('score run');
    expect(own.startTime[0] * 1000 + own.startTime[1] / 1e6).toBeLessThan(before + 20);
    expect(records[0]!.trace?.spanId).toBe(own.spanContext().spanId);
  });

  it('hands a code scorer the trace id of the run without starting a span (scoreTraceId)', async () => {
    const parent = agent('contract-4');
    let seen: unknown;
    const reading = createScorer({ id: 'reading', description: 'd' }).generateScore(({ run }) => {
      seen = (run as { scoreTraceId?: string }).scoreTraceId;
      return 1;
    });
    await scoreRunEvent(runFacts({ runId: 'contract-4', trace: true }), { bindings: bindings({ scorer: reading }), parentContext: parent.context, tracer });
    expect(seen).toBe(parent.traceId);
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['score run']);
  });

  it('puts what a code scorer leaves running after its run under the agent span, never on a score span nobody ends', async () => {
    const parent = agent('contract-5');
    let late: Promise<void> | undefined;
    const leaving = createScorer({ id: 'leaving', description: 'd' }).generateScore(() => {
      late = new Promise((resolve) =>
        setTimeout(() => {
          trace.getTracer('user-code').startSpan('late work').end();
          resolve();
        }, 20),
      );
      return 1;
    });
    await scoreRunEvent(runFacts({ runId: 'contract-5', trace: true }), { bindings: bindings({ scorer: leaving }), parentContext: parent.context, tracer });
    await late;
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name).sort()).toEqual(['late work', 'score run']);
    expect(spans.find((span) => span.name === 'late work')!.parentSpanContext?.spanId).toBe(parent.spanId);
  });
});
