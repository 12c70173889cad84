// Deterministic score ids: the same (runId, scorerId, scorerVersion) always yields the same id,
// so a re-scored run (rebalance, replay, crash) produces a recognisable duplicate and a compacted
// topic keeps one record. The encoding is deterministicId's (deterministic-id.ts).
import { deterministicId } from './deterministic-id.ts';

const DOMAIN = 'scorestream.score-id.v1';

export type ScoreIdParts = { runId: string; scorerId: string; scorerVersion?: string | undefined };

export function scoreIdFor(parts: ScoreIdParts): string {
  return deterministicId(DOMAIN, [parts.runId, parts.scorerId, parts.scorerVersion]);
}
