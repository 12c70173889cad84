// Span redaction through the tracer provider wrapper, asserted on what an in-memory exporter
// receives: attributes, events, exceptions, status messages and links, for spans started with
// startSpan and startActiveSpan; non-recording spans handed out untouched; parentage kept.
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { describe, expect, it } from 'vitest';
import { redactingTracerProvider, rememberingRedactor } from '../../../otel/redacting-tracer.ts';
import { createRedactor } from '../../../src/engine/data-handling/create-redactor.ts';
import { redactionSchema } from '../../../src/engine/data-handling/redaction-schema.ts';

const address = 'alice@example.com';

function setUp() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const tracer = redactingTracerProvider(provider, createRedactor(redactionSchema.parse({}))).getTracer('test');
  return { exporter, tracer };
}

describe('redactingTracerProvider', () => {
  it('redacts every string a span is given before the exporter sees it', () => {
    const { exporter, tracer } = setUp();
    const span = tracer.startSpan(`score for ${address}`, { attributes: { 'start.note': address } });
    span.setAttribute('scorestream.judge.prompt', `Rate the answer to ${address}`);
    span.setAttributes({ tags: ['plain', `to:${address}`], count: 3 });
    span.addEvent('gen_ai.evaluation.result', { 'gen_ai.evaluation.explanation': `mentions ${address}` });
    span.recordException(new Error(`cannot parse ${address}`));
    span.recordException(`string exception for ${address}`);
    span.setStatus({ code: 2, message: `failed for ${address}` });
    span.addLink({ context: { traceId: '0'.repeat(31) + '1', spanId: '0'.repeat(15) + '1', traceFlags: TraceFlags.SAMPLED }, attributes: { why: address } });
    span.end();
    const [exported] = exporter.getFinishedSpans();
    expect(JSON.stringify({ name: exported!.name, attributes: exported!.attributes, events: exported!.events, status: exported!.status, links: exported!.links })).not.toContain(address);
    expect(exported!.attributes).toMatchObject({ 'scorestream.judge.prompt': 'Rate the answer to [redacted:email]', tags: ['plain', 'to:[redacted:email]'], count: 3, 'start.note': '[redacted:email]' });
    expect(exported!.events.map((event) => event.attributes?.['exception.message'] ?? event.attributes?.['gen_ai.evaluation.explanation'])).toEqual(['mentions [redacted:email]', 'cannot parse [redacted:email]', 'string exception for [redacted:email]']);
    expect(exported!.events[1]!.attributes?.['exception.type']).toBe('Error');
    expect(exported!.status.message).toBe('failed for [redacted:email]');
  });

  it("keeps the service's id attributes as they are, as records keep their ids", () => {
    const { exporter, tracer } = setUp();
    // An OTLP run id (trace and span id in hex) whose digit run passes the card-number pattern's Luhn check.
    const runId = '0fe6229c4111111111111111efb23fe0-b7ad6b7169203331';
    const span = tracer.startSpan('score completeness', { attributes: { 'scorestream.run.id': runId } });
    span.setAttribute('scorestream.thread.id', `chat-${runId}`);
    span.setAttributes({ 'scorestream.scorer.id': 'card-4111111111111111', 'scorestream.note': runId });
    // An evaluation event names its scorer and its record's score id: ids too; its explanation is content.
    span.addEvent('gen_ai.evaluation.result', { 'gen_ai.evaluation.name': 'card-4111111111111111', 'scorestream.score_id': '4111111111111111-a', 'gen_ai.evaluation.explanation': `for ${address}` });
    span.end();
    const [exported] = exporter.getFinishedSpans();
    expect(exported!.events[0]!.attributes).toEqual({ 'gen_ai.evaluation.name': 'card-4111111111111111', 'scorestream.score_id': '4111111111111111-a', 'gen_ai.evaluation.explanation': 'for [redacted:email]' });
    expect(exported!.attributes).toEqual({
      'scorestream.run.id': runId,
      'scorestream.thread.id': `chat-${runId}`,
      'scorestream.scorer.id': 'card-4111111111111111',
      'scorestream.note': '0fe6229c[redacted:card-number]efb23fe0-b7ad6b7169203331',
    });
  });

  it('redacts spans of startActiveSpan and keeps them the parents of spans started inside', async () => {
    const { exporter, tracer } = setUp();
    const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      tracer.startActiveSpan('outer', (outer) => {
        outer.setAttribute('note', address);
        tracer.startSpan('inner').end();
        outer.end();
      });
    } finally {
      context.disable();
    }
    const spans = exporter.getFinishedSpans();
    const outer = spans.find((span) => span.name === 'outer')!;
    const inner = spans.find((span) => span.name === 'inner')!;
    expect(outer.attributes.note).toBe('[redacted:email]');
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
  });

  it('hands out a non-recording span as it is (nothing stored, nothing to redact)', () => {
    const { tracer } = setUp();
    const unsampledParent = trace.setSpanContext(ROOT_CONTEXT, { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.NONE, isRemote: true });
    const span = tracer.startSpan('child of an unsampled trace', {}, unsampledParent);
    expect(span.isRecording()).toBe(false);
    expect(span.constructor.name).not.toBe('RedactingSpan');
  });

  it('redacts names and keys on every span although it redacts each distinct one only once', () => {
    const { exporter, tracer } = setUp();
    for (let n = 0; n < 3; n += 1) {
      const span = tracer.startSpan(`score for ${address}`);
      span.setAttribute(`note ${address}`, `value ${n} of ${address}`);
      span.end();
    }
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(Array(3).fill('score for [redacted:email]'));
    expect(spans.map((span) => span.attributes)).toEqual([0, 1, 2].map((n) => ({ 'note [redacted:email]': `value ${n} of [redacted:email]` })));
  });

  it('hands out one redacting tracer per tracer of the provider, however often it is looked up', () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    const redacting = redactingTracerProvider(provider, createRedactor(redactionSchema.parse({})));
    // src/kit/scorer/step-span.ts looks its tracer up on every scorer run.
    const first = redacting.getTracer('scorestream.scorer');
    expect(redacting.getTracer('scorestream.scorer')).toBe(first);
    expect(redacting.getTracer('other')).not.toBe(first);
    const span = redacting.getTracer('scorestream.scorer').startSpan('analyze', { kind: 0 });
    span.setAttribute('note', address);
    span.end();
    expect(exporter.getFinishedSpans()[0]!.attributes).toEqual({ note: '[redacted:email]' });
  });
});

describe('rememberingRedactor', () => {
  it('asks the redactor once per distinct short text, up to its limit, and every time past it or for long texts', () => {
    const asked: string[] = [];
    const remembering = rememberingRedactor((text) => {
      asked.push(text);
      return text.toUpperCase();
    }, 2);
    expect(['a', 'b', 'a', 'b', 'c', 'c', 'a'].map(remembering)).toEqual(['A', 'B', 'A', 'B', 'C', 'C', 'A']);
    expect(asked).toEqual(['a', 'b', 'c', 'c']);
    const long = 'x'.repeat(300);
    const other = rememberingRedactor((text) => (asked.push(text), text));
    other(long);
    other(long);
    expect(asked.slice(4)).toEqual([long, long]);
  });
});
