// The W3C extraction of an agent run's trace context from a Kafka message: the traceparent/
// tracestate/baggage headers first, else the event's `trace` body field (for producers that cannot
// set headers). consumers/message-trace.ts puts the two together for each message, once. Uses W3C
// propagators directly rather than the global one, because sampling and
// the records' trace ids need the context even when no OpenTelemetry SDK is running.
// Never throws: a missing or malformed header means "no parent". Baggage from the headers is kept
// even when no span context came along (it is the run's, whatever its trace).
import { createTraceState, defaultTextMapGetter, isSpanContextValid, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { MessageHeaders } from './kafka-headers.ts';
import type { RunTraceFacts } from '../src/engine/pipeline/run-facts.ts';
import { kafkaHeaderGetter } from './kafka-headers.ts';

const w3c = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });

export type RunTraceContext = {
  context: Context;
  facts: RunTraceFacts;
  /** Where the span context came from: the message's headers or body, or a span's own ids (an OTLP agent span, a stored retry); absent when there is none. */
  source?: 'headers' | 'body' | 'span';
};

function factsOf(context: Context): RunTraceFacts | undefined {
  const spanContext = trace.getSpanContext(context);
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return undefined;
  return {
    traceId: spanContext.traceId,
    spanId: spanContext.spanId,
    sampled: (spanContext.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED,
  };
}

/** The headers' part alone: what the consumer knows before the body is decoded (its process span's link). */
export function extractHeaderTraceContext(headers: MessageHeaders | undefined): RunTraceContext {
  if (headers === undefined) return { context: ROOT_CONTEXT, facts: {} };
  try {
    const context = w3c.extract(ROOT_CONTEXT, headers, kafkaHeaderGetter);
    const facts = factsOf(context);
    return facts === undefined ? { context, facts: {} } : { context, facts, source: 'headers' };
  } catch {
    // A carrier that cannot be read is the same as no carrier.
    return { context: ROOT_CONTEXT, facts: {} };
  }
}

/** Falls back to the body's trace when the headers brought no span context (their baggage is kept). */
export function withBodyTraceContext(fromHeaders: RunTraceContext, bodyTrace?: { traceparent: string; tracestate?: string }): RunTraceContext {
  if (fromHeaders.source === 'headers' || bodyTrace === undefined) return fromHeaders;
  try {
    // On top of the header context, so header baggage survives the fallback.
    const withBody = w3c.extract(fromHeaders.context, { ...bodyTrace }, defaultTextMapGetter);
    const facts = factsOf(withBody);
    if (facts !== undefined) return { context: withBody, facts, source: 'body' };
  } catch {
    // An unreadable body trace is no trace.
  }
  return fromHeaders;
}

/**
 * The context of a span known by its ids — an OTLP agent span (the run's trace is its own), or
 * the run of a stored retry — as a remote parent: no header or traceparent text in between.
 */
export function spanTraceContext(span: { traceId?: string | undefined; spanId?: string | undefined; sampled?: boolean | undefined; traceState?: string | undefined }): RunTraceContext {
  if (span.traceId === undefined || span.spanId === undefined) return { context: ROOT_CONTEXT, facts: {} };
  const spanContext = {
    traceId: span.traceId,
    spanId: span.spanId,
    isRemote: true,
    traceFlags: span.sampled === false ? TraceFlags.NONE : TraceFlags.SAMPLED,
    ...(span.traceState === undefined ? {} : { traceState: createTraceState(span.traceState) }),
  };
  if (!isSpanContextValid(spanContext)) return { context: ROOT_CONTEXT, facts: {} };
  return { context: trace.setSpanContext(ROOT_CONTEXT, spanContext), facts: { traceId: span.traceId, spanId: span.spanId, sampled: span.sampled !== false }, source: 'span' };
}
