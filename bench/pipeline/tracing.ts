// OpenTelemetry on, as a deployment would run it, for scenario (c+tracing): a global tracer
// provider with a BatchSpanProcessor feeding the OTLP/HTTP exporter in its default encoding
// (protobuf, as the service's sdk-node set-up picks by default), which really serialises every
// span and posts it to the parent's sink (otlp-sink.ts), and an
// AsyncLocalStorage context manager. `stop()` flushes, then unregisters everything.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace';

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

export function startBenchTracing(options: { url: string }): BenchTracing {
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
