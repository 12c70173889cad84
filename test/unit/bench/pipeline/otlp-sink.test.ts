import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, describe, expect, it } from 'vitest';
import { countOtlpProtoSpans, startOtlpSink } from '../../../../bench/pipeline/otlp-sink.ts';

/** Spans of two resources and three scopes, with attributes of every kind, events, links and an error status: what a walk must step over. */
async function recordedSpans(): Promise<ReadableSpan[]> {
  const spans: ReadableSpan[] = [];
  for (const service of ['scorestream', 'agent']) {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({ resource: resourceFromAttributes({ 'service.name': service, 'host.arch': ['x64', 'arm64'] }), spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    for (const scope of ['scorestream', 'scorestream.scorer']) {
      const tracer = provider.getTracer(scope, '1.0.0');
      for (let index = 0; index < 40; index += 1) {
        const span = tracer.startSpan(`score scorer-${index} ✓ ${'x'.repeat(index * 7)}`, { links: index % 3 === 0 ? [{ context: { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 }, attributes: { why: 'retry' } }] : [] });
        span.setAttributes({ 'scorestream.run.id': `run-${index}`, 'scorestream.score': index / 40, 'scorestream.calls': index, ok: index % 2 === 0, tags: ['a', 'b'], big: 'é'.repeat(200) });
        span.addEvent('gen_ai.evaluation.result', { 'gen_ai.evaluation.name': `scorer-${index}`, 'gen_ai.evaluation.score.value': 0.5 });
        if (index % 5 === 0) span.setStatus({ code: 2, message: 'failed: judge timed out' });
        span.end();
      }
      if (scope === 'scorestream') tracer.startSpan('no attributes at all').end();
    }
    await provider.forceFlush();
    spans.push(...exporter.getFinishedSpans());
  }
  return spans;
}

/** A request whose one span is bytes no decoder reads (a tag of wire type 7): its structure holds, its span does not. */
const UNREADABLE_SPAN = Uint8Array.from([0x0a, 7, 0x12, 5, 0x12, 3, 0x0f, 0x0f, 0x0f]);

describe('the benchmark OTLP sink', () => {
  const sinkStarted = startOtlpSink();
  afterAll(async () => (await sinkStarted).close());

  it('counts the spans of a request by walking it, as many as the SDK serialised, over resources and scopes', async () => {
    const spans = await recordedSpans();
    expect(spans.length).toBe(2 * (2 * 40 + 1));
    const body = ProtobufTraceSerializer.serializeRequest(spans)!;
    expect(countOtlpProtoSpans(body)).toBe(spans.length);
    expect(countOtlpProtoSpans(ProtobufTraceSerializer.serializeRequest(spans.slice(0, 1))!)).toBe(1);
    expect(countOtlpProtoSpans(new Uint8Array())).toBe(0);
  });

  it('refuses bytes that are no request rather than counting what it cannot see', async () => {
    const body = ProtobufTraceSerializer.serializeRequest(await recordedSpans())!;
    expect(() => countOtlpProtoSpans(body.subarray(0, body.length - 10))).toThrow(RangeError);
    expect(() => countOtlpProtoSpans(new TextEncoder().encode('{"resourceSpans":[]}'))).toThrow();
    // What a walk cannot see, and why the sink decodes a sample of the bodies too.
    expect(countOtlpProtoSpans(UNREADABLE_SPAN)).toBe(1);
  });

  it('counts what it received over HTTP: nothing of a body that is no request, nor of a checked body a decoder refuses', async () => {
    const sink = await sinkStarted;
    const spans = await recordedSpans();
    const body = ProtobufTraceSerializer.serializeRequest(spans)!;
    const truncated = body.subarray(0, body.length - 10);
    const post = async (bytes: Uint8Array) => expect((await fetch(sink.url, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body: bytes })).status).toBe(200);
    await post(UNREADABLE_SPAN); // the first body is decoded too
    await post(body);
    await post(truncated);
    expect(sink.received()).toEqual({ requests: 3, bytes: UNREADABLE_SPAN.length + body.length + truncated.length, spans: spans.length });
  });
});
