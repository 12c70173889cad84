// The OTLP source's live counters, over every claimed partition (otlp-source.ts): what the service
// metrics, the 10,000-trace test and the benchmark read.
import type { SkipReason } from '../../src/kit/contracts/decision-record.ts';

/** Live counters of the assembly, over every claimed partition (also what the 10,000-trace test and the benchmark read). */
export class OtlpAssemblyStats {
  spans = 0;
  /** Spans of Scorestream's own work (judge calls, score spans) left out. */
  ownSpans = 0;
  /** Spans of a trace that had closed already: dropped (log records among them). */
  lateSpans = 0;
  /** Log records read (docs/otlp.md, "Content on the logs signal"). */
  logRecords = 0;
  /** Log records that carry no GenAI content (an app's own log lines): dropped as read. */
  ignoredLogRecords = 0;
  /** Log records whose span never arrived before their trace closed: dropped. */
  orphanLogRecords = 0;
  runsAssembled = 0;
  /** Runs assembled without a user message or a final answer (scored, their records flagged missing_content). */
  runsMissingContent = 0;
  readonly tracesClosed = { ready: 0, idle: 0, overflow: 0 };
  readonly tracesWithoutRun = new Map<SkipReason, number>();
  /** Assemblies dropped because their claim ended (a rebalance, a reset partition). */
  claimsEnded = 0;
  peakOpenTraces = 0;
  peakBufferedSpans = 0;
  openTraces = 0;
  bufferedSpans = 0;
}
