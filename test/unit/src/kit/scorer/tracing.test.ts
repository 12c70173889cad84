import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { context, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { registerTelemetry } from 'ai';
import { OpenTelemetry } from '@ai-sdk/otel';
import { z } from 'zod';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { ScorerRunError } from '../../../../../src/kit/scorer/scorer-run-error.ts';
import { mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const tracer = provider.getTracer('test');
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(() => {
  context.disable();
});
afterEach(() => {
  exporter.reset();
  globalThis.AI_SDK_TELEMETRY_INTEGRATIONS = undefined;
});

const schema = z.object({ verdict: z.string(), confidence: z.number() });

function promptScorer(model = mockJudge({ answer: { verdict: 'yes', confidence: 0.5 } })) {
  return createScorer({ id: 'traced', description: 'd', judge: { model, instructions: 'secret instructions' } })
    .preprocess(() => 'pre')
    .analyze({ description: 'Decide', outputSchema: schema, createPrompt: () => 'user content: my password is hunter2' })
    .generateScore(({ results }) => results.analyzeStepResult.confidence);
}

async function inParentSpan<T>(execute: () => Promise<T>): Promise<{ value: T; traceId: string; spanId: string }> {
  return tracer.startActiveSpan('score traced', async (parent) => {
    try {
      const value = await execute();
      return { value, traceId: parent.spanContext().traceId, spanId: parent.spanContext().spanId };
    } finally {
      parent.end();
    }
  });
}

describe('step spans', () => {
  it('runs a prompt step in a child span of the active span and a function step in none, by default', async () => {
    const seen: unknown[] = [];
    const scorer = createScorer({ id: 'traced', description: 'd', judge: { model: mockJudge({ answer: { verdict: 'yes', confidence: 0.5 } }), instructions: 'i' } })
      .preprocess(({ tracingContext }) => void seen.push(tracingContext))
      .analyze({ description: 'Decide', outputSchema: schema, createPrompt: () => 'p' })
      .generateScore(({ results }) => results.analyzeStepResult.confidence);
    const { value: result, traceId, spanId } = await inParentSpan(() => scorer.run({ output: 'o' }, { tracer }));
    const steps = exporter.getFinishedSpans().filter((span) => span.name !== 'score traced');
    expect(steps.map((span) => span.name)).toEqual(['analyze']);
    expect(steps[0]!.parentSpanContext?.spanId).toBe(spanId);
    expect(steps[0]!.attributes['scorestream.step.type']).toBe('prompt');
    // No span of its own, so none to hand the function step.
    expect(seen).toEqual([undefined]);
    expect(result.scoreTraceId).toBe(traceId);
  });

  it('with functionStepSpans runs each step in a child span of the active span, named after the step, with step attributes', async () => {
    const { value: result, traceId, spanId } = await inParentSpan(() => promptScorer().run({ output: 'o' }, { tracer, functionStepSpans: true }));
    const spans = exporter.getFinishedSpans().filter((span) => span.name !== 'score traced');
    const steps = spans.filter((span) => ['preprocess', 'analyze', 'generateScore'].includes(span.name));
    expect(steps.map((span) => span.name)).toEqual(['preprocess', 'analyze', 'generateScore']);
    for (const span of steps) {
      expect(span.spanContext().traceId).toBe(traceId);
      expect(span.parentSpanContext?.spanId).toBe(spanId);
      expect(span.attributes['scorestream.scorer.id']).toBe('traced');
      expect(span.attributes['scorestream.step']).toBe(span.name);
    }
    expect(steps[0]!.attributes['scorestream.step.type']).toBe('function');
    const analyze = steps[1]!;
    expect(analyze.attributes).toMatchObject({
      'scorestream.step.type': 'prompt',
      'scorestream.judge.model_id': 'mock-judge',
      'scorestream.judge.input_tokens': 10,
      'scorestream.judge.output_tokens': 5,
      'scorestream.judge.total_tokens': 15,
    });
    expect(result.scoreTraceId).toBe(traceId);
  });

  it('never records prompts on spans unless the run opts in with recordInputs', async () => {
    await inParentSpan(() => promptScorer().run({ output: 'o' }, { tracer }));
    const quiet = JSON.stringify(exporter.getFinishedSpans().map((span) => span.attributes));
    expect(quiet).not.toContain('hunter2');
    exporter.reset();
    await inParentSpan(() => promptScorer().run({ output: 'o' }, { tracer, recordInputs: true }));
    const analyze = exporter.getFinishedSpans().find((span) => span.name === 'analyze')!;
    expect(analyze.attributes['scorestream.judge.prompt']).toBe('user content: my password is hunter2');
  });

  it('marks a failing step span as ERROR and records the exception by name and message only', async () => {
    const scorer = createScorer({ id: 'traced', description: 'd' })
      .preprocess(() => {
        throw new RangeError('bad input');
      })
      .generateScore(() => 1);
    await inParentSpan(() => scorer.run({ output: 'o' }, { tracer, functionStepSpans: true }).catch((error: unknown) => error)).then(({ value }) =>
      expect(value).toBeInstanceOf(ScorerRunError),
    );
    const span = exporter.getFinishedSpans().find((finished) => finished.name === 'preprocess')!;
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad input' });
    expect(span.events).toHaveLength(1);
    expect(span.events[0]!.attributes).toEqual({ 'exception.type': 'RangeError', 'exception.message': 'bad input' });
  });

  it('has no scoreTraceId key when no span is active', async () => {
    const result = await createScorer({ id: 'x', description: 'd' }).generateScore(() => 1).run({ output: 'o' }, { tracer });
    expect('scoreTraceId' in result).toBe(false);
  });

  it('uses the global tracer when none is injected (no-op without an SDK)', async () => {
    const result = await createScorer({ id: 'x', description: 'd' }).generateScore(() => 1).run({ output: 'o' });
    expect(result.score).toBe(1);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it("nests the AI SDK's own telemetry spans under the prompt step span", async () => {
    registerTelemetry(new OpenTelemetry({ tracer }));
    await inParentSpan(() => promptScorer().run({ output: 'o' }, { tracer }));
    const spans = exporter.getFinishedSpans();
    const analyze = spans.find((span) => span.name === 'analyze')!;
    const sdkSpans = spans.filter((span) => span.parentSpanContext?.spanId === analyze.spanContext().spanId);
    expect(sdkSpans.length).toBeGreaterThan(0);
    const all = JSON.stringify(spans.map((span) => span.attributes));
    expect(all).not.toContain('hunter2');
    expect(all).toContain('scorestream.judge.analyze');
  });
});

describe('default tracer', () => {
  it('follows the registered provider: nothing is recorded into a provider that was replaced (step-span cache regression)', async () => {
    const { trace } = await import('@opentelemetry/api');
    const first = new InMemorySpanExporter();
    const second = new InMemorySpanExporter();
    const scorer = createScorer({ id: 'plain', description: 'd' }).generateScore(() => 1);
    try {
      trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: first })] }));
      await scorer.run({ output: 'x' }, { functionStepSpans: true });
      expect(first.getFinishedSpans().map((span) => span.name)).toEqual(['generateScore']);
      trace.disable();
      trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: second })] }));
      await scorer.run({ output: 'x' }, { functionStepSpans: true });
      expect(first.getFinishedSpans()).toHaveLength(1);
      expect(second.getFinishedSpans().map((span) => span.name)).toEqual(['generateScore']);
    } finally {
      trace.disable();
    }
  });
});
