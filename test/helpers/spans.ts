// Span and metric capture for tests: installs the real SDK set-up (otel/setup.ts startTelemetry,
// i.e. sdk-node with its context manager and propagators) with an in-memory span exporter and a
// metric reader the test collects from, and takes every global down again afterwards. Install once
// per test file (beforeAll/afterAll): the OTel API globals are process-wide.
import { context, diag, metrics, propagation, trace } from '@opentelemetry/api';
import type { Attributes, HrTime } from '@opentelemetry/api';
import { MetricReader } from '@opentelemetry/sdk-metrics';
import type { DataPoint, MetricData, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import pino from 'pino';
import type { Logger } from 'pino';
import { startTelemetry } from '../../otel/setup.ts';
import type { Telemetry } from '../../otel/setup.ts';

/** A pull reader: metrics are read when the test calls collect(). */
export class CollectingMetricReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

export type TelemetryCapture = {
  readonly exporter: InMemorySpanExporter;
  readonly reader: CollectingMetricReader;
  readonly telemetry: Telemetry;
  /** Every finished span so far. */
  spans(): ReadableSpan[];
  /** Finished spans with this name. */
  named(name: string): ReadableSpan[];
  /** The current metrics (cumulative). */
  collectMetrics(): Promise<ResourceMetrics>;
  /** Forget the spans captured so far. */
  reset(): void;
  /** Shut the SDK down and reset every OTel global (trace, context, propagation, metrics, diag). */
  uninstall(): Promise<void>;
};

export async function installTestTelemetry(options: { logger?: Logger; tracing?: boolean; metrics?: boolean; redact?: (text: string) => string; recordInputs?: boolean } = {}): Promise<TelemetryCapture> {
  const exporter = new InMemorySpanExporter();
  const reader = new CollectingMetricReader();
  const telemetry = await startTelemetry(
    // The plan only; the processors and readers below replace whatever the environment names.
    { OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' },
    {
      logger: options.logger ?? pino({ level: 'silent' }),
      spanProcessors: options.tracing === false ? [] : [new SimpleSpanProcessor({ exporter })],
      metricReaders: options.metrics === false ? [] : [reader],
      ...(options.redact === undefined ? {} : { redact: options.redact }),
      ...(options.recordInputs === undefined ? {} : { recordInputs: options.recordInputs }),
    },
  );
  return {
    exporter,
    reader,
    telemetry,
    spans: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((span) => span.name === name),
    async collectMetrics() {
      const { resourceMetrics, errors } = await reader.collect();
      if (errors.length > 0) throw new AggregateError(errors, 'collecting metrics failed');
      return resourceMetrics;
    },
    reset: () => exporter.reset(),
    async uninstall() {
      await telemetry.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      metrics.disable();
      diag.disable();
    },
  };
}

export function parentSpanId(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** The spans whose parent is `parent`. */
export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  const { traceId, spanId } = parent.spanContext();
  return spans.filter((span) => span.spanContext().traceId === traceId && parentSpanId(span) === spanId);
}

/** Every span below `root`, depth first. */
export function descendantsOf(spans: readonly ReadableSpan[], root: ReadableSpan): ReadableSpan[] {
  const found: ReadableSpan[] = [];
  for (const child of childrenOf(spans, root)) found.push(child, ...descendantsOf(spans, child));
  return found;
}

/** Polls until `condition(spans)` holds (spans end asynchronously after records go out). */
export async function waitForSpans(capture: TelemetryCapture, condition: (spans: ReadableSpan[]) => boolean, timeoutMs = 10_000): Promise<ReadableSpan[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const spans = capture.spans();
    if (condition(spans)) return spans;
    if (Date.now() > deadline) throw new Error(`span condition not met within ${timeoutMs} ms; spans: ${spans.map((span) => span.name).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function findMetric(resourceMetrics: ResourceMetrics, name: string): MetricData | undefined {
  for (const scope of resourceMetrics.scopeMetrics) {
    const metric = scope.metrics.find((candidate) => candidate.descriptor.name === name);
    if (metric !== undefined) return metric;
  }
  return undefined;
}

function matches(attributes: Attributes, wanted: Attributes): boolean {
  return Object.entries(wanted).every(([key, value]) => attributes[key] === value);
}

/** Sum of a counter's (or gauge's) data points whose attributes include `wanted`; 0 when none. */
export function metricValue(resourceMetrics: ResourceMetrics, name: string, wanted: Attributes = {}): number {
  const metric = findMetric(resourceMetrics, name);
  if (metric === undefined) return 0;
  let total = 0;
  for (const point of metric.dataPoints as DataPoint<unknown>[]) {
    if (!matches(point.attributes, wanted)) continue;
    const value = point.value;
    total += typeof value === 'number' ? value : ((value as { count?: number }).count ?? 0);
  }
  return total;
}

/** Histogram data points matching `wanted`: count and sum over them. */
export function histogramTotals(resourceMetrics: ResourceMetrics, name: string, wanted: Attributes = {}): { count: number; sum: number } {
  const metric = findMetric(resourceMetrics, name);
  let count = 0;
  let sum = 0;
  for (const point of (metric?.dataPoints ?? []) as DataPoint<{ count: number; sum?: number }>[]) {
    if (!matches(point.attributes, wanted)) continue;
    count += point.value.count;
    sum += point.value.sum ?? 0;
  }
  return { count, sum };
}

export function hrTimeToMs(time: HrTime): number {
  return time[0] * 1000 + time[1] / 1e6;
}
