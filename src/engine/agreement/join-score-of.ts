// What the feedback join keeps of a scored record (feedback-join.ts): a run's score with its run
// event's position (for a re-score), a thread's with its version. Pure.
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import type { JoinScore } from './feedback-join.ts';

export function joinScoreOf(record: ScoreRecord & { status: 'scored' }): JoinScore {
  const { thread } = record;
  return {
    scoreId: record.scoreId,
    runId: record.runId,
    scorerId: record.scorerId,
    scorerVersion: record.scorerVersion,
    score: record.score,
    verdict: record.verdict,
    entity: record.entity,
    metadata: record.metadata,
    ...(thread === undefined ? { source: record.source } : { thread: { id: thread.id, key: thread.key, version: thread.version, scoredAtMs: Date.parse(record.scoredAt) } }),
  };
}
