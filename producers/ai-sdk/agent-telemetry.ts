// The AI SDK's OpenTelemetry integration (@ai-sdk/otel), remembering each call's root span (the
// `invoke_agent …` span), so that a run published after the call carries that span as its trace
// parent and its scores nest under it. The AI SDK never makes that span active in the app's
// context (it parents the step, model and tool spans through its own state), and its end event
// only names the call by `callId`; so the integration's tracer is wrapped, and the first span
// started while the integration handles a call's start event is recorded under that callId.
// Use `scorestreamTelemetry(options)` wherever `new OpenTelemetry(options)` would go.
import { OpenTelemetry } from '@ai-sdk/otel';
import { context as otelContext, trace } from '@opentelemetry/api';
import type { Context, Span, SpanContext, SpanOptions, Tracer } from '@opentelemetry/api';

export type AgentTelemetryOptions = NonNullable<ConstructorParameters<typeof OpenTelemetry>[0]>;

/** Calls remembered at most; the oldest are forgotten first (a run is usually published right after its call). */
const REMEMBERED_CALLS = 10_000;
const rootSpans = new Map<string, SpanContext>();

function remember(callId: string, spanContext: SpanContext): void {
  rootSpans.delete(callId);
  rootSpans.set(callId, spanContext);
  if (rootSpans.size > REMEMBERED_CALLS) rootSpans.delete(rootSpans.keys().next().value!);
}

/** The trace context of a call's root span, when a `scorestreamTelemetry` integration recorded one. */
export function agentSpanContext(callId: string | undefined): Context | undefined {
  const spanContext = callId === undefined ? undefined : rootSpans.get(callId);
  return spanContext === undefined ? undefined : trace.setSpanContext(otelContext.active(), spanContext);
}

class RootSpanRecordingTracer implements Tracer {
  /** The call whose start event is being handled, until its root span was started. */
  recordingFor: string | undefined;
  readonly #inner: Tracer;
  constructor(inner: Tracer) {
    this.#inner = inner;
  }

  startSpan(name: string, options?: SpanOptions, context?: Context): Span {
    const span = this.#inner.startSpan(name, options, context);
    if (this.recordingFor !== undefined) {
      remember(this.recordingFor, span.spanContext());
      this.recordingFor = undefined;
    }
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]): ReturnType<F> {
    const fn = rest.at(-1) as F;
    const options = rest.length > 1 ? (rest[0] as SpanOptions) : {};
    const parent = rest.length > 2 ? (rest[1] as Context) : otelContext.active();
    const span = this.startSpan(name, options, parent);
    return otelContext.with(trace.setSpan(parent, span), () => fn(span)) as ReturnType<F>;
  }
}

class AgentTelemetry extends OpenTelemetry {
  readonly #tracer: RootSpanRecordingTracer;

  constructor(options: AgentTelemetryOptions, tracer: RootSpanRecordingTracer) {
    super({ ...options, tracer });
    this.#tracer = tracer;
  }

  override onStart(event: Parameters<OpenTelemetry['onStart']>[0]): void {
    this.#tracer.recordingFor = event.callId;
    try {
      super.onStart(event);
    } finally {
      this.#tracer.recordingFor = undefined;
    }
  }
}

/**
 * The AI SDK's OpenTelemetry integration (the same options as `new OpenTelemetry(...)` from
 * @ai-sdk/otel) that also remembers each call's root span for `publishAiSdkRun`. Register it
 * (`registerTelemetry(scorestreamTelemetry())`) or pass it per call (`telemetry: { integrations: [...] }`).
 */
export function scorestreamTelemetry(options: AgentTelemetryOptions = {}): OpenTelemetry {
  return new AgentTelemetry(options, new RootSpanRecordingTracer(options.tracer ?? trace.getTracer('gen_ai')));
}
