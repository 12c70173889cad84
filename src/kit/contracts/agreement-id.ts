// The id of an agreement pair: measured again — a re-delivered feedback, a score record read
// twice after a restart — the pair has the same id, so it is counted once.
//   run     one per (feedback, score record): a run's record of a scorer version is one record.
//   thread  one per (feedback, thread, scorer, scorer version), whichever version of the thread's
//           score it is compared with (docs/feedback.md, feedback on a thread): a later version
//           that becomes the compared one replaces the pair instead of adding one, so a feedback
//           counts once per thread scorer.
import { deterministicId } from './deterministic-id.ts';

const DOMAIN = 'scorestream.agreement-id.v1';
const THREAD_DOMAIN = 'scorestream.thread-agreement-id.v1';

export function agreementIdFor(parts: { feedbackId: string; scoreId: string }): string {
  return deterministicId(DOMAIN, [parts.feedbackId, parts.scoreId]);
}

export function threadAgreementIdFor(parts: { feedbackId: string; threadKey: string; scorerId: string; scorerVersion?: string | undefined }): string {
  return deterministicId(THREAD_DOMAIN, [parts.feedbackId, parts.threadKey, parts.scorerId, parts.scorerVersion]);
}

/**
 * The Kafka key of an agreement record on its compacted topic: a pair by its agreementId, a window
 * by its scorer, version and start — so a pair measured again, or a window updated, replaces the
 * earlier record instead of adding one.
 */
export function agreementRecordKey(record: { kind: 'pair'; agreementId: string } | { kind: 'window'; scorerId: string; scorerVersion?: string | undefined; windowStart: string }): string {
  if (record.kind === 'pair') return record.agreementId;
  return JSON.stringify([record.scorerId, record.scorerVersion ?? null, record.windowStart]);
}
