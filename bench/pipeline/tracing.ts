// OpenTelemetry on as a deployment runs it, for scenario (c+tracing): the service's own set-up
// (otel/setup.ts startTelemetry — sdk-node, its context manager, the redacting tracer provider with
// the built-in redactor, the judge integration) with the span processor it builds for
// OTEL_TRACES_EXPORTER=otlp (a batch processor at the shipped OTEL_BSP_* defaults feeding the
// watched OTLP/HTTP protobuf exporter), posting every span to the parent's sink (otlp-sink.ts).
// Metrics stay off: (c) has none either, and this scenario prices tracing alone. Beside the
// shipped processor, one that only counts the spans that ended; the sink counts what arrived.
// With `exportSpans: false` (the what-if (c+tracing) recorded only) the counting processor is the
// only one: every span is created, recorded and ended as shipped, and nothing is queued,
// serialised or sent — what recording the contract's spans costs before any export.
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { applyBatchSpanDefaults } from '../../otel/batch-span-defaults.ts';
import { watchedOtlpSpanProcessor } from '../../otel/otlp-span-processor.ts';
import { startTelemetry } from '../../otel/setup.ts';
import { createRedactor } from '../../src/engine/data-handling/create-redactor.ts';

export type TracingTotals = {
  /** Spans the SDK recorded (ended), exported or not. */
  ended: number;
  /** Spans the sink received (set by the parent, which owns the sink). */
  exported: number;
};

export type BenchTracing = {
  /** Flushes the queue and stops the SDK; the spans that ended (exported is the sink's to count). */
  stop(): Promise<{ ended: number }>;
};

export async function startBenchTracing(options: { url: string; exportSpans: true } | { exportSpans: false }): Promise<BenchTracing> {
  if (options.exportSpans) process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = options.url;
  process.env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = 'http/protobuf';
  process.env.OTEL_TRACES_EXPORTER = 'otlp';
  process.env.OTEL_METRICS_EXPORTER = 'none';
  // As startTelemetry does before it builds this processor itself: the shipped OTEL_BSP_* sizes.
  applyBatchSpanDefaults(process.env);
  let ended = 0;
  const endCounter: SpanProcessor = {
    onStart: () => undefined,
    onEnd: () => void (ended += 1),
    forceFlush: async () => undefined,
    shutdown: async () => undefined,
  };
  const telemetry = await startTelemetry(process.env, {
    redact: createRedactor({ builtins: true, patterns: [] }),
    spanProcessors: options.exportSpans ? [endCounter, await watchedOtlpSpanProcessor(process.env, undefined)] : [endCounter],
  });
  return {
    async stop() {
      await telemetry.shutdown();
      return { ended };
    },
  };
}
