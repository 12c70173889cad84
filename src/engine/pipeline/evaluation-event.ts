// The GenAI semantic conventions' evaluation result on a score span: a `gen_ai.evaluation.result`
// event with the evaluation's name, score value, label and explanation, so that backends that know
// the conventions show the score on the agent run's trace (the score span is a child of the agent
// span). The explanation is the scorer's reason, written by a judge about the run's content: like
// prompts, it goes on the span only when the deployment records inputs (ScorerServices.recordInputs).
import type { Attributes, Span } from '@opentelemetry/api';
import type { ScorerOutcome } from './scorer-outcome.ts';

export const EVALUATION_EVENT = 'gen_ai.evaluation.result';

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
    attributes['gen_ai.evaluation.explanation'] = outcome.status === 'failed' ? `${outcome.error.failedStep}: ${outcome.error.message}` : `${outcome.notScorable.step}: ${outcome.notScorable.reason}`;
  }
  return attributes;
}

export function addEvaluationEvent(span: Span, scorerId: string, outcome: ScorerOutcome, withExplanation: boolean): void {
  span.addEvent(EVALUATION_EVENT, evaluationAttributes(scorerId, outcome, withExplanation));
}
