// The span exporter the service ships with, wrapped so that an OTLP receiver that is not there
// costs next to nothing and is said once. Without it every batch would still be serialised and
// sent, retried with back-off while the batch processor's queue fills and drops, and every failure
// logged. With it: the first export that reaches no receiver (the connection is refused, the host
// unknown or unreachable, the request unanswered; gRPC's UNAVAILABLE or DEADLINE_EXCEEDED) logs
// one warning naming the endpoint and the error; from then on batches are dropped before they are
// serialised, except one batch every `probeEveryMs` that is sent as a probe; the first probe that
// gets through logs once that export resumed and how many spans were dropped meanwhile.
// A receiver that is there but refuses a batch (an HTTP error, or 429/503 after the exporter's own
// retries) loses that batch only: exporting goes on, since the next batch may well be taken (a
// receiver briefly overloaded, one batch it cannot read). That too is said once, and once more when
// a batch is taken again. Batches that go nowhere are reported to the batch processor as exported:
// it has nothing to retry, and the warning has said why.
import { ExportResultCode } from '@opentelemetry/core';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { Logger } from 'pino';

export type ReceiverWatchOptions = {
  /** Where the spans go, for the log lines (the exporter does not tell). */
  endpoint: string;
  logger?: Logger;
  /** While the receiver is away, one batch this often is sent to see whether it is back (default 10 s). */
  probeEveryMs?: number;
  now?: () => number;
};

export type ReceiverWatch = SpanExporter & {
  /** Spans that reached no receiver since the start: dropped unsent while it was away, or in batches it refused. */
  readonly dropped: number;
  readonly receiverAway: boolean;
};

/** Node's errors for a receiver that cannot be reached at all (a connection, not an answer). */
const unreachableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE']);
/** gRPC status codes of the same: UNAVAILABLE, DEADLINE_EXCEEDED (HTTP statuses, the other numeric codes, start at 100). */
const unreachableGrpcCodes = new Set([14, 4]);

/**
 * Whether a failed export reached no receiver. An answer with an error status (an
 * OTLPExporterError with the HTTP status as its code) or any other failure means a receiver is there.
 */
export function reachedNoReceiver(error: Error | undefined): boolean {
  if (error === undefined) return false;
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === 'string' && unreachableCodes.has(code)) return true;
  if (typeof code === 'number' && unreachableGrpcCodes.has(code)) return true;
  // Both addresses of a name refused (Node tries IPv4 and IPv6 in turn): an AggregateError.
  if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => inner instanceof Error && reachedNoReceiver(inner))) return true;
  // The HTTP exporters' own timeout: a receiver that takes the connection and never answers.
  return error.message === 'Request timed out';
}

export function watchReceiver(exporter: SpanExporter, options: ReceiverWatchOptions): ReceiverWatch {
  const now = options.now ?? Date.now;
  const probeEveryMs = options.probeEveryMs ?? 10_000;
  const logger = options.logger?.child({ component: 'opentelemetry' });
  let away = false;
  let refusing = false;
  let nextProbeAt = 0;
  let dropped = 0;
  let droppedSinceSaid = 0;

  const settle = (spans: ReadableSpan[], result: ExportResult, done: (result: ExportResult) => void) => {
    if (result.code === ExportResultCode.SUCCESS) {
      if (away) logger?.info({ endpoint: options.endpoint, droppedSpans: droppedSinceSaid }, `the OTLP receiver at ${options.endpoint} takes spans again; exporting resumed (${droppedSinceSaid} spans were dropped meanwhile)`);
      else if (refusing) logger?.info({ endpoint: options.endpoint, refusedSpans: droppedSinceSaid }, `the OTLP receiver at ${options.endpoint} takes spans again (${droppedSinceSaid} spans of refused batches were lost meanwhile)`);
      away = false;
      refusing = false;
      droppedSinceSaid = 0;
      done(result);
      return;
    }
    dropped += spans.length;
    const reason = result.error?.message || 'export failed';
    if (reachedNoReceiver(result.error)) {
      nextProbeAt = now() + probeEveryMs;
      if (!away) {
        if (!refusing) droppedSinceSaid = 0;
        away = true;
        refusing = false;
        logger?.warn(
          { endpoint: options.endpoint, err: result.error, probeEveryMs },
          `no OTLP receiver takes spans at ${options.endpoint} (${reason}); spans are dropped unsent until one does, checked every ${Math.round(probeEveryMs / 1000)} s — start a collector there or set OTEL_EXPORTER_OTLP_ENDPOINT (OTEL_TRACES_EXPORTER=none turns tracing off)`,
        );
      }
    } else if (away) {
      // A probe was answered, with an error: a receiver is there again; exporting resumes.
      away = false;
      refusing = true;
      logger?.warn({ endpoint: options.endpoint, err: result.error }, `the OTLP receiver at ${options.endpoint} answers again but refused a batch of ${spans.length} spans (${reason}); exporting resumed, and batches it refuses are lost`);
    } else if (!refusing) {
      refusing = true;
      droppedSinceSaid = 0;
      logger?.warn({ endpoint: options.endpoint, err: result.error }, `the OTLP receiver at ${options.endpoint} refused a batch of ${spans.length} spans (${reason}); the batch is lost, exporting goes on — check the receiver's logs and limits`);
    }
    droppedSinceSaid += spans.length;
    done({ code: ExportResultCode.SUCCESS });
  };

  return {
    get dropped() {
      return dropped;
    },
    get receiverAway() {
      return away;
    },
    export(spans, done) {
      if (away && now() < nextProbeAt) {
        dropped += spans.length;
        droppedSinceSaid += spans.length;
        done({ code: ExportResultCode.SUCCESS });
        return;
      }
      exporter.export(spans, (result) => settle(spans, result, done));
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
