// The one way out: every record the service writes is built here — score records, decision
// records, retry messages, dead letters — from what the core returned (ScoringOutcome) or from a
// message that cannot be scored. Each record
//   - first goes through the deployment's data handling (src/data-handling/, docs/data-handling.md:
//     evidence levels, redaction), one call for every payload, so that everything below — the
//     size fitting included — sees what is written;
//   - carries the origin header (the loop guard) and, in a replay, the replay's mark;
//   - is keyed by its pair's scoreId and partitioned by its run id (recordKeyFor,
//     src/contracts/record-key.ts: one record per pair under compaction, a run's records on its
//     partition number), a thread scorer's by its own id and the thread key (recordKeyOf); a dead
//     letter keeps the key its message came with;
//   - fits `maxRecordBytes`: a score record sheds evidence with a truncation marker, or goes out as
//     `failed` / `record_too_large` (src/contracts/fit-score-record.ts); a retry message drops its
//     older attempts' judge evidence, or the failure is published as final; a dead letter keeps as
//     much of its value as fits (src/contracts/build-dead-letter.ts);
//   - has a stand-in (`fallback`) should the broker refuse it anyway (a topic whose
//     max.message.bytes is lower): the next smaller form, down to nothing (producers/send-records.ts);
//   - goes through the message's output until accepted (publishUntilAcknowledged), and is counted
//     once it was.
// A score record whose run lacks content (`missing`) goes out together with its `flagged`
// decision (src/pipeline/missing-content-flag.ts), which is not counted as a skip.
// Thread scoring (docs/threads.md) adds two kinds: a turn or end event re-keyed to `{runs}-by-thread`
// under its thread key, and the thread state's changelog records, written to the partition of
// `{runs}-thread-state` that mirrors their by-thread partition. Both carry run content as it came
// (like retry messages; docs/data-handling.md): they are the service's own working state. A thread
// scorer's score and decision records are records like any other (data handling, fitting), keyed by
// their own id and partitioned by the thread key (recordKeyOf), so one thread's records share a
// partition and a compacted results topic keeps every version. A thread score record also goes,
// as it was written to the results and with it (one transaction, exactly-once), to the compacted
// latest-score view `{runs}-thread-scores`, keyed by (thread, scorer, scorer version)
// (threadScoreViewKeyFor): a thread's versions go out in order, so the view's last record per key
// is the latest version's.
// Nothing else publishes: a new kind of outgoing record is a new case here (docs/architecture.md).
import type { Source } from '../src/contracts/common.ts';
import { recordKeyFor, recordKeyOf } from '../src/contracts/record-key.ts';
import { threadScoreViewKeyFor } from '../src/contracts/thread-ids.ts';
import type { PairKeyParts } from '../src/contracts/record-key.ts';
import { fitDeadLetter } from '../src/contracts/build-dead-letter.ts';
import type { RawHeaders } from '../src/contracts/build-dead-letter.ts';
import type { DecisionRecord } from '../src/contracts/decision-record.ts';
import { fitScoreRecord, jsonBytes, smallerFromJson } from '../src/contracts/fit-score-record.ts';
import type { FittedScoreRecord } from '../src/contracts/fit-score-record.ts';
import { RETRY_DUE_HEADER } from '../src/contracts/retry-message.ts';
import type { RetryMessage } from '../src/contracts/retry-message.ts';
import type { ScoreRecord } from '../src/contracts/score-record.ts';
import { retryTierTopic } from '../src/config/retry-tiers.ts';
import { threadTopicsFor } from '../src/config/thread-topics.ts';
import { missingContentFlag } from '../src/pipeline/missing-content-flag.ts';
import { dataHandlingOf } from '../src/data-handling/data-handling.ts';
import type { ScoringOutcome } from '../src/pipeline/scoring-outcome.ts';
import type { ConsumedMessage, MessageHeaders, OutgoingRecord } from '../kafka/kafka-records.ts';
import type { DeadLetterReason } from './decode-run-message.ts';
import { originHeaders } from './loop-guard.ts';
import type { MessageContext } from './message-context.ts';
import type { ObservedRecordFields } from '../otel/service-metrics.ts';
import { publishUntilAcknowledged } from './publish-until-acknowledged.ts';
import type { MessageOutput } from './record-sink.ts';
import { isoTime } from '../src/contracts/iso-time.ts';

