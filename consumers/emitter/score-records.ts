// The emitter's records about a pair (record-emitter.ts): what the core returned
// (ScoringOutcome), already through data handling, as Kafka records —
//   record    a score record, keyed by its pair's scoreId and partitioned by its run id (a thread
//             score's by its own id and the thread key: recordKeyOf), sized to maxRecordBytes (it
//             sheds evidence, or goes out `failed` / `record_too_large`: fitScoreRecord) with a
//             smaller stand-in should the broker refuse it anyway; a thread score also goes to the
//             latest-score view `{runs}-thread-scores` with the same bytes (one transaction,
//             exactly-once), keyed by (thread, scorer, version); a run without content (`missing`)
//             goes with its `flagged` decision (src/engine/pipeline/missing-content-flag.ts);
//   deferred  a retry message to the tier of its delay (without its older attempts' judge evidence
//             when too large; the failure as final when even that is) and its `deferred` decision;
//   skipped   a decision record, or — without a decisions topic — only counted, at once.
// Each is published through the message's output until accepted, and counted only then.
import { fitScoreRecord, jsonBytes, smallerFromJson } from '../../src/kit/contracts/fit-score-record.ts';
import type { FittedScoreRecord } from '../../src/kit/contracts/fit-score-record.ts';
import type { DecisionRecord } from '../../src/kit/contracts/decision-record.ts';
import { isoTime } from '../../src/kit/contracts/iso-time.ts';
import { recordKeyFor, recordKeyOf } from '../../src/kit/contracts/record-key.ts';
import { RETRY_DUE_HEADER } from '../../src/kit/contracts/retry-message.ts';
import type { RetryMessage } from '../../src/kit/contracts/retry-message.ts';
import type { ScoreRecord } from '../../src/kit/contracts/score-record.ts';
import { threadScoreViewKeyFor } from '../../src/kit/contracts/thread-ids.ts';
import { missingContentFlag } from '../../src/engine/pipeline/missing-content-flag.ts';
import { evaluationLogOf } from '../../src/engine/pipeline/evaluation-event.ts';
import type { EvaluationLog } from '../../src/engine/pipeline/evaluation-event.ts';
import type { ScoringOutcome } from '../../src/engine/pipeline/scoring-outcome.ts';
import { entryOf, retryTierOf, topicName } from '../../src/engine/topology/topology.ts';
import type { OutgoingRecord } from '../../kafka/kafka-records.ts';
import { originHeaders } from '../loop-guard.ts';
import { publishUntilAcknowledged } from '../publish-until-acknowledged.ts';
import type { MessageOutput } from '../record-sink.ts';
import type { AcknowledgedRecordFields, EmitterContext } from './emitter-context.ts';
import type { Where } from './emission.ts';

export type ScoreRecordEmitter = {
  /** A decisions topic is configured: skips are published (else only counted). */
  readonly publishesDecisions: boolean;
  record(record: ScoreRecord, output: MessageOutput, where: Where): Promise<void> | undefined;
  deferral(outcome: Extract<ScoringOutcome, { kind: 'deferred' }>, output: MessageOutput, where: Where): Promise<void> | undefined;
  skip(decision: DecisionRecord, output: MessageOutput, where: Where): Promise<void> | undefined;
};

