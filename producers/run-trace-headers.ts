// Trace context for one run's Kafka message. The context comes from, in order: the caller's
// `contextFor(run)`, the run's own `trace` body field, the publish-wide `context`, the active
// context. Headers are written by the globally registered propagator (whatever the application's
// SDK set up, e.g. B3 as well) and then always by a W3C trace-context + baggage propagator, so
// `traceparent` is present even in an application that never started an OpenTelemetry SDK. We
// never register a global propagator ourselves: a library must not change global state.
import { context as otelContext, defaultTextMapGetter, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Context, TextMapPropagator } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { MessageHeaders } from '../otel/kafka-headers.ts';
import { kafkaHeaderSetter } from '../otel/kafka-headers.ts';

export const w3cPropagator: TextMapPropagator = new CompositePropagator({
  propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
});

type RunWithTrace = { trace?: { traceparent: string; tracestate?: string } | undefined };

/** The context a run was produced in, by the precedence above. Never throws. */
export function chooseRunContext(run: RunWithTrace, candidates: { fromCaller?: Context | undefined; publishWide?: Context | undefined }): Context {
  if (candidates.fromCaller !== undefined) return candidates.fromCaller;
  if (run.trace !== undefined) {
    try {
      const carrier: Record<string, string> = { traceparent: run.trace.traceparent };
      if (run.trace.tracestate !== undefined) carrier.tracestate = run.trace.tracestate;
      const fromBody = w3cPropagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
      if (trace.getSpanContext(fromBody) !== undefined) return fromBody;
    } catch {
      // A malformed body trace is no trace; fall through.
    }
  }
  return candidates.publishWide ?? otelContext.active();
}

/** W3C (and any globally configured) propagation headers for the context. Never throws. */
export function traceHeaders(context: Context, propagator: TextMapPropagator = w3cPropagator): MessageHeaders {
  const headers: MessageHeaders = {};
  try {
    propagation.inject(context, headers, kafkaHeaderSetter);
    propagator.inject(context, headers, kafkaHeaderSetter);
  } catch {
    // Telemetry never fails a publish.
  }
  return headers;
}
