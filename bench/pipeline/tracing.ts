// OpenTelemetry on, as a deployment would run it, for scenario (c+tracing): a global tracer
// provider with a BatchSpanProcessor feeding the OTLP/HTTP exporter in its default encoding
// (protobuf, as the service's sdk-node set-up picks by default), which really serialises every
// span and posts it to the parent's sink (otlp-sink.ts), and an
// AsyncLocalStorage context manager. `stop()` flushes, then unregisters everything.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, SamplingDecision, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan, Sampler, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';
import { SCORER_STEPS } from '../../src/contracts/scorer-steps.ts';

export type TracingTotals = {
  /** Spans the SDK recorded (ended), exported or not. */
  ended: number;
  /** Spans handed to the OTLP exporter. */
  exported: number;
};

export type BenchTracing = {
  totals(): TracingTotals;
  /** Flushes the queue, shuts the provider down, unregisters the globals and closes the sink. */
  stop(): Promise<TracingTotals>;
};

/**
 * Sized so a few thousand events per second (≈14 spans each) are exported, not dropped: the SDK's
 * defaults (queue 2,048, 5 s delay) drop most of them at this rate (docs/benchmarks.md).
 */
const batchOptions = { maxQueueSize: 65_536, maxExportBatchSize: 2_048, scheduledDelayMillis: 1_000 };

/** The names our scorer step spans have (src/scorer/step-span.ts). */
const stepSpanNames: ReadonlySet<string> = new Set(SCORER_STEPS);

/**
 * The default sampler, except that step spans are not recorded: what tracing would cost if
 * function steps (microseconds each) had no spans of their own. An approximation from above:
 * the sampler still runs and a non-recording span is still created for each step.
 */
function withoutStepSpans(): Sampler {
  const parentBased = new ParentBasedSampler({ root: new AlwaysOnSampler() });
  return {
    shouldSample: (context, traceId, spanName, spanKind, attributes, links) =>
      stepSpanNames.has(spanName) ? { decision: SamplingDecision.NOT_RECORD } : parentBased.shouldSample(context, traceId, spanName, spanKind, attributes, links),
    toString: () => 'ParentBased{AlwaysOn} without step spans',
  };
}

export function startBenchTracing(options: { url: string; stepSpans?: boolean }): BenchTracing {
  const totals: TracingTotals = { ended: 0, exported: 0 };
  const otlp = new OTLPTraceExporter({ url: options.url });
  const counting: SpanExporter = {
    export(spans: ReadableSpan[], done) {
      totals.exported += spans.length;
      otlp.export(spans, done);
    },
    shutdown: () => otlp.shutdown(),
    forceFlush: () => otlp.forceFlush(),
  };
  const endCounter: SpanProcessor = {
    onStart: () => undefined,
    onEnd: () => void (totals.ended += 1),
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
  const provider = new TracerProvider({
    ...(options.stepSpans === false ? { sampler: withoutStepSpans() } : {}),
    spanProcessors: [endCounter, new BatchSpanProcessor({ exporter: counting, ...batchOptions })],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  if (!context.setGlobalContextManager(contextManager) || !trace.setGlobalTracerProvider(provider)) {
    throw new Error('benchmark: an OpenTelemetry global was already registered; (c+tracing) needs a clean process');
  }

  return {
    totals: () => ({ ...totals }),
    async stop() {
      await provider.forceFlush();
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      return { ...totals };
    },
  };
}