/** What the emitter is handed: an outcome of the core, or a message to park with why. */
type Payload = ScoringOutcome | { readonly kind: 'dead-letter'; readonly message: ConsumedMessage; readonly error: DeadLetterReason };

type Where = { source: Source; eventTime: number };

export type RecordEmitter = {
  /**
   * One outcome of a run as its records, published through `output` until accepted, then counted.
   * A skip without a decisions topic is only counted, at once: then nothing is returned to await.
   */
  emit(outcome: ScoringOutcome, output: MessageOutput, where: Where): Promise<void> | undefined;
  /** A message that cannot be scored, parked as it came (as much of it as fits); throws only after the hard stop. */
  deadLetter(message: ConsumedMessage, source: Source, reason: DeadLetterReason, output: MessageOutput): Promise<void>;
  /** A thread turn or end event (its JSON) to `{runs}-by-thread` under its thread key. */
  rekey(key: string, json: string, output: MessageOutput, source: Source): Promise<void>;
  /** Changelog records of the thread state of by-thread partition `partition` (value null = tombstone), in order. */
  threadState(writes: ReadonlyArray<{ key: string; value: string | null }>, partition: number, output: MessageOutput, source: Source): Promise<void>;
};

type EmitterContext = Pick<MessageContext, 'config' | 'stats' | 'logger' | 'now' | 'hardStop' | 'publishRetry' | 'replay' | 'observeRecord'>;

