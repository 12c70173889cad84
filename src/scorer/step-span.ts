// Runs a step inside its own child span (named after the step) through @opentelemetry/api only.
// With no SDK registered the span is a non-recording no-op and nothing else is done, so tracing
// costs next to nothing when it is off. Exceptions are recorded by name and message only.
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { StepName } from '../judge/types.ts';

const defaultTracer = trace.getTracer('scorestream.scorer');

export function getDefaultTracer(): Tracer {
  return defaultTracer;
}

/** The span a step runs in, or undefined when tracing is off (non-recording). */
export type StepSpan = Span | undefined;

export async function inStepSpan<T>(
  tracer: Tracer,
  scorerId: string,
  step: StepName,
  stepType: 'function' | 'prompt',
  execute: (span: StepSpan) => Promise<T>,
): Promise<T> {
  const parent = context.active();
  const span = tracer.startSpan(step, undefined, parent);
  if (!span.isRecording()) {
    span.end();
    return execute(undefined);
  }
  span.setAttributes({
    'scorestream.scorer.id': scorerId,
    'scorestream.step': step,
    'scorestream.step.type': stepType,
  });
  try {
    return await context.with(trace.setSpan(parent, span), execute, undefined, span);
  } catch (error) {
    markFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function markFailed(span: Span, error: unknown): void {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  span.recordException({ name, message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

export function setSpanAttributes(span: StepSpan, attributes: Attributes): void {
  span?.setAttributes(attributes);
}

/** Trace id of the active span, when there is a valid one. */
export function activeTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext !== undefined && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
