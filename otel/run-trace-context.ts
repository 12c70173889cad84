// The agent run's trace context, taken from the Kafka message: W3C traceparent/tracestate/
// baggage headers first, else the event's `trace` body field (for producers that cannot set
// headers). Uses W3C propagators directly rather than the global one, because sampling and
// the records' trace ids need the context even when no OpenTelemetry SDK is running.
// Never throws: a missing or malformed header means "no parent".
import { defaultTextMapGetter, isSpanContextValid, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import type { Context } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { IHeaders } from 'kafkajs';
import type { RunTraceFacts } from '../src/pipeline/run-facts.ts';
import { kafkaHeaderGetter } from './kafka-headers.ts';

const w3c = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });

export type RunTraceContext = { context: Context; facts: RunTraceFacts };

function factsOf(context: Context): RunTraceFacts | undefined {
  const spanContext = trace.getSpanContext(context);
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return undefined;
  return {
    traceId: spanContext.traceId,
    spanId: spanContext.spanId,
    sampled: (spanContext.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED,
  };
}

export function extractRunTraceContext(headers: IHeaders | undefined, bodyTrace?: { traceparent: string; tracestate?: string }): RunTraceContext {
  try {
    if (headers !== undefined) {
      const context = w3c.extract(ROOT_CONTEXT, headers, kafkaHeaderGetter);
      const facts = factsOf(context);
      if (facts !== undefined) return { context, facts };
    }
    if (bodyTrace !== undefined) {
      const context = w3c.extract(ROOT_CONTEXT, { ...bodyTrace }, defaultTextMapGetter);
      const facts = factsOf(context);
      if (facts !== undefined) return { context, facts };
    }
  } catch {
    // A carrier that cannot be read is the same as no carrier.
  }
  return { context: ROOT_CONTEXT, facts: {} };
}
