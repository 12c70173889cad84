// The span exporter the service ships with, wrapped so that an OTLP receiver that is not there
// costs next to nothing and is said once. Without it every batch would still be serialised and
// sent, retried with back-off while the batch processor's queue fills and drops, and every failure
// logged. With it: the first failed export logs one warning naming the endpoint and the error;
// from then on batches are dropped before they are serialised, except one batch every `probeEveryMs`
// that is sent as a probe; the first probe that gets through logs once that export resumed and how
// many spans were dropped meanwhile. Dropped batches are reported to the batch processor as
// exported: it has nothing to retry, and the one warning has said why they go nowhere.
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
  /** Spans dropped unsent while the receiver was away, since the start. */
  readonly dropped: number;
  readonly receiverAway: boolean;
};

export function watchReceiver(exporter: SpanExporter, options: ReceiverWatchOptions): ReceiverWatch {
  const now = options.now ?? Date.now;
  const probeEveryMs = options.probeEveryMs ?? 10_000;
  const logger = options.logger?.child({ component: 'opentelemetry' });
  let away = false;
  let nextProbeAt = 0;
  let dropped = 0;
  let droppedWhileAway = 0;

  const settle = (spans: ReadableSpan[], result: ExportResult, done: (result: ExportResult) => void) => {
    if (result.code === ExportResultCode.SUCCESS) {
      if (away) {
        away = false;
        logger?.info({ endpoint: options.endpoint, droppedSpans: droppedWhileAway }, `the OTLP receiver at ${options.endpoint} takes spans again; exporting resumed (${droppedWhileAway} spans were dropped meanwhile)`);
        droppedWhileAway = 0;
      }
      done(result);
      return;
    }
    dropped += spans.length;
    droppedWhileAway += spans.length;
    nextProbeAt = now() + probeEveryMs;
    if (!away) {
      away = true;
      const reason = result.error?.message ?? 'export failed';
      logger?.warn(
        { endpoint: options.endpoint, err: result.error, probeEveryMs },
        `no OTLP receiver takes spans at ${options.endpoint} (${reason}); spans are dropped unsent until one does, checked every ${Math.round(probeEveryMs / 1000)} s — start a collector there or set OTEL_EXPORTER_OTLP_ENDPOINT (OTEL_TRACES_EXPORTER=none turns tracing off)`,
      );
    }
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
        droppedWhileAway += spans.length;
        done({ code: ExportResultCode.SUCCESS });
        return;
      }
      exporter.export(spans, (result) => settle(spans, result, done));
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
