// Deterministic score ids: the same (runId, scorerId, scorerVersion) always yields the same id,
// so a re-scored run (rebalance, replay, crash) produces a recognisable duplicate and a compacted
// topic keeps one record. The encoding is deterministicId's (deterministic-id.ts).
import { deterministicId } from './deterministic-id.ts';

const DOMAIN = 'scorestream.score-id.v1';
const RESCORE_DOMAIN = 'scorestream.rescore-id.v1';

export type ScoreIdParts = { runId: string; scorerId: string; scorerVersion?: string | undefined };

export function scoreIdFor(parts: ScoreIdParts): string {
  return deterministicId(DOMAIN, [parts.runId, parts.scorerId, parts.scorerVersion]);
}

/**
 * The id of a pair scored again for a feedback (docs/feedback.md, re-scoring): one per (run, scorer,
 * scorer version, feedback), so the same feedback sent twice, or its request read twice, is the same
 * re-score, and a compacted results topic keeps it beside the pair's own record.
 */
export function rescoreIdFor(parts: ScoreIdParts & { feedbackId: string }): string {
  return deterministicId(RESCORE_DOMAIN, [parts.runId, parts.scorerId, parts.scorerVersion, parts.feedbackId]);
}
