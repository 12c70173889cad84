// The emitter's records that are not about a pair (record-emitter.ts), each to its topology entry:
//   thread-turn      a run's turn or an end event re-keyed by its thread key (`{runs}-by-thread`);
//   thread-state     the thread state's changelog records, to the partition of `{runs}-thread-state`
//                    that mirrors their by-thread partition, in order;
//   batch-state      the batch tier's open batches, likewise to `{retry}-batch-state`;
//   agreement        the feedback join's pair or window, keyed by agreementRecordKey (a pair measured
//                    again is one record under compaction), sized to maxRecordBytes (a pair's comment
//                    cut: fitAgreementRecord) with a smaller stand-in should the broker refuse it;
//   rescore-request  the join asking for a re-score, keyed like the re-score's records (recordKeyFor);
//   alert            a monitor's notice, keyed by the monitor's name (alertKeyFor).
// Thread records are the service's own working state and carry run content as it came (like
// retry messages; docs/data-handling.md); the others went through data handling first.
import { agreementRecordKey } from '../../src/kit/contracts/agreement-id.ts';
import type { AgreementRecord } from '../../src/kit/contracts/agreement-record.ts';
import type { AlertRecord } from '../../src/kit/contracts/alert-record.ts';
import { fitAgreementRecord } from '../../src/kit/contracts/fit-agreement-record.ts';
import type { FittedAgreementRecord } from '../../src/kit/contracts/fit-agreement-record.ts';
import { alertKeyFor, recordKeyFor } from '../../src/kit/contracts/record-key.ts';
import type { RescoreRequest } from '../../src/kit/contracts/rescore-request.ts';
import type { ChangelogWrite } from '../../src/engine/threads/thread-stage.ts';
import { topicName } from '../../src/engine/topology/topology.ts';
import type { OutgoingRecord } from '../../kafka/kafka-records.ts';
import { originHeaders } from '../loop-guard.ts';
import { publishUntilAcknowledged } from '../publish-until-acknowledged.ts';
import type { MessageOutput } from '../record-sink.ts';
import type { EmitterContext } from './emitter-context.ts';
import type { Where } from './emission.ts';

export async function emitThreadTurn(key: string, json: string, output: MessageOutput, where: Where, context: EmitterContext): Promise<void> {
  await publishUntilAcknowledged(output, [{ topic: topicName(context.topology, 'by-thread'), key, value: json, headers: originHeaders }], where.source, context);
  context.stats.threads.rekeyed += 1;
}

export async function emitThreadState(writes: readonly ChangelogWrite[], partition: number, output: MessageOutput, where: Where, context: EmitterContext): Promise<void> {
  if (writes.length === 0) return;
  const topic = topicName(context.topology, 'thread-state');
  await publishUntilAcknowledged(output, writes.map(({ key, value }) => ({ topic, key, value: value ?? null, partition, headers: originHeaders })), where.source, context);
  context.stats.threads.stateWrites += writes.length;
}

/** The batch tier's state writes, to the partition of `{retry}-batch-state` that mirrors their batch-tier partition (consumers/batch/batch-partition.ts). */
export async function emitBatchState(writes: readonly ChangelogWrite[], partition: number, output: MessageOutput, where: Where, context: EmitterContext): Promise<void> {
  if (writes.length === 0) return;
  const topic = topicName(context.topology, 'batch-state');
  await publishUntilAcknowledged(output, writes.map(({ key, value }) => ({ topic, key, value: value ?? null, partition, headers: originHeaders })), where.source, context);
}

/** An agreement record within maxRecordBytes, or undefined (logged, counted) when not even its smallest form fits. */
export function emitAgreement(record: AgreementRecord, output: MessageOutput, where: Where, context: EmitterContext): Promise<void> | undefined {
  const { stats, logger } = context;
  const limit = context.maxRecordBytes;
  const fit = fitAgreementRecord(record, limit);
  const what = record.kind === 'pair' ? { agreementId: record.agreementId, scorerId: record.scorerId } : { scorerId: record.scorerId, windowStart: record.windowStart };
  if (fit === undefined) {
    stats.recordsDropped += 1;
    logger.error(what, `an agreement ${record.kind} cannot be written within maxRecordBytes (${limit}) even without its comment; dropped`);
    return undefined;
  }
  if (fit.record.kind === 'pair' && fit.record.truncated !== undefined) {
    stats.recordsTruncated += 1;
    logger.warn({ ...what, comment: fit.record.truncated.comment }, `an agreement pair over maxRecordBytes (${limit}) had its comment cut to fit`);
  }
  const topic = topicName(context.topology, 'agreements');
  const outgoing = (form: FittedAgreementRecord): OutgoingRecord => ({
    topic,
    key: agreementRecordKey(form.record),
    value: form.json,
    headers: originHeaders,
    fallback: () => {
      const smaller = form.smaller();
      return smaller === undefined ? undefined : outgoing(smaller);
    },
  });
  return publishUntilAcknowledged(output, [outgoing(fit)], where.source, context);
}

export function emitRescoreRequest(request: RescoreRequest, output: MessageOutput, where: Where, context: EmitterContext): Promise<void> {
  return publishUntilAcknowledged(output, [{ topic: topicName(context.topology, 'rescore'), ...recordKeyFor(request), value: JSON.stringify(request), headers: originHeaders }], where.source, context);
}

export function emitAlert(notice: AlertRecord, output: MessageOutput, where: Where, context: EmitterContext): Promise<void> {
  return publishUntilAcknowledged(output, [{ topic: topicName(context.topology, 'alerts'), key: alertKeyFor(notice), value: JSON.stringify(notice), headers: originHeaders }], where.source, context);
}
