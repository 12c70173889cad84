// A pair scored again because a person disagreed with it (docs/feedback.md, re-scoring): the
// feedback join asked (a RescoreRequest), and here the service decides and scores.
//   - admitRescore: only a binding that opted in for the request's reason (`rescoreOn`) is scored
//     again; a request for any other is refused, and the caller counts it;
//   - scoreRescore: the binding runs on the run event read back from the runs topic, like a first
//     attempt in all but eligibility — its filters and sampling admitted the run when it was first
//     scored, so they are not decided again — and a re-score is new judge work, so the `runs`
//     budgets admit it and the judge-call budgets gate its calls like any; a refusal is a
//     `budget_exhausted` decision. A transient failure is deferred to the retry tiers like any
//     (pairOutcome), its retry message keeping the mark;
//   - markRescore: every record it yields — score record, decision, retry message — carries
//     `rescore: { feedbackId, reason }` and the re-score's id (rescoreIdFor, keyed so by
//     recordKeyFor): one re-score per feedback, which a duplicate collapses into;
//   - rescoreUnavailable: the run event is not where its record says (retention deleted it, or
//     the offset holds another run): a `run_unavailable` decision.
// Pure but for the scorer and the clock, like scoreRunEvent.
import type { RescoreMark, RescoreRequest } from '../../kit/contracts/rescore-request.ts';
import type { DecisionRecord } from '../../kit/contracts/decision-record.ts';
import { rescoreIdFor } from '../../kit/contracts/score-id.ts';
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';
import type { ResolvedBinding } from '../config/resolve-config.ts';
import { buildDecisionRecord } from './build-decision-record.ts';
import { batchOutcome, noHistory, pairOutcome } from './pair-outcome.ts';
import type { RunFacts } from './run-facts.ts';
import { budgetSkip, scoreWithBinding, skippedOutcome } from './score-run-event.ts';
import type { ScoreRunEventOptions } from './score-run-event.ts';
import type { ScoringOutcome } from './scoring-outcome.ts';

/** Why a request was not acted on: its binding did not opt in for its reason, or is not configured (another version, removed). */
export const RESCORE_REFUSALS = ['not_enabled', 'binding_not_found'] as const;
export type RescoreRefusal = (typeof RESCORE_REFUSALS)[number];

export type RescoreAdmission<Event> = { readonly admitted: true; readonly binding: ResolvedBinding<Event> } | { readonly admitted: false; readonly refusal: RescoreRefusal };

export function admitRescore<Event>(request: RescoreRequest, bindings: readonly ResolvedBinding<Event>[]): RescoreAdmission<Event> {
  const binding = bindings.find((candidate) => candidate.scorerId === request.scorerId && candidate.version === request.scorerVersion);
  if (binding === undefined) return { admitted: false, refusal: 'binding_not_found' };
  if (binding.rescoreOn?.includes(request.rescore.reason) !== true) return { admitted: false, refusal: 'not_enabled' };
  return { admitted: true, binding };
}

function markRecord<Record extends ScoreRecord>(record: Record, mark: RescoreMark): Record {
  return { ...record, scoreId: rescoreIdFor({ ...record, feedbackId: mark.feedbackId }), rescore: mark };
}

const markDecision = (decision: DecisionRecord, mark: RescoreMark): DecisionRecord => ({ ...decision, rescore: mark });

/** The outcome with every record of it marked as the re-score for `mark`'s feedback, under the re-score's id. */
export function markRescore(outcome: ScoringOutcome, mark: RescoreMark): ScoringOutcome {
  switch (outcome.kind) {
    case 'record':
      return { kind: 'record', record: markRecord(outcome.record, mark) };
    case 'skipped':
      return { kind: 'skipped', decision: markDecision(outcome.decision, mark) };
    case 'deferred':
      return { ...outcome, retry: { ...outcome.retry, rescore: mark }, decision: markDecision(outcome.decision, mark), final: markRecord(outcome.final, mark) };
  }
}

/** The admitted binding scored again on the run event read back (`facts`); its outcome marked. */
export async function scoreRescore<Event>(facts: RunFacts, request: RescoreRequest, binding: ResolvedBinding<Event>, options: ScoreRunEventOptions<Event>): Promise<ScoringOutcome> {
  const now = options.now ?? Date.now;
  const decidedAt = () => new Date(now()).toISOString();
  const refusal = options.spend?.admitRun(binding.scorerId, facts.event.metadata?.tenantId);
  if (refusal !== undefined) return markRescore(skippedOutcome(facts, binding, budgetSkip(refusal), decidedAt()), request.rescore);
  const result = await scoreWithBinding(facts, binding, { eligible: true }, options);
  const outcome =
    result.kind === 'scored'
      ? pairOutcome(result.record, facts, noHistory, options.retries, now())
      : result.kind === 'batch_deferred'
        ? batchOutcome(result, facts, noHistory, undefined, now())
        : skippedOutcome(facts, binding, result.skip, decidedAt());
  return markRescore(outcome, request.rescore);
}

/** The request's run event cannot be read back: a `run_unavailable` decision saying why. */
export function rescoreUnavailable(request: RescoreRequest, detail: string, decidedAt: string): ScoringOutcome {
  const pair = { runId: request.runId, scorerId: request.scorerId, scorerVersion: request.scorerVersion, source: request.source };
  return markRescore({ kind: 'skipped', decision: buildDecisionRecord(pair, { decision: 'skipped', reason: 'run_unavailable', detail }, decidedAt) }, request.rescore);
}
