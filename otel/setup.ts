// The OpenTelemetry SDK for the service process, configured from the standard OTEL_* variables
// by `@opentelemetry/sdk-node` itself (startNodeSdk reads OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER,
// OTEL_EXPORTER_OTLP_*, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, OTEL_BSP_*,
// OTEL_METRIC_EXPORT_INTERVAL, OTEL_PROPAGATORS, OTEL_CONFIG_FILE, ...). What this module adds:
//   - when every exporter is `none` or OTEL_SDK_DISABLED=true, the SDK is not even loaded, so
//     telemetry that is off costs nothing;
//   - a default `service.name` of `scorestream` and a `scorestream.origin` resource attribute, both
//     overridable through OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES;
//   - the AI SDK's OpenTelemetry integration (judge spans), registered only when tracing is on,
//     recording prompts and answers only with SCORESTREAM_TRACE_RECORD_INPUTS=true;
//   - the SDK's own diagnostics go to the service's JSON log instead of bare console lines, at
//     OTEL_LOG_LEVEL or else `warn`;
//   - no OTel log pipeline for the service's own logs: they are pino JSON lines on stdout,
//     correlated by trace_id/span_id; the logs signal is started only when OTEL_LOGS_EXPORTER names
//     an exporter, and carries the evaluation log records (evaluation-logs.ts) and nothing else;
//   - every span of the process is redacted by the deployment's redactor (redacting-tracer.ts,
//     docs/data-handling.md) before any exporter sees it.
//   - the OTLP span exporter (OTEL_TRACES_EXPORTER unset or `otlp`) watched (receiver-watch.ts): a
//     receiver that is not there is said once, and spans are dropped unsent until it answers.
// Call startTelemetry() before the service creates meters (the metrics API has no proxy: a meter
// taken before the SDK is registered stays a no-op).//
// The parts: what the environment asks for (telemetry-plan.ts, trace-options.ts), the diagnostics
// (diag-logger.ts), the batch defaults (batch-span-defaults.ts), the watched OTLP span processor
// (otlp-span-processor.ts).
import { diag } from '@opentelemetry/api';
import type { IMetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import type { LogRecordProcessor } from '@opentelemetry/sdk-logs';
import type { Logger } from 'pino';
import { applyBatchSpanDefaults } from './batch-span-defaults.ts';
import { diagLevelName, diagLevels, diagToPino } from './diag-logger.ts';
import { registerJudgeTelemetry, SCORESTREAM_ORIGIN_ATTRIBUTE } from './judge-telemetry.ts';
import { otlpTracesOnly, watchedOtlpSpanProcessor } from './otlp-span-processor.ts';
import { redactGlobalSpans } from './redacting-tracer.ts';
import type { TextRedactor } from './redacting-tracer.ts';
import { isTrue, telemetryPlan } from './telemetry-plan.ts';
import type { Environment } from './telemetry-plan.ts';
import { recordInputsFromEnvironment } from './trace-options.ts';

export type StartTelemetryOptions = {
  /** Receives the SDK's diagnostics (export failures, bad settings); default: the console. */
  logger?: Logger;
  /** Default `service.version` resource attribute. */
  serviceVersion?: string;
  /** Replace the exporters named by OTEL_TRACES_EXPORTER (tests pass in-memory ones). */
  spanProcessors?: SpanProcessor[];
  /** Replace the readers named by OTEL_METRICS_EXPORTER (tests pass in-memory ones). */
  metricReaders?: IMetricReader[];
  /** Replace the exporters named by OTEL_LOGS_EXPORTER (tests pass in-memory ones): evaluation log records. */
  logRecordProcessors?: LogRecordProcessor[];
  /** Allow prompts and answers on AI SDK spans; default from SCORESTREAM_TRACE_RECORD_INPUTS. */
  recordInputs?: boolean;
  /** Upper bound on flushing at shutdown, so an unreachable collector cannot hold the exit (default 10 s). */
  shutdownTimeoutMs?: number;
  /**
   * Applied to every string of every span (attributes, events, exceptions, status) before the SDK
   * stores it: the config's redactor (src/engine/data-handling/). Called per string, so a caller that
   * learns the config later can pass a function that reads the current one.
   */
  redact?: TextRedactor;
};

export type Telemetry = {
  readonly tracing: boolean;
  readonly metrics: boolean;
  /** The logs signal is on: score records also leave as evaluation log records. */
  readonly logs: boolean;
  /** Flushes pending spans and metrics, then stops the SDK. Never rejects. */
  shutdown(): Promise<void>;
};

const noTelemetry: Telemetry = { tracing: false, metrics: false, logs: false, shutdown: async () => undefined };

/**
 * Starts the SDK when the environment asks for any telemetry; otherwise returns at once without
 * loading it. The plan is read from `environment`; sdk-node reads the same variables from
 * `process.env`, so pass `process.env` (tests that need other settings pass processors/readers).
 */
export async function startTelemetry(environment: Environment, options: StartTelemetryOptions = {}): Promise<Telemetry> {
  const plan = telemetryPlan(environment);
  const tracing = options.spanProcessors === undefined ? plan.tracing : options.spanProcessors.length > 0;
  const metrics = options.metricReaders === undefined ? plan.metrics : options.metricReaders.length > 0;
  const logs = options.logRecordProcessors === undefined ? plan.logs : options.logRecordProcessors.length > 0;
  if (isTrue(environment.OTEL_SDK_DISABLED) || (!plan.configFile && !tracing && !metrics && !logs)) {
    options.logger?.info({ tracing: false, metrics: false, logs: false }, 'OpenTelemetry is off (OTEL_SDK_DISABLED or every exporter is none); the SDK was not loaded');
    return noTelemetry;
  }

  applyBatchSpanDefaults(process.env);
  const [{ startNodeSdk }, { defaultResource, resourceFromAttributes }] = await Promise.all([import('@opentelemetry/sdk-node'), import('@opentelemetry/resources')]);
  const spanProcessors = options.spanProcessors ?? (tracing && !plan.configFile && otlpTracesOnly(environment) ? [await watchedOtlpSpanProcessor(environment, options.logger)] : undefined);
  const sdk = startNodeSdk({
    // Lowest priority: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES override these.
    baseResource: defaultResource().merge(
      resourceFromAttributes({
        'service.name': 'scorestream',
        ...(options.serviceVersion === undefined ? {} : { 'service.version': options.serviceVersion }),
        [SCORESTREAM_ORIGIN_ATTRIBUTE]: 'scorestream',
      }),
    ),
    // Given, or built by sdk-node from OTEL_LOGS_EXPORTER when that names an exporter; else none.
    ...(options.logRecordProcessors !== undefined ? { logRecordProcessors: options.logRecordProcessors } : logs ? {} : { logRecordProcessors: [] }),
    // Problems found while building the SDK go to stderr; from then on to the JSON log (below).
    logLevel: diagLevelName(environment),
    ...(spanProcessors === undefined ? {} : { spanProcessors }),
    ...(options.metricReaders === undefined ? {} : { metricReaders: options.metricReaders }),
  });
  // startNodeSdk installed a console diag logger; route its messages into the JSON log instead.
  if (options.logger !== undefined) diag.setLogger(diagToPino(options.logger), { logLevel: diagLevels[diagLevelName(environment)]!, suppressOverrideMessage: true });
  // Before anything takes a tracer: the AI SDK integration below keeps the one it gets.
  if (tracing && options.redact !== undefined) redactGlobalSpans(options.redact);
  const recordInputs = options.recordInputs ?? recordInputsFromEnvironment(environment);
  const unregisterJudge = tracing ? registerJudgeTelemetry({ recordInputs }) : () => undefined;
  options.logger?.info(
    {
      tracing,
      metrics,
      logs,
      ...(plan.configFile
        ? { configFile: environment.OTEL_CONFIG_FILE }
        : {
            tracesExporter: options.spanProcessors === undefined ? (environment.OTEL_TRACES_EXPORTER ?? 'otlp') : 'custom',
            metricsExporter: options.metricReaders === undefined ? (environment.OTEL_METRICS_EXPORTER ?? 'otlp') : 'custom',
            ...(logs ? { logsExporter: options.logRecordProcessors === undefined ? environment.OTEL_LOGS_EXPORTER : 'custom' } : {}),
          }),
    },
    'OpenTelemetry started',
  );

  let stopped: Promise<void> | undefined;
  return {
    tracing,
    metrics,
    logs,
    shutdown() {
      stopped ??= (async () => {
        unregisterJudge();
        const timeoutMs = options.shutdownTimeoutMs ?? 10_000;
        let timer: NodeJS.Timeout | undefined;
        try {
          const timedOut = new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), timeoutMs);
            timer.unref();
          });
          if ((await Promise.race([sdk.shutdown().then(() => 'done' as const), timedOut])) === 'timeout') {
            options.logger?.warn({ timeoutMs }, 'flushing telemetry took too long; exiting without the last spans and metrics');
          }
        } catch (error) {
          // Telemetry never fails the service, not even on the way out.
          options.logger?.warn({ err: error }, 'flushing telemetry on shutdown failed; some spans or metrics may be lost');
        } finally {
          clearTimeout(timer);
        }
      })();
      return stopped;
    },
  };
}
