// The id of a (feedback, score record) pair: measured again — a re-delivered feedback, a score
// record read twice after a restart — the pair has the same id, so it is counted once.
import { deterministicId } from './deterministic-id.ts';

const DOMAIN = 'scorestream.agreement-id.v1';

export function agreementIdFor(parts: { feedbackId: string; scoreId: string }): string {
  return deterministicId(DOMAIN, [parts.feedbackId, parts.scoreId]);
}
