// The id of a (feedback, score record) pair: measured again — a re-delivered feedback, a score
// record read twice after a restart — the pair has the same id, so it is counted once.
import { deterministicId } from './deterministic-id.ts';

const DOMAIN = 'scorestream.agreement-id.v1';

export function agreementIdFor(parts: { feedbackId: string; scoreId: string }): string {
  return deterministicId(DOMAIN, [parts.feedbackId, parts.scoreId]);
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
