// Runs a step inside its own child span (named after the step) through @opentelemetry/api only.
// With no SDK registered the span is a non-recording no-op and nothing else is done, so tracing
// costs next to nothing when it is off. Exceptions are recorded by name and message only.
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';
import type { StepName } from '../contracts/scorer-steps.ts';
import { DeferredSpan } from './deferred-span.ts';

/**
 * Looked up on every run, not cached at load: the API's proxy tracer keeps the first SDK tracer it
 * finds, so a cached one would go on recording into a provider that was shut down or replaced.
 */
export function getDefaultTracer(): Tracer {
  return trace.getTracer('scorestream.scorer');
}

/** The span a step runs in, or undefined when tracing is off (non-recording). */
export type StepSpan = Span | undefined;

/** Starts the step's span under the active context; a non-recording span is ended at once and dropped. */
export function startStepSpan(tracer: Tracer, scorerId: string, step: StepName, stepType: 'function' | 'prompt'): StepSpan {
  const span = tracer.startSpan(step);
  if (!span.isRecording()) {
    span.end();
    return undefined;
  }
  span.setAttributes({
    'scorestream.scorer.id': scorerId,
    'scorestream.step': step,
    'scorestream.step.type': stepType,
  });
  return span;
}

/** Runs `execute` with the span active, so spans started inside (the AI SDK's too) nest under it. */
export function withSpan<T>(span: Span, execute: () => T): T {
  return context.with(trace.setSpan(context.active(), span), execute);
}

export function markFailed(span: Span, error: unknown): void {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  span.recordException({ name, message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** Trace id of the active span, when there is a valid one; a deferred score span is not started for it. */
export function activeTraceId(): string | undefined {
  const active = trace.getActiveSpan();
  if (active instanceof DeferredSpan) return active.knownTraceId();
  const spanContext = active?.spanContext();
  return spanContext !== undefined && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
