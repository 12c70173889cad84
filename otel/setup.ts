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
//   - no OTel log pipeline: logs are pino JSON lines on stdout, correlated by trace_id/span_id;
//   - every span of the process is redacted by the deployment's redactor (redacting-tracer.ts,
//     docs/data-handling.md) before any exporter sees it.
//   - the OTLP span exporter (OTEL_TRACES_EXPORTER unset or `otlp`) watched (receiver-watch.ts): a
//     receiver that is not there is said once, and spans are dropped unsent until it answers.
// Call startTelemetry() before the service creates meters (the metrics API has no proxy: a meter
// taken before the SDK is registered stays a no-op).
import { diag, DiagLogLevel } from '@opentelemetry/api';
import type { DiagLogger } from '@opentelemetry/api';
import type { IMetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import type { Logger } from 'pino';
import { registerJudgeTelemetry, SCORESTREAM_ORIGIN_ATTRIBUTE } from './judge-telemetry.ts';
import { redactGlobalSpans } from './redacting-tracer.ts';
import type { TextRedactor } from './redacting-tracer.ts';
import { watchReceiver } from './receiver-watch.ts';

export type Environment = Record<string, string | undefined>;

/** What the environment asks for, decided without loading the SDK. */
export type TelemetryPlan = {
  /** Start the SDK at all. */
  enabled: boolean;
  tracing: boolean;
  metrics: boolean;
  /** OTEL_CONFIG_FILE is set: the declarative file decides everything. */
  configFile: boolean;
};

export type StartTelemetryOptions = {
  /** Receives the SDK's diagnostics (export failures, bad settings); default: the console. */
  logger?: Logger;
  /** Default `service.version` resource attribute. */
  serviceVersion?: string;
  /** Replace the exporters named by OTEL_TRACES_EXPORTER (tests pass in-memory ones). */
  spanProcessors?: SpanProcessor[];
  /** Replace the readers named by OTEL_METRICS_EXPORTER (tests pass in-memory ones). */
  metricReaders?: IMetricReader[];
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
  /** Flushes pending spans and metrics, then stops the SDK. Never rejects. */
  shutdown(): Promise<void>;
};

const noTelemetry: Telemetry = { tracing: false, metrics: false, shutdown: async () => undefined };

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true';
}

/** OTEL_*_EXPORTER as sdk-node reads it: comma list, empty means `otlp`, any `none` means off. */
function exporterEnabled(value: string | undefined): boolean {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length === 0 || !names.includes('none');
}

export function telemetryPlan(environment: Environment): TelemetryPlan {
  if (isTrue(environment.OTEL_SDK_DISABLED)) return { enabled: false, tracing: false, metrics: false, configFile: false };
  if ((environment.OTEL_CONFIG_FILE ?? '').trim() !== '') return { enabled: true, tracing: true, metrics: true, configFile: true };
  const tracing = exporterEnabled(environment.OTEL_TRACES_EXPORTER);
  const metrics = exporterEnabled(environment.OTEL_METRICS_EXPORTER);
  return { enabled: tracing || metrics, tracing, metrics, configFile: false };
}

/** `SCORESTREAM_TRACE_RECORD_INPUTS=true`: prompts and answers on spans (off by default: user content). */
export function recordInputsFromEnvironment(environment: Environment): boolean {
  return isTrue(environment.SCORESTREAM_TRACE_RECORD_INPUTS) || environment.SCORESTREAM_TRACE_RECORD_INPUTS?.trim() === '1';
}

const isOn = (value: string | undefined) => isTrue(value) || value?.trim() === '1';

/**
 * What the service's spans hold, from the environment: prompts (SCORESTREAM_TRACE_RECORD_INPUTS),
 * a span per function step (SCORESTREAM_TRACE_FUNCTION_STEPS; off by default, see ScorerServices)
 * and the consumer's `process {topic}` span per message (SCORESTREAM_TRACE_PROCESS_SPANS; off by
 * default, see consumers/message-trace.ts). Both default off for what they cost per event
 * (docs/observability.md): the trace contract — score spans under the agent's span, judge spans
 * under them — needs neither.
 */
