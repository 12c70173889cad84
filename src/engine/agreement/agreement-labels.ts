// The one scale the live join compares a judge and a person on: pass or fail (docs/feedback.md,
// the join). A judge's record says it by its verdict, or by its score against a threshold; a
// person by a boolean (thumbs up is pass), a number in [0, 1] against the same threshold, the
// label 'pass' or 'fail', or a correction's label or score. Anything else (a 1–5 rating, a free
// label) is valid feedback the join cannot place on the scale: it is counted, not compared.
import type { FeedbackRecord } from '../../kit/contracts/feedback-record.ts';

/** The labels in order (fail < pass), as the window records' confusion tables list them. */
export const VERDICT_SCALE = ['fail', 'pass'] as const;
export type VerdictLabel = (typeof VERDICT_SCALE)[number];

/** The score at and above which a score means pass, when its record has no verdict. */
export const DEFAULT_PASS_THRESHOLD = 0.5;

/** What the join needs of a scored record. */
export type JudgedScore = { score: number; verdict?: 'pass' | 'fail' | undefined };

export function judgeLabel(record: JudgedScore, passThreshold = DEFAULT_PASS_THRESHOLD): VerdictLabel {
  return record.verdict ?? (record.score >= passThreshold ? 'pass' : 'fail');
}

/** The person's label, or undefined when the feedback does not say pass or fail. */
export function humanLabel(feedback: Pick<FeedbackRecord, 'value' | 'correction'>, passThreshold = DEFAULT_PASS_THRESHOLD): VerdictLabel | undefined {
  const correction = feedback.correction;
  if (correction !== undefined) {
    if (correction.label === 'pass' || correction.label === 'fail') return correction.label;
    if (correction.score !== undefined) return correction.score >= passThreshold ? 'pass' : 'fail';
    return undefined;
  }
  const value = feedback.value;
  if (typeof value === 'boolean') return value ? 'pass' : 'fail';
  if (typeof value === 'number') return value >= 0 && value <= 1 ? (value >= passThreshold ? 'pass' : 'fail') : undefined;
  return value === 'pass' || value === 'fail' ? value : undefined;
}

/** Whether feedback speaks about a scorer's record: a correction about its scorer (and version, when named) only; other feedback about every scorer of the run. */
export function feedbackApplies(feedback: Pick<FeedbackRecord, 'correction'>, score: { scorerId: string; scorerVersion?: string | undefined }): boolean {
  const correction = feedback.correction;
  if (correction === undefined) return true;
  if (correction.scorerId !== score.scorerId) return false;
  return correction.scorerVersion === undefined || correction.scorerVersion === score.scorerVersion;
}
