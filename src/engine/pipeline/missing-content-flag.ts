// A score record whose run lacks a part scorers read (its `missing`: an OTLP run whose spans held
// no user message or no final answer, docs/otlp.md "Missing content") is never silent: it goes out
// with a `flagged` / `missing_content` decision naming the pair, so that the decisions topic
// explains it beside the skips. A flag is no skip: the pair was scored. Pure: the caller brings
// the clock reading.
import type { DecisionRecord } from '../../kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import { buildDecisionRecord } from './build-decision-record.ts';

/** At most this much of the reasons goes into `detail` (span names come from the agent's app); the record keeps them whole. */
const DETAIL_CHARS = 1_000;

/** The record's flag, or undefined when its run is whole. */
export function missingContentFlag(record: ScoreRecord, decidedAt: string): DecisionRecord | undefined {
  if (record.missing === undefined || record.missing.length === 0) return undefined;
  return buildDecisionRecord(
    { runId: record.runId, event: record, scorerId: record.scorerId, scorerVersion: record.scorerVersion, trace: record.trace, source: record.source },
    { decision: 'flagged', reason: 'missing_content', detail: record.missing.map((entry) => entry.reason).join('; ').slice(0, DETAIL_CHARS) },
    decidedAt,
  );
}
