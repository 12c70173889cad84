// Evaluation log records (docs/observability.md): every acknowledged score record also leaves the
// process as an OpenTelemetry log record `gen_ai.evaluation.result` on the span it evaluates, the
// agent run's, through the Logs API — so a backend shows the score on the agent's trace even when
// the score came long after the span ended (a thread closed minutes later, a retry hours later, a
// re-score days later). The SDK exports them as OTEL_LOGS_EXPORTER and OTEL_EXPORTER_OTLP_* say
// (setup.ts); off unless OTEL_LOGS_EXPORTER names an exporter. SCORESTREAM_EVALUATION_LOGS says
// whether they stand beside the spans (default) or, for code scorers, instead of them.
import * as otel from '@opentelemetry/api';
import type { LoggerProvider } from '@opentelemetry/api';
import type { EvaluationLog } from '../src/engine/pipeline/evaluation-event.ts';
import type { CodeScoresTelemetry } from '../src/engine/pipeline/score-run-event.ts';
import { ConfigError } from '../src/engine/config/config-error.ts';

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

export const EVALUATION_LOG_MODES = ['off', 'beside-spans', 'instead-of-spans'] as const;
export type EvaluationLogMode = (typeof EVALUATION_LOG_MODES)[number];

const SETTING = 'SCORESTREAM_EVALUATION_LOGS';

function modeProblem(message: string): ConfigError {
  return new ConfigError([{ path: SETTING, message }], 'environment');
}

/**
 * The service options for a started telemetry and SCORESTREAM_EVALUATION_LOGS: the sink when the
 * logs signal is on (unless `off`), and with `instead-of-spans` the code scorers' scores on no span
 * (their log record is where they show). Unset: `beside-spans` when the logs signal is on.
 * Asking for log records without a logs signal is refused: the scores would reach no backend.
 */
export function evaluationLogOptions(telemetry: { readonly logs: boolean } | undefined, environment: Record<string, string | undefined> = {}): { evaluationLogs?: EvaluationLogSink; codeScores?: CodeScoresTelemetry } {
  const asked = (environment[SETTING] ?? '').trim().toLowerCase();
  if (asked !== '' && !(EVALUATION_LOG_MODES as readonly string[]).includes(asked)) throw modeProblem(`'${asked.slice(0, 40)}' is not a mode; use one of ${EVALUATION_LOG_MODES.join(', ')}`);
  if (telemetry === undefined || asked === 'off') return {};
  const sink = telemetry.logs ? evaluationLogSink() : undefined;
  if (sink === undefined) {
    if (asked === '') return {};
    const why = telemetry.logs ? 'the installed @opentelemetry/api has no Logs API (1.10 or later has)' : 'the logs signal is off';
    throw modeProblem(`${asked} asks for evaluation log records, but ${why}: set OTEL_LOGS_EXPORTER=otlp (and point OTEL_EXPORTER_OTLP_ENDPOINT at a collector with a logs pipeline), or unset ${SETTING}`);
  }
  return asked === 'instead-of-spans' ? { evaluationLogs: sink, codeScores: 'log-records' } : { evaluationLogs: sink };
}
