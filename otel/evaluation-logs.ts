// Evaluation log records (docs/observability.md): every acknowledged score record also leaves the
// process as an OpenTelemetry log record `gen_ai.evaluation.result` on the span it evaluates, the
// agent run's, through the Logs API — so a backend shows the score on the agent's trace even when
// the score came long after the span ended (a thread closed minutes later, a retry hours later, a
// re-score days later). The SDK exports them as OTEL_LOGS_EXPORTER and OTEL_EXPORTER_OTLP_* say
// (setup.ts); off unless OTEL_LOGS_EXPORTER names an exporter.
import * as otel from '@opentelemetry/api';
import type { LoggerProvider } from '@opentelemetry/api';
import type { EvaluationLog } from '../src/engine/pipeline/evaluation-event.ts';

export type EvaluationLogSink = { emit(log: EvaluationLog): void };

/**
 * The sink writing to the global logger provider (the one startTelemetry registered); undefined
 * when the installed `@opentelemetry/api` has no Logs API (older than 1.10).
 */
export function evaluationLogSink(): EvaluationLogSink | undefined {
  // A namespace read, not a named import: a peer @opentelemetry/api 1.9 has no `logs`.
  const logsApi = (otel as { logs?: Pick<LoggerProvider, 'getLogger'> }).logs;
  if (logsApi === undefined) return undefined;
  const logger = logsApi.getLogger('scorestream');
  return {
    emit({ eventName, timeMs, trace, attributes }) {
      const context =
        trace === undefined
          ? otel.ROOT_CONTEXT
          : otel.trace.setSpanContext(otel.ROOT_CONTEXT, { traceId: trace.traceId, spanId: trace.spanId, traceFlags: trace.sampled ? otel.TraceFlags.SAMPLED : otel.TraceFlags.NONE, isRemote: true });
      logger.emit({ eventName, timestamp: timeMs, severityNumber: otel.SeverityNumber.INFO, severityText: 'INFO', context, attributes });
    },
  };
}

/** The service option for a started telemetry: the sink when its logs signal is on, else nothing. */
export function evaluationLogOptions(telemetry: { readonly logs: boolean } | undefined): { evaluationLogs?: EvaluationLogSink } {
  const sink = telemetry?.logs === true ? evaluationLogSink() : undefined;
  return sink === undefined ? {} : { evaluationLogs: sink };
}