export function createScoreRecordEmitter(context: EmitterContext): ScoreRecordEmitter {
  const { stats, logger, topology } = context;
  const limit = context.maxRecordBytes;
  const resultsTopic = topology.names.results;
  const decisionsTopic = entryOf(topology, 'decisions')?.name;
  const viewTopic = entryOf(topology, 'thread-scores')?.name;
  const mark = <Record extends ScoreRecord | DecisionRecord>(record: Record): Record => (context.replay === undefined ? record : { ...record, replay: context.replay });

  // A score record waits for its acknowledgement as its UTF-8 bytes, which live outside V8's heap,
  // and nothing else of it: a run's records wait a produce request or two, long enough for the
  // young generation's collections to copy them and then promote them to the old generation, where
  // they die. Held as the JSON text, the record object and the evidence it points to, they made up
  // most of what each collection copied (docs/benchmarks.md, 2026-12-04, afternoon). The smaller
  // forms for a broker's refusal are made again only then (smallerFormOf).
  const scoreOutgoing = (fit: FittedScoreRecord, value: Buffer): OutgoingRecord => {
    const smaller = smallerFormOf(fit, value, limit);
    return {
      topic: resultsTopic,
      ...recordKeyOf(fit.record),
      value,
      headers: originHeaders,
      fallback: () => {
        const form = smaller();
        return form === undefined ? undefined : scoreOutgoing(form, Buffer.from(form.json));
      },
    };
  };

  /** A thread score record in the latest-score view (only while thread scorers are bound, which is what creates the topic), with the results' bytes. */
  const viewOutgoing = (fit: FittedScoreRecord, value: Buffer): OutgoingRecord | undefined => {
    const { record } = fit;
    if (record.thread === undefined || viewTopic === undefined) return undefined;
    const smaller = smallerFormOf(fit, value, limit);
    return {
      topic: viewTopic,
      ...threadScoreViewKeyFor({ threadKey: record.thread.key, scorerId: record.scorerId, scorerVersion: record.scorerVersion }),
      value,
      headers: originHeaders,
      fallback: () => {
        const form = smaller();
        if (form === undefined) return undefined;
        return viewOutgoing(form, Buffer.from(form.json));
      },
    };
  };

  const decisionOutgoing = (decision: DecisionRecord, topic: string): OutgoingRecord => ({ topic, ...recordKeyOf(decision), value: JSON.stringify(decision), headers: originHeaders });

  /** Only a skip counts as one: a `deferred` pair is counted as deferred, a `flagged` one was scored. */
  const countDecision = (decision: DecisionRecord) => {
    if (decision.decision === 'skipped') stats.countSkip(decision.reason);
    if (decision.budget !== undefined) stats.countBudgetExhausted(decision.budget.name);
    if (decision.escalation !== undefined) stats.countEscalation(decision.scorerId, decision.escalation.tier);
  };

  /** The record as it fits, or undefined (logged, counted) when not even its smallest form does. */
  const fitted = (record: ScoreRecord, where: Where): FittedScoreRecord | undefined => {
    const fit = fitScoreRecord(mark(record), limit);
    if (fit === undefined) {
      stats.recordsDropped += 1;
      logger.error({ source: where.source, runId: record.runId.slice(0, 200), scorerId: record.scorerId }, `a score record cannot be written within maxRecordBytes (${limit}) even without its evidence and identity's metadata; dropped`);
      return undefined;
    }
    if (fit.record.truncated !== undefined || (fit.record.status === 'failed' && fit.record.error.code === 'record_too_large')) {
      stats.recordsTruncated += 1;
      logger.warn({ source: where.source, runId: record.runId, scorerId: record.scorerId, truncated: fit.record.truncated, status: fit.record.status }, `a score record over maxRecordBytes (${limit}) was cut to fit`);
    }
    return fit;
  };

  /** Telemetry never fails scoring: a log record the SDK would not take is said, and the record stands. */
  const emitEvaluation = (evaluation: EvaluationLog) => {
    try {
      context.evaluations?.emit(evaluation);
    } catch (error) {
      logger.warn({ err: error, scoreId: evaluation.attributes['scorestream.score_id'] }, 'an evaluation log record could not be emitted; the score record is on Kafka');
    }
  };

  const publishScore = async (output: MessageOutput, records: OutgoingRecord[], where: Where, acknowledged: AcknowledgedRecordFields, retriesExhausted: boolean, evaluation: EvaluationLog | undefined): Promise<void> => {
    await publishUntilAcknowledged(output, records, where.source, context);
    // The produce stage: from the scorer's end (the record's scoredAt, on the same clock) until
    // accepted — data handling, sizing, the send, the broker's acknowledgement (exactly-once: held
    // for the partition's transaction).
    const produceMs = context.now() - acknowledged.scoredAtMs;
    if (retriesExhausted) stats.retriesExhausted += 1;
    stats.countRecord(acknowledged);
    // Once the record is on Kafka, as the metrics count it: an evaluation is never shown for a record a broker refused.
    if (evaluation !== undefined) emitEvaluation(evaluation);
    // A re-score's run event is the judged record's, read back on feedback: its age is no latency of the pipeline.
    const latencyMs = Number.isFinite(where.eventTime) && acknowledged.rescore === undefined ? context.now() - where.eventTime : undefined;
    if (latencyMs !== undefined) stats.recordLatency(latencyMs);
    context.observeRecord?.(acknowledged, latencyMs, produceMs);
  };

  /** A score record's records (its result, its view, its flag) out; what is counted once they are accepted is taken first (acknowledgedFieldsOf). */
  const record = (scoreRecord: ScoreRecord, output: MessageOutput, where: Where): Promise<void> | undefined => {
    const fit = fitted(scoreRecord, where);
    if (fit === undefined) return undefined;
    const value = Buffer.from(fit.json);
    const view = viewOutgoing(fit, value);
    const records = view === undefined ? [scoreOutgoing(fit, value)] : [scoreOutgoing(fit, value), view];
    // A run without content: the record and its flag are accepted together (one transaction, exactly-once).
    const flag = scoreRecord.missing === undefined || decisionsTopic === undefined ? undefined : missingContentFlag(scoreRecord, isoTime(context.now()));
    if (flag !== undefined && decisionsTopic !== undefined) records.push(decisionOutgoing(mark(flag), decisionsTopic));
    const retriesExhausted = scoreRecord.status === 'failed' && scoreRecord.error.retryable && scoreRecord.retries !== undefined;
    // From the record as written: its reason under its evidence level, redacted, fitted to the topic.
    const evaluation = context.evaluations === undefined ? undefined : evaluationLogOf(fit.record);
    return publishScore(output, records, where, acknowledgedFieldsOf(fit.record), retriesExhausted, evaluation);
  };

  const retryOutgoing = (retry: RetryMessage, tier: { delayMs: number; batch?: true }, final: ScoreRecord): OutgoingRecord | undefined => {
    const value = retryJson(retry, limit);
    if (value === undefined) return undefined;
    const finalFit = fitScoreRecord(mark(final), limit);
    return {
      topic: tier.batch === true ? topicName(topology, 'batch-tier') : retryTierOf(topology, tier.delayMs),
      ...recordKeyFor(retry),
      value,
      headers: { ...originHeaders, [RETRY_DUE_HEADER]: String(Date.parse(retry.dueAt)) },
      // Refused anyway: the failure goes out as final rather than never.
      fallback: () => (finalFit === undefined ? undefined : scoreOutgoing(finalFit, Buffer.from(finalFit.json))),
    };
  };

  const deferral = (outcome: Extract<ScoringOutcome, { kind: 'deferred' }>, output: MessageOutput, where: Where): Promise<void> | undefined => {
    const retry = retryOutgoing(outcome.retry, outcome, outcome.final);
    if (retry === undefined) {
      logger.warn({ source: where.source, runId: outcome.retry.runId, scorerId: outcome.retry.scorerId }, `a retry message would exceed maxRecordBytes (${limit}) even without its older attempts' judge evidence; publishing the failure as final`);
      return record(outcome.final, output, where);
    }
    const records = decisionsTopic === undefined ? [retry] : [retry, decisionOutgoing(mark(outcome.decision), decisionsTopic)];
    return publishUntilAcknowledged(output, records, where.source, context).then(() => {
      if (outcome.batch === true) return void (stats.batch.deferred += 1);
      stats.retriesDeferred += 1;
      logger.debug({ source: where.source, runId: outcome.retry.runId, scorerId: outcome.retry.scorerId, attempt: outcome.retry.attempt, dueAt: outcome.retry.dueAt }, 'deferred a transiently failed pair to its retry tier');
    });
  };

  const skip = (decision: DecisionRecord, output: MessageOutput, where: Where): Promise<void> | undefined => {
    // Without a decisions topic a skip is only counted: no await per skipped binding.
    if (decisionsTopic === undefined) {
      countDecision(decision);
      return undefined;
    }
    return publishUntilAcknowledged(output, [decisionOutgoing(mark(decision), decisionsTopic)], where.source, context).then(() => countDecision(decision));
  };

  return { publishesDecisions: decisionsTopic !== undefined, record, deferral, skip };
}

