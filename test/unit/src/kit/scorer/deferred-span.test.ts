// DeferredSpan: the real span starts at the first use (a read of its span context, a write, a
// question whether it records), once; never used, nothing starts and end() does nothing; its trace
// id is known from the parent without starting it.
import { describe, expect, it, vi } from 'vitest';
import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { DeferredSpan } from '../../../../../src/kit/scorer/deferred-span.ts';

const exporter = new InMemorySpanExporter();
const tracer = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }).getTracer('deferred');
const parent = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED, isRemote: true };

function deferred(withParent = true) {
  const start = vi.fn(() => tracer.startSpan('score x', {}, withParent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT));
  return { start, span: new DeferredSpan(start, withParent ? parent : undefined) };
}

describe('DeferredSpan', () => {
  it('starts nothing until used, and ending it unused exports nothing', () => {
    exporter.reset();
    const { start, span } = deferred();
    expect(span.knownTraceId()).toBe(parent.traceId);
    span.end();
    expect(start).not.toHaveBeenCalled();
    expect(span.started).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it.each([
    ['spanContext', (span: DeferredSpan) => span.spanContext()],
    ['setAttribute', (span: DeferredSpan) => span.setAttribute('a', 1)],
    ['addEvent', (span: DeferredSpan) => span.addEvent('e')],
    ['isRecording', (span: DeferredSpan) => span.isRecording()],
    ['recordException', (span: DeferredSpan) => span.recordException(new Error('x'))],
  ])('starts the real span once, on %s', (_name, use) => {
    exporter.reset();
    const { start, span } = deferred();
    use(span);
    use(span);
    expect(start).toHaveBeenCalledTimes(1);
    span.end();
    const [finished] = exporter.getFinishedSpans();
    expect(finished!.parentSpanContext?.spanId).toBe(parent.spanId);
    expect(span.knownTraceId()).toBe(parent.traceId);
  });

  it('knows no trace id for a root span it has not started, and the new one once started', () => {
    const { span } = deferred(false);
    expect(span.knownTraceId()).toBeUndefined();
    const traceId = span.spanContext().traceId;
    expect(span.knownTraceId()).toBe(traceId);
  });

  it('once sealed never starts: a late use gets a non-recording stand-in for the parent, so late spans go under the agent span', () => {
    exporter.reset();
    const { start, span } = deferred();
    span.seal();
    expect(span.isRecording()).toBe(false);
    expect(span.spanContext()).toMatchObject({ traceId: parent.traceId, spanId: parent.spanId });
    span.setAttribute('late', true);
    span.end();
    expect(start).not.toHaveBeenCalled();
    expect(span.started).toBeUndefined();
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('once started, sealing changes nothing: the real span is still the one used and ended', () => {
    exporter.reset();
    const { start, span } = deferred();
    const real = span.spanContext();
    span.seal();
    expect(span.spanContext()).toBe(real);
    span.end();
    expect(start).toHaveBeenCalledTimes(1);
    expect(exporter.getFinishedSpans()).toHaveLength(1);
  });
});
