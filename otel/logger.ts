// The service's pino logger: JSON lines by default, pino-pretty when asked (a terminal),
// `trace_id`/`span_id` on every line written inside a span (so a log line found in Loki or
// Elasticsearch leads to its trace), and secrets redacted wherever they appear in a config
// or error object that gets logged — by path (REDACTED_PATHS), and, given the deployment's
// redactor (src/engine/data-handling/), in every string of every line (docs/data-handling.md).
import { isSpanContextValid, trace } from '@opentelemetry/api';
import pino from 'pino';
import type { DestinationStream, Logger, LoggerOptions } from 'pino';
import { redactValue } from '../src/engine/data-handling/redact-value.ts';

/** Paths whose values never reach a log line. */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'sasl.password',
  'kafka.sasl.password',
  'config.kafka.sasl.password',
  // An OAUTHBEARER client secret (kafka/oauth-token.ts).
  'clientSecret',
  '*.clientSecret',
  'sasl.clientSecret',
  'kafka.sasl.clientSecret',
  'config.kafka.sasl.clientSecret',
  // A TLS client key (PEM) and its passphrase; `key` alone is too common a name (message keys).
  'ssl.key',
  'kafka.ssl.key',
  'config.kafka.ssl.key',
  '*.ssl.key',
  'passphrase',
  '*.passphrase',
  'ssl.passphrase',
  'kafka.ssl.passphrase',
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'authorization',
  '*.authorization',
  'Authorization',
  '*.Authorization',
  'headers.authorization',
  'headers.Authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  'headers["x-api-key"]',
  '*.headers["x-api-key"]',
  'token',
  '*.token',
  'secret',
  '*.secret',
];

export type LoggerSettings = {
  level?: string;
  pretty?: boolean;
  name?: string;
  /** Where lines go (tests pass a sink); default stdout. */
  destination?: DestinationStream;
  /** Applied to every string of every line (values and keys) before it is written: the config's redactor. */
  redact?: (text: string) => string;
};

/** Reads SCORESTREAM_LOG_LEVEL (or LOG_LEVEL) and SCORESTREAM_LOG_PRETTY. */
export function loggerSettingsFromEnvironment(environment: Record<string, string | undefined>): LoggerSettings {
  const level = environment.SCORESTREAM_LOG_LEVEL ?? environment.LOG_LEVEL;
  const pretty = environment.SCORESTREAM_LOG_PRETTY;
  return {
    ...(level === undefined || level === '' ? {} : { level }),
    ...(pretty === undefined ? {} : { pretty: pretty === '1' || pretty === 'true' }),
  };
}

function traceFields(): Record<string, string> {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId, trace_flags: `0${spanContext.traceFlags.toString(16)}` };
}

/**
 * A line's JSON with every string redacted; the line itself when nothing changed. The line is
 * parsed rather than searched as text: a match spanning a JSON escape (`\n` before an address)
 * could otherwise be half-replaced into invalid JSON.
 */
export function redactLine(line: string, redact: (text: string) => string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return redact(line);
  }
  const redacted = redactValue(parsed, redact);
  return redacted === parsed ? line : `${JSON.stringify(redacted)}\n`;
}

export function createLogger(settings: LoggerSettings = {}): Logger {
  const redact = settings.redact;
  const options: LoggerOptions = {
    name: settings.name ?? 'scorestream',
    level: settings.level ?? 'info',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    mixin: traceFields,
    ...(redact === undefined ? {} : { hooks: { streamWrite: (line: string) => redactLine(line, redact) } }),
  };
  if (settings.destination !== undefined) return pino(options, settings.destination);
  if (settings.pretty) {
    return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  return pino(options);
}

/**
 * Resolves once every line logged so far was written (pino's default destination writes
 * asynchronously). A refused start flushes before its last message, so that message — what to
 * fix — is the last thing the process prints, after any line a client library logged on the way.
 */
export function flushLogger(logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    try {
      logger.flush(() => resolve());
    } catch {
      resolve(); // a destination without flush (a test sink) has nothing buffered
    }
  });
}