function acknowledgedFieldsOf(record: ScoreRecord): AcknowledgedRecordFields {
  return {
    scorerId: record.scorerId,
    scorerVersion: record.scorerVersion,
    status: record.status,
    score: record.status === 'scored' ? record.score : undefined,
    verdict: record.verdict,
    rescore: record.rescore,
    thread: record.thread,
    entity: { id: record.entity.id },
    metadata: record.metadata?.tenantId === undefined ? undefined : { tenantId: record.metadata.tenantId },
    latency: record.latency,
    escalation: record.escalation,
    scoredAtMs: Date.parse(record.scoredAt),
  };
}

/**
 * The next smaller form of a score record waiting as `value`, made when the broker refuses it.
 * A record that went out whole is made again from its bytes, so the closure holds them alone; a
 * form already cut holds its fitting (rare: over `maxRecordBytes`). Each its own function, so
 * neither closure's scope holds the other's.
 */
function smallerFormOf(fit: FittedScoreRecord, value: Buffer, limit: number): () => FittedScoreRecord | undefined {
  return fit.readsBack ? smallerFromBytes(value, limit) : smallerOfFitting(fit);
}

function smallerFromBytes(value: Buffer, limit: number): () => FittedScoreRecord | undefined {
  return () => smallerFromJson(value, limit);
}

function smallerOfFitting(fit: FittedScoreRecord): () => FittedScoreRecord | undefined {
  return () => fit.smaller();
}

/** The retry message's JSON within `limitBytes`, or undefined when even without older attempts' judge evidence it is over. */
function retryJson(message: RetryMessage, limitBytes: number): string | undefined {
  const full = JSON.stringify(message);
  if (jsonBytes(full, limitBytes) <= limitBytes) return full;
  // Older attempts' judge evidence (prompts included) is what grows; the latest stays.
  const attempts = message.attempts.map((attempt, index) => (index === message.attempts.length - 1 ? attempt : { ...attempt, judge: undefined }));
  const slim = JSON.stringify({ ...message, attempts });
  return Buffer.byteLength(slim) <= limitBytes ? slim : undefined;
}
