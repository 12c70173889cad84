// The OpenTelemetry SDK's own diagnostics (export failures, bad settings) in the service's JSON log
// rather than as bare console lines, at OTEL_LOG_LEVEL or else `warn` (setup.ts installs it).
import { DiagLogLevel } from '@opentelemetry/api';
import type { DiagLogger } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { Environment } from './telemetry-plan.ts';

export const diagLevels: Record<string, DiagLogLevel> = {
  none: DiagLogLevel.NONE,
  error: DiagLogLevel.ERROR,
  warn: DiagLogLevel.WARN,
  info: DiagLogLevel.INFO,
  debug: DiagLogLevel.DEBUG,
  verbose: DiagLogLevel.VERBOSE,
  all: DiagLogLevel.ALL,
};

/** OTEL_LOG_LEVEL, else warn: the SDK's info chatter has no place in the service's log. */
export function diagLevelName(environment: Environment): string {
  const name = (environment.OTEL_LOG_LEVEL ?? '').trim().toLowerCase();
  return name in diagLevels ? name : 'warn';
}

export function diagToPino(logger: Logger): DiagLogger {
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
