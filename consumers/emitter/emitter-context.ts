// What the one emitter needs, whichever role runs it: where each kind of record goes (the
// topology), what may leave the process (data handling), how large a record may be, the counters,
// the clock, the hard stop and the publish pacing. The scoring service builds it from its config
// (emitterContextOf); the feedback join and the monitor from theirs (service/), so that every role
// publishes through the same redaction, sizing, refusal handling and origin header.
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../../src/engine/config/resolve-config.ts';
import type { Replay } from '../../src/kit/contracts/common.ts';
import { dataHandlingOf } from '../../src/engine/data-handling/data-handling.ts';
import type { DataHandling } from '../../src/engine/data-handling/data-handling.ts';
import { topologyOfConfig } from '../../src/engine/topology/topology.ts';
import type { Topology } from '../../src/engine/topology/topology.ts';
import type { PublishRetry } from '../publish-until-acknowledged.ts';
import type { ServiceStats } from '../service-stats.ts';
import type { ScoreRecord } from '../../src/kit/contracts/score-record.ts';
import type { ObservedRecordFields } from '../../otel/service-metrics.ts';
import type { EvaluationLogSink } from '../../otel/evaluation-logs.ts';

/**
 * What of a score record is read once it was acknowledged — its tally, its metrics' labels and
 * values — apart from the record, so that the record need not outlive its hand-over.
 */
export type AcknowledgedRecordFields = ObservedRecordFields & { readonly scorerId: string; readonly status: ScoreRecord['status']; readonly score?: number | undefined; readonly rescore?: ScoreRecord['rescore']; readonly escalation?: ScoreRecord['escalation']; readonly scoredAtMs: number };

/**
 * Told of each acknowledged score record: its event-to-result time (none when it has no one run
 * event to time from: a thread close, a re-score) and its produce, the scorer's end to accepted.
 */
export type ObserveRecord = (record: AcknowledgedRecordFields, latencyMs: number | undefined, produceMs: number) => void;

/** The counters the emitter keeps: the service's own (a side role keeps a ServiceStats of its own for them). */
export type EmitterStats = Pick<
  ServiceStats,
  'countRecord' | 'countSkip' | 'countBudgetExhausted' | 'countEscalation' | 'countDeadLetter' | 'recordLatency' | 'recordsDropped' | 'recordsTruncated' | 'retriesDeferred' | 'retriesExhausted' | 'publishRetries' | 'threads' | 'batch'
>;

export type EmitterContext = {
  readonly topology: Topology;
  readonly handling: DataHandling;
  /** No record larger than this is handed to Kafka (config `maxRecordBytes`). */
  readonly maxRecordBytes: number;
  /** Where this role's dead letters go (the service: the dead-letter topic; the feedback join: `{feedback}-dlq`). */
  readonly deadLetterTopic: string;
  readonly stats: EmitterStats;
  readonly logger: Logger;
  readonly now: () => number;
  readonly hardStop: AbortSignal;
  readonly publishRetry: PublishRetry;
  /** Set by a replay: every score and decision record is marked with it. */
  readonly replay?: Replay | undefined;
  /** Per acknowledged score record, with its event-to-result latency when it has one (metrics). */
  readonly observeRecord?: ObserveRecord | undefined;
  /** Set when the logs signal is on: each acknowledged score record leaves as an evaluation log record too. */
  readonly evaluations?: EvaluationLogSink | undefined;
};

/** The scoring service's part of its message context that the emitter reads. */
export type ServiceEmitterSettings = {
  readonly config: ResolvedConfig;
  readonly stats: EmitterStats;
  readonly logger: Logger;
  readonly now: () => number;
  readonly hardStop: AbortSignal;
  readonly publishRetry: PublishRetry;
  readonly replay?: Replay | undefined;
  readonly observeRecord?: EmitterContext['observeRecord'];
  readonly evaluations?: EmitterContext['evaluations'];
};

/** The scoring service's emitter context, from its resolved config. */
export function emitterContextOf(settings: ServiceEmitterSettings): EmitterContext {
  const { config } = settings;
  return {
    topology: topologyOfConfig(config),
    handling: dataHandlingOf(config),
    maxRecordBytes: config.maxRecordBytes,
    deadLetterTopic: config.topics.deadLetter,
    stats: settings.stats,
    logger: settings.logger,
    now: settings.now,
    hardStop: settings.hardStop,
    publishRetry: settings.publishRetry,
    replay: settings.replay,
    observeRecord: settings.observeRecord,
    evaluations: settings.evaluations,
  };
}