export function traceOptionsFromEnvironment(environment: Environment): { recordInputs: boolean; functionStepSpans: boolean; processSpans: boolean } {
  return { recordInputs: recordInputsFromEnvironment(environment), functionStepSpans: isOn(environment.SCORESTREAM_TRACE_FUNCTION_STEPS), processSpans: isOn(environment.SCORESTREAM_TRACE_PROCESS_SPANS) };
}

const diagLevels: Record<string, DiagLogLevel> = {
  none: DiagLogLevel.NONE,
  error: DiagLogLevel.ERROR,
  warn: DiagLogLevel.WARN,
  info: DiagLogLevel.INFO,
  debug: DiagLogLevel.DEBUG,
  verbose: DiagLogLevel.VERBOSE,
  all: DiagLogLevel.ALL,
};

/** OTEL_LOG_LEVEL, else warn: the SDK's info chatter has no place in the service's log. */
function diagLevelName(environment: Environment): string {
  const name = (environment.OTEL_LOG_LEVEL ?? '').trim().toLowerCase();
  return name in diagLevels ? name : 'warn';
}

function diagToPino(logger: Logger): DiagLogger {
  const child = logger.child({ component: 'opentelemetry' });
  const line = (write: (message: string) => void) => (message: string, ...args: unknown[]) =>
    write(args.length === 0 ? message : `${message} ${args.map((arg) => (arg instanceof Error ? arg.message : typeof arg === 'string' ? arg : safeJson(arg))).join(' ')}`);
  return {
    error: line((message) => child.error(message)),
    warn: line((message) => child.warn(message)),
    info: line((message) => child.info(message)),
    debug: line((message) => child.debug(message)),
    verbose: line((message) => child.trace(message)),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/**
 * Batch span processor defaults sized for a stream: the SDK's own (queue 2,048, 5 s delay) drop
 * most spans at a few thousand events/s with a dozen spans each (docs/benchmarks.md). The queue
 * holds 1.5 s of spans at full rate with three spans per event, and bounds what a slow receiver
 * can make the service hold: ~2.7 kB a span, so ~45 MB full (65,536 held 175 MB and took the
 * service past its 400 MB bound when spans came faster than they were exported). Only fills in
 * what the environment leaves unset; sdk-node reads them.
 */
export const BATCH_SPAN_DEFAULTS = {
  OTEL_BSP_MAX_QUEUE_SIZE: '16384',
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
  OTEL_BSP_SCHEDULE_DELAY: '1000',
} as const;

export function applyBatchSpanDefaults(environment: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(BATCH_SPAN_DEFAULTS)) {
    if (environment[name] === undefined || environment[name] === '') environment[name] = value;
  }
}

/** OTEL_TRACES_EXPORTER names the OTLP exporter alone (or nothing, which means it). */
function otlpTracesOnly(environment: Environment): boolean {
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

/**
 * Starts the SDK when the environment asks for any telemetry; otherwise returns at once without
 * loading it. The plan is read from `environment`; sdk-node reads the same variables from
 * `process.env`, so pass `process.env` (tests that need other settings pass processors/readers).
 */
export async function startTelemetry(environment: Environment, options: StartTelemetryOptions = {}): Promise<Telemetry> {
  const plan = telemetryPlan(environment);
  const tracing = options.spanProcessors === undefined ? plan.tracing : options.spanProcessors.length > 0;
  const metrics = options.metricReaders === undefined ? plan.metrics : options.metricReaders.length > 0;
  if (isTrue(environment.OTEL_SDK_DISABLED) || (!plan.configFile && !tracing && !metrics)) {
    options.logger?.info({ tracing: false, metrics: false }, 'OpenTelemetry is off (OTEL_SDK_DISABLED or every exporter is none); the SDK was not loaded');
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
    logRecordProcessors: [],
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
      ...(plan.configFile
        ? { configFile: environment.OTEL_CONFIG_FILE }
        : {
            tracesExporter: options.spanProcessors === undefined ? (environment.OTEL_TRACES_EXPORTER ?? 'otlp') : 'custom',
            metricsExporter: options.metricReaders === undefined ? (environment.OTEL_METRICS_EXPORTER ?? 'otlp') : 'custom',
          }),
    },
    'OpenTelemetry started',
  );

  let stopped: Promise<void> | undefined;
  return {
    tracing,
    metrics,
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
