// What the standard OTEL_* variables ask of the service's telemetry, read without loading the SDK
// (setup.ts starts it only when something is on): OTEL_SDK_DISABLED, a declarative OTEL_CONFIG_FILE,
// and OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER as sdk-node reads them; OTEL_LOGS_EXPORTER only
// when set (the service's logs are pino lines; the logs signal carries its evaluation records,
// evaluation-logs.ts, and is on only when asked for).

export type Environment = Record<string, string | undefined>;

/** What the environment asks for, decided without loading the SDK. */
export type TelemetryPlan = {
  /** Start the SDK at all. */
  enabled: boolean;
  tracing: boolean;
  metrics: boolean;
  /** OTEL_LOGS_EXPORTER names an exporter: every score record also leaves as an evaluation log record. */
  logs: boolean;
  /** OTEL_CONFIG_FILE is set: the declarative file decides everything. */
  configFile: boolean;
};

/** A boolean variable set to `true` (any case, spaces ignored), as the SDK reads one. */
export function isTrue(value: string | undefined): boolean {
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
  if (isTrue(environment.OTEL_SDK_DISABLED)) return { enabled: false, tracing: false, metrics: false, logs: false, configFile: false };
  if ((environment.OTEL_CONFIG_FILE ?? '').trim() !== '') return { enabled: true, tracing: true, metrics: true, logs: true, configFile: true };
  const tracing = exporterEnabled(environment.OTEL_TRACES_EXPORTER);
  const metrics = exporterEnabled(environment.OTEL_METRICS_EXPORTER);
  // Unlike traces and metrics, unset means off: a collector without a logs pipeline would refuse them.
  const logs = (environment.OTEL_LOGS_EXPORTER ?? '').trim() !== '' && exporterEnabled(environment.OTEL_LOGS_EXPORTER);
  return { enabled: tracing || metrics || logs, tracing, metrics, logs, configFile: false };
}
