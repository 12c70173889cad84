// The GenAI semantic conventions' evaluation result on a score span: a `gen_ai.evaluation.result`
// event with the evaluation's name, score value, label and explanation, so that backends that know
// the conventions show the score on the agent run's trace (the score span is a child of the agent
// span). The explanation is the scorer's reason, written by a judge about the run's content: like
// prompts, it goes on the span only when the deployment records inputs (ScorerServices.recordInputs).
import type { Attributes, Span } from '@opentelemetry/api';
import type { ScorerOutcome } from './scorer-outcome.ts';
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import { scoreIdFor } from '../../kit/contracts/score-id.ts';

export const EVALUATION_EVENT = 'gen_ai.evaluation.result';

/** A pair not scored, as an evaluation's explanation: the step where it stopped, and why when said. */
function whereAndWhy(step: string, why: string | undefined): string {
  return why === undefined || why === '' ? step : `${step}: ${why}`;
}

/** The event's attributes for an outcome (undefined: nothing to report). */
export function evaluationAttributes(scorerId: string, outcome: ScorerOutcome, withExplanation: boolean): Attributes {
  const attributes: Attributes = { 'gen_ai.evaluation.name': scorerId };
  if (outcome.status === 'scored') {
    attributes['gen_ai.evaluation.score.value'] = outcome.score;
    const label = outcome.result.label;
    if (typeof label === 'string' && label !== '') attributes['gen_ai.evaluation.score.label'] = label;
    const reason = outcome.result.reason;
    if (withExplanation && typeof reason === 'string' && reason !== '') attributes['gen_ai.evaluation.explanation'] = reason;
  } else {
    // Not scored: the label says why, the explanation (a reason of our own making, not run content) how.
    attributes['gen_ai.evaluation.score.label'] = outcome.status;
    attributes['gen_ai.evaluation.explanation'] = outcome.status === 'failed' ? whereAndWhy(outcome.error.failedStep, outcome.error.message) : whereAndWhy(outcome.notScorable.step, outcome.notScorable.reason);
  }
  return attributes;
}

/** The evaluation as a span event; `provenance` names the score where several share one span (run-scores-span.ts). */
export function addEvaluationEvent(span: Span, scorerId: string, outcome: ScorerOutcome, withExplanation: boolean, provenance?: Attributes, time?: number): void {
  const attributes = evaluationAttributes(scorerId, outcome, withExplanation);
  span.addEvent(EVALUATION_EVENT, provenance === undefined ? attributes : { ...attributes, ...provenance }, time);
}

/**
 * A score record as an evaluation log record (docs/observability.md, evaluation log records): the
 * same `gen_ai.evaluation.*` attributes as the span event, on the evaluated span — the agent run's
 * span, the record's `trace.parentSpanId` (a thread score's: its last turn's) — with what the
 * convention has no name for yet under `scorestream.*`. Built from the record as it was written,
 * so its explanation is the record's reason under the record's evidence level and redaction.
 */
export type EvaluationLog = {
  eventName: typeof EVALUATION_EVENT;
  /** When the score was made (epoch ms): a log record may come long after the span it evaluates. */
  timeMs: number;
  /** The evaluated span, when the run had trace context. */
  trace?: { traceId: string; spanId: string; sampled: boolean };
  attributes: Attributes;
};

export function evaluationLogOf(record: ScoreRecord): EvaluationLog {
  const attributes: Attributes = { 'gen_ai.evaluation.name': record.scorerId };
  if (record.status === 'scored') {
    attributes['gen_ai.evaluation.score.value'] = record.score;
    if (record.verdict !== undefined) attributes['gen_ai.evaluation.score.label'] = record.verdict;
    if (typeof record.reason === 'string' && record.reason !== '') attributes['gen_ai.evaluation.explanation'] = record.reason;
  } else {
    // Not scored is an evaluation too: the label says why, the explanation (our own words, not run content) how.
    attributes['gen_ai.evaluation.score.label'] = record.status;
    attributes['gen_ai.evaluation.explanation'] = record.status === 'failed' ? whereAndWhy(record.error.failedStep, record.error.message) : whereAndWhy(record.notScorable.step, record.notScorable.reason);
  }
  attributes['scorestream.score_id'] = record.scoreId;
  attributes['scorestream.run_id'] = record.runId;
  attributes['scorestream.status'] = record.status;
  if (record.scorerVersion !== undefined) attributes['scorestream.scorer.version'] = record.scorerVersion;
  // An escalated judge's score says which tier sent the run to it (docs/spend-and-replay.md, escalation).
  if (record.escalation !== undefined) attributes['scorestream.escalation.tier'] = record.escalation.tier;
  if (record.rescore !== undefined) {
    // A re-score for a feedback stands beside the pair's own score, which it supersedes.
    attributes['scorestream.supersedes'] = scoreIdFor({ runId: record.runId, scorerId: record.scorerId, scorerVersion: record.scorerVersion });
    attributes['scorestream.rescore.feedback_id'] = record.rescore.feedbackId;
  }
  if (record.thread !== undefined) {
    // The score of a conversation sits on its last turn's span; the other turns are named by run id,
    // and a version scored after the thread resumed names the version it supersedes.
    attributes['scorestream.thread.id'] = record.thread.id;
    attributes['scorestream.thread.version'] = record.thread.version;
    attributes['scorestream.thread.version_id'] = record.thread.versionId;
    attributes['scorestream.thread.turns'] = record.thread.turns;
    if (record.thread.runIds !== undefined) attributes['scorestream.thread.run_ids'] = record.thread.runIds;
    if (record.thread.supersedes !== undefined) attributes['scorestream.thread.supersedes'] = record.thread.supersedes;
  }
  const { trace } = record;
  const spanId = trace?.parentSpanId;
  return {
    eventName: EVALUATION_EVENT,
    timeMs: Date.parse(record.scoredAt),
    ...(trace === undefined || spanId === undefined ? {} : { trace: { traceId: trace.traceId, spanId, sampled: trace.sampled !== false } }),
    attributes,
  };
}
