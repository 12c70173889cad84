// The trace context of a message, built once in two stages: the headers' context and the
// consumer's process span linked to it (before decoding), then the body's fallback with its link
// (after decoding). Spans are captured on a tracer passed in (no global registration).
import { SpanKind, trace } from '@opentelemetry/api';
import type { Span } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { runTraceContext, startMessageTrace, untracedMessage } from '../../../consumers/message-trace.ts';
import type { AgentRunEvent } from '../../../src/kit/contracts/agent-run-event.ts';
import { traceFor } from '../../helpers/runs.ts';
import { consumedMessage, source } from './message-fixtures.ts';

const exporter = new InMemorySpanExporter();
const tracer = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }).getTracer('unit');
const where = { topic: source.topic, partition: source.partition, groupId: 'scorers' };
const inHeaders = traceFor('from-headers');
const inBody = traceFor('from-body');
const event = (bodyTrace?: { traceparent: string }) => ({ runId: 'run-1', trace: bodyTrace }) as unknown as AgentRunEvent;

afterEach(() => exporter.reset());

function ended(span: Span) {
  span.end();
  return exporter.getFinishedSpans().at(-1)!;
}

describe('startMessageTrace', () => {
  it("starts the consumer's root process span, linked to the headers' context, with the messaging attributes", () => {
    const message = consumedMessage({ key: 'run-1', value: '{}', headers: { traceparent: inHeaders.traceparent } });
    const messageTrace = startMessageTrace(tracer, message, where);
    expect(messageTrace.fromHeaders).toMatchObject({ source: 'headers', facts: { traceId: inHeaders.traceId, spanId: inHeaders.spanId, sampled: true } });
    const span = ended(messageTrace.span);
    expect(span.name).toBe('process agent-runs');
    expect(span.kind).toBe(SpanKind.CONSUMER);
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().traceId).not.toBe(inHeaders.traceId);
    expect(span.links.map((link) => link.context.spanId)).toEqual([inHeaders.spanId]);
    expect(span.attributes).toEqual({
      'messaging.system': 'kafka',
      'messaging.operation.name': 'process',
      'messaging.operation.type': 'process',
      'messaging.destination.name': 'agent-runs',
      'messaging.destination.partition.id': '3',
      'messaging.kafka.offset': 17,
      'messaging.consumer.group.name': 'scorers',
      'messaging.kafka.message.key': 'run-1',
      'messaging.message.body.size': 2,
    });
  });

  it('links nothing and leaves key and size out when the message has none', () => {
    const span = ended(startMessageTrace(tracer, consumedMessage({ value: null }), where).span);
    expect(span.links).toEqual([]);
    expect(span.attributes).not.toHaveProperty('messaging.kafka.message.key');
    expect(span.attributes).not.toHaveProperty('messaging.message.body.size');
  });
});

describe('runTraceContext', () => {
  it("keeps the headers' context when they had one, whatever the body says, and links nothing more", () => {
    const messageTrace = startMessageTrace(tracer, consumedMessage({ value: '{}', headers: { traceparent: inHeaders.traceparent } }), where);
    const context = runTraceContext(messageTrace, event({ traceparent: inBody.traceparent }));
    expect(context).toBe(messageTrace.fromHeaders);
    expect(ended(messageTrace.span).links).toHaveLength(1);
  });

  it("falls back to the body's trace and links the process span to it", () => {
    const messageTrace = startMessageTrace(tracer, consumedMessage({ value: '{}' }), where);
    const context = runTraceContext(messageTrace, event({ traceparent: inBody.traceparent }));
    expect(context).toMatchObject({ source: 'body', facts: { traceId: inBody.traceId, spanId: inBody.spanId, sampled: true } });
    expect(trace.getSpanContext(context.context)?.spanId).toBe(inBody.spanId);
    expect(ended(messageTrace.span).links.map((link) => link.context.spanId)).toEqual([inBody.spanId]);
  });

  it('has no parent when neither headers nor body bring one', () => {
    const messageTrace = untracedMessage(consumedMessage({ value: '{}' }));
    expect(runTraceContext(messageTrace, event())).toEqual({ context: messageTrace.fromHeaders.context, facts: {} });
  });

  it('works without a process span (untracedMessage), and does not touch a span that does not record', () => {
    expect(runTraceContext(untracedMessage(consumedMessage({ value: '{}' })), event({ traceparent: inBody.traceparent })).facts.traceId).toBe(inBody.traceId);
    const links: unknown[] = [];
    const silent = { isRecording: () => false, addLink: (link: unknown) => void links.push(link) } as unknown as Span;
    runTraceContext({ span: silent, fromHeaders: untracedMessage(consumedMessage({ value: '{}' })).fromHeaders }, event({ traceparent: inBody.traceparent }));
    expect(links).toEqual([]);
  });
});