/** The message's own timestamp (epoch ms, as kafkajs reports it) as an ISO time; none when it is not a time. */
function messageTime(message: ConsumedMessage): string | undefined {
  const time = new Date(Number(message.timestamp));
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

export function createRecordEmitter(context: EmitterContext): RecordEmitter {
  const { config, stats, logger } = context;
  const limit = config.maxRecordBytes;
  const handling = dataHandlingOf(config);
  const mark = <Record extends ScoreRecord | DecisionRecord>(record: Record): Record => (context.replay === undefined ? record : { ...record, replay: context.replay });

  const threadTopics = threadTopicsFor(config.topics.runs);

  /** A record about a (run, scorer) pair, keyed and partitioned as every such record is. */
  const pairRecord = (topic: string, pair: PairKeyParts, value: string, headers: MessageHeaders = originHeaders) => ({ topic, ...recordKeyFor(pair), value, headers });

  // A score record waits for its acknowledgement as its UTF-8 bytes, which live outside V8's heap,
  // and nothing else of it: a run's records wait a produce request or two, long enough for the
  // young generation's collections to copy them and then promote them to the old generation, where
  // they die. Held as the JSON text, the record object and the evidence it points to, they made up
  // most of what each collection copied (docs/benchmarks.md, 2026-12-04, afternoon). The smaller
  // forms for a broker's refusal are made again only then (smallerFormOf).
  const scoreOutgoing = (fit: FittedScoreRecord, value: Buffer): OutgoingRecord => {
    const smaller = smallerFormOf(fit, value, limit);
    return {
      topic: config.topics.results,
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
    if (record.thread === undefined || config.threadScorers.length === 0) return undefined;
    const smaller = smallerFormOf(fit, value, limit);
    return {
      topic: threadTopics.latestScores,
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
  };

  /** The record as it fits, or undefined (logged, counted) when not even its smallest form does. */
  const fitted = (record: ScoreRecord, source: Source): FittedScoreRecord | undefined => {
    const fit = fitScoreRecord(mark(record), limit);
    if (fit === undefined) {
      stats.recordsDropped += 1;
      logger.error({ source, runId: record.runId.slice(0, 200), scorerId: record.scorerId }, `a score record cannot be written within maxRecordBytes (${limit}) even without its evidence and identity's metadata; dropped`);
      return undefined;
    }
    if (fit.record.truncated !== undefined || (fit.record.status === 'failed' && fit.record.error.code === 'record_too_large')) {
      stats.recordsTruncated += 1;
      logger.warn({ source, runId: record.runId, scorerId: record.scorerId, truncated: fit.record.truncated, status: fit.record.status }, `a score record over maxRecordBytes (${limit}) was cut to fit`);
    }
    return fit;
  };

  /** A score record's records (its result, its view, its flag) out; what is counted once they are accepted is taken first (acknowledgedFieldsOf). */
  const emitRecord = (record: ScoreRecord, output: MessageOutput, where: Where): Promise<void> | undefined => {
    const fit = fitted(record, where.source);
    if (fit === undefined) return undefined;
    const value = Buffer.from(fit.json);
    const view = viewOutgoing(fit, value);
    const records = view === undefined ? [scoreOutgoing(fit, value)] : [scoreOutgoing(fit, value), view];
    const decisionsTopic = config.topics.decisions;
    // A run without content: the record and its flag are accepted together (one transaction, exactly-once).
    const flag = record.missing === undefined || decisionsTopic === undefined ? undefined : missingContentFlag(record, isoTime(context.now()));
    if (flag !== undefined && decisionsTopic !== undefined) records.push(decisionOutgoing(mark(flag), decisionsTopic));
    const retriesExhausted = record.status === 'failed' && record.error.retryable && record.retries !== undefined;
    return publishScore(output, records, where, acknowledgedFieldsOf(fit.record), retriesExhausted);
  };

  const publishScore = async (output: MessageOutput, records: OutgoingRecord[], where: Where, acknowledged: AcknowledgedRecordFields, retriesExhausted: boolean): Promise<void> => {
    await publishUntilAcknowledged(output, records, where.source, context);
    if (retriesExhausted) stats.retriesExhausted += 1;
    stats.countRecord(acknowledged);
    // A re-score's run event is the judged record's, read back on feedback: its age is no latency of the pipeline.
    const latencyMs = Number.isFinite(where.eventTime) && acknowledged.rescore === undefined ? context.now() - where.eventTime : undefined;
    if (latencyMs !== undefined) stats.recordLatency(latencyMs);
    context.observeRecord?.(acknowledged, latencyMs);
  };

  const retryOutgoing = (retry: RetryMessage, delayMs: number, final: ScoreRecord): OutgoingRecord | undefined => {
    const value = retryJson(retry, limit);
    if (value === undefined) return undefined;
    const finalFit = fitScoreRecord(mark(final), limit);
    return {
      ...pairRecord(retryTierTopic(config.topics.retry, delayMs), retry, value, { ...originHeaders, [RETRY_DUE_HEADER]: String(Date.parse(retry.dueAt)) }),
      // Refused anyway: the failure goes out as final rather than never.
      fallback: () => (finalFit === undefined ? undefined : scoreOutgoing(finalFit, Buffer.from(finalFit.json))),
    };
  };

  const emitDeferral = async (outcome: Extract<ScoringOutcome, { kind: 'deferred' }>, output: MessageOutput, where: Where): Promise<void> => {
    const retry = retryOutgoing(outcome.retry, outcome.delayMs, outcome.final);
    if (retry === undefined) {
      logger.warn({ source: where.source, runId: outcome.retry.runId, scorerId: outcome.retry.scorerId }, `a retry message would exceed maxRecordBytes (${limit}) even without its older attempts' judge evidence; publishing the failure as final`);
      return emitRecord(outcome.final, output, where);
    }
    const decisionsTopic = config.topics.decisions;
    const records = decisionsTopic === undefined ? [retry] : [retry, decisionOutgoing(mark(outcome.decision), decisionsTopic)];
    await publishUntilAcknowledged(output, records, where.source, context);
    stats.retriesDeferred += 1;
    logger.debug({ source: where.source, runId: outcome.retry.runId, scorerId: outcome.retry.scorerId, attempt: outcome.retry.attempt, dueAt: outcome.retry.dueAt }, 'deferred a transiently failed pair to its retry tier');
  };

  const emitSkip = (decision: DecisionRecord, output: MessageOutput, where: Where): Promise<void> | undefined => {
    const topic = config.topics.decisions;
    // Without a decisions topic a skip is only counted: no await per skipped binding.
    if (topic === undefined) {
      countDecision(decision);
      return undefined;
    }
    return publishUntilAcknowledged(output, [decisionOutgoing(mark(decision), topic)], where.source, context).then(() => countDecision(decision));
  };

  const emitDeadLetter = async (message: ConsumedMessage, reason: DeadLetterReason, output: MessageOutput, source: Source): Promise<void> => {
    const fit = fitDeadLetter(
      {
        message: { key: message.key, value: message.value, headers: message.headers as RawHeaders | undefined },
        source: { topic: source.topic, partition: source.partition, offset: source.offset, timestamp: messageTime(message) },
        error: reason,
        now: new Date(context.now()),
      },
      limit,
    );
    if (fit === undefined) {
      stats.recordsDropped += 1;
      logger.error({ source, code: reason.code }, `a dead letter cannot be written within maxRecordBytes (${limit}) even without its value and headers; dropped`);
      return;
    }
    const { deadLetter } = fit;
    const key = message.key === null ? null : message.key.toString('utf8');
    // Refused anyway (a dead-letter topic whose max.message.bytes is lower): its value and headers go, its hash stays.
    const bare = {
      ...deadLetter,
      value: deadLetter.value === null ? null : { encoding: deadLetter.value.encoding, data: '' },
      headers: {},
      truncated: { keptBytes: 0, droppedBytes: message.value?.length ?? 0, headersDropped: true },
    };
    const record: OutgoingRecord = {
      topic: config.topics.deadLetter,
      key,
      value: fit.json,
      headers: originHeaders,
      fallback: () => ({ topic: config.topics.deadLetter, key, value: JSON.stringify(bare), headers: originHeaders }),
    };
    await publishUntilAcknowledged(output, [record], source, context);
    stats.countDeadLetter(reason.code);
  };

  /** Every payload's one way: handled (evidence, redaction) first, then built, sized and published by its kind. */
  const send = (payload: Payload, output: MessageOutput, where: Where): Promise<void> | undefined => {
    // A skip that goes nowhere is only counted: nothing of it leaves the process, so nothing to handle.
    if (payload.kind === 'skipped' && config.topics.decisions === undefined) return emitSkip(payload.decision, output, where);
    const handled = handling.outgoing(payload);
    switch (handled.kind) {
      case 'record':
        return emitRecord(handled.record, output, where);
      case 'deferred':
        return emitDeferral(handled, output, where);
      case 'skipped':
        return emitSkip(handled.decision, output, where);
      case 'dead-letter':
        return emitDeadLetter(handled.message, handled.error, output, where.source);
    }
  };

  return {
    emit: send,
    async rekey(key, json, output, source) {
      await publishUntilAcknowledged(output, [{ topic: threadTopics.byThread, key, value: json, headers: originHeaders }], source, context);
      stats.threads.rekeyed += 1;
    },
    async threadState(writes, partition, output, source) {
      if (writes.length === 0) return;
      await publishUntilAcknowledged(output, writes.map(({ key, value }) => ({ topic: threadTopics.state, key, value: value ?? null, partition, headers: originHeaders })), source, context);
      stats.threads.stateWrites += writes.length;
    },
    async deadLetter(message, source, reason, output) {
      await send({ kind: 'dead-letter', message, error: reason }, output, { source, eventTime: Number.NaN });
    },
  };
}

/**
 * What of a score record is read once it was acknowledged — its tally, its metrics' labels and
 * values — apart from the record, so that the record need not outlive its hand-over.
 */
export type AcknowledgedRecordFields = ObservedRecordFields & { readonly scorerId: string; readonly status: ScoreRecord['status']; readonly score?: number | undefined; readonly rescore?: ScoreRecord['rescore'] };

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
