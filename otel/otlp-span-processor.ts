// The span processor of OTEL_TRACES_EXPORTER=otlp as the service builds it in place of sdk-node's
// own (setup.ts): the same exporter for the configured protocol and the same batch processor sized
// by OTEL_BSP_*, with the exporter watched (receiver-watch.ts) so that a receiver that is not there
// is said once and spans are dropped unsent until it answers, and allowed as many exports in
// flight as a full queue holds batches.
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import type { Logger } from 'pino';
import { watchReceiver } from './receiver-watch.ts';
import type { Environment } from './telemetry-plan.ts';

/** OTEL_TRACES_EXPORTER names the OTLP exporter alone (or nothing, which means it). */
export function otlpTracesOnly(environment: Environment): boolean {
  const names = (environment.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.every((name) => name === 'otlp');
}

/** Where the OTLP trace exporter sends, as its packages resolve it from the environment (for log lines). */
export function otlpTracesEndpoint(environment: Environment, protocol: string): string {
  const specific = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (specific) return specific;
  const base = environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (protocol === 'grpc') return base || 'http://localhost:4317';
  return `${(base || 'http://localhost:4318').replace(/\/+$/, '')}/v1/traces`;
}

const nonNegative = (value: string | undefined): number | undefined => {
  const number = Number(value);
  return value === undefined || value.trim() === '' || !Number.isFinite(number) || number < 0 ? undefined : number;
};

/**
 * The span processor sdk-node would build for OTEL_TRACES_EXPORTER=otlp (the protocol's exporter,
 * a batch processor sized by OTEL_BSP_*), with the exporter watched for a missing receiver.
 */
export async function watchedOtlpSpanProcessor(environment: Environment, logger: Logger | undefined): Promise<SpanProcessor> {
  const protocol = (environment.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? environment.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim() || 'http/protobuf';
  const maxQueueSize = nonNegative(process.env.OTEL_BSP_MAX_QUEUE_SIZE);
  const maxExportBatchSize = nonNegative(process.env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE);
  const settings = { concurrencyLimit: exportConcurrency(maxQueueSize, maxExportBatchSize) };
  const [{ BatchSpanProcessor }, exporter] = await Promise.all([
    import('@opentelemetry/sdk-trace'),
    protocol === 'grpc'
      ? import('@opentelemetry/exporter-trace-otlp-grpc').then(({ OTLPTraceExporter }) => new OTLPTraceExporter(settings))
      : protocol === 'http/json'
        ? import('@opentelemetry/exporter-trace-otlp-http').then(({ OTLPTraceExporter }) => new OTLPTraceExporter(settings))
        : import('@opentelemetry/exporter-trace-otlp-proto').then(({ OTLPTraceExporter }) => new OTLPTraceExporter(settings)),
  ]);
  if (protocol !== 'grpc' && protocol !== 'http/json' && protocol !== 'http/protobuf') logger?.warn({ protocol }, `unsupported OTLP traces protocol "${protocol}"; using http/protobuf`);
  return new BatchSpanProcessor({
    exporter: watchReceiver(exporter, { endpoint: otlpTracesEndpoint(environment, protocol), ...(logger === undefined ? {} : { logger }) }),
    maxQueueSize,
    scheduledDelayMillis: nonNegative(process.env.OTEL_BSP_SCHEDULE_DELAY),
    exportTimeoutMillis: nonNegative(process.env.OTEL_BSP_EXPORT_TIMEOUT),
    maxExportBatchSize,
  });
}

/**
 * Exports the OTLP exporter may have in flight: as many as the batches a full queue holds. A flush
 * (shutdown, forceFlush) exports the whole queue at once, one batch each; past the exporter's own
 * limit (30) the rest failed as "Concurrent export limit reached", which the receiver watch took for
 * a missing receiver, dropping spans until its next probe — the shipped queue holds 32 batches.
 */
export function exportConcurrency(maxQueueSize = 2_048, maxExportBatchSize = 512): number {
  return Math.max(30, Math.ceil(maxQueueSize / Math.max(1, Math.min(maxExportBatchSize, maxQueueSize))));
}
