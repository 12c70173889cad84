// What scoring a run yields, declared once: one outcome per scorer binding, each as soon as that
// binding is done (src/engine/pipeline/score-run-event.ts). The transport turns each into records
// (consumers/record-emitter.ts); the core never publishes and never calls back.
//   record    the pair's score record: scored, not_scorable, or failed for good;
//   skipped   the pair is not scored: a decision record says why (eligibility, a budget, a trace
//             that yielded no run);
//   deferred  the pair failed transiently and waits for its next attempt: the retry message (for
//             the retry tier of `delayMs`), its `deferred` decision, and the failed record to
//             publish as final should the retry message not be writable; with `batch`, the pair
//             waits on the batch tier instead (its binding's judge mode is 'batch': the retry
//             message's `batch` holds the judge requests it waits on).
import type { DecisionRecord } from '../../kit/contracts/decision-record.ts';
import type { RetryMessage } from '../../kit/contracts/retry-message.ts';
import type { FailedScoreRecord, ScoreRecord } from '../../kit/contracts/score-record.ts';

export type ScoringOutcome =
  | { readonly kind: 'record'; readonly record: ScoreRecord }
  | { readonly kind: 'skipped'; readonly decision: DecisionRecord }
  | { readonly kind: 'deferred'; readonly retry: RetryMessage; readonly delayMs: number; readonly batch?: true; readonly decision: DecisionRecord; readonly final: FailedScoreRecord };

export type SettledOutcomes = { records: ScoreRecord[]; decisions: DecisionRecord[]; deferred: Extract<ScoringOutcome, { kind: 'deferred' }>[] };

/** Every outcome once all are done, by kind, in binding order: for callers that want them together (a dry run, tests). */
export async function settleOutcomes(outcomes: ReadonlyArray<Promise<ScoringOutcome>>): Promise<SettledOutcomes> {
  const settled: SettledOutcomes = { records: [], decisions: [], deferred: [] };
  for (const outcome of await Promise.all(outcomes)) {
    if (outcome.kind === 'record') settled.records.push(outcome.record);
    else if (outcome.kind === 'skipped') settled.decisions.push(outcome.decision);
    else settled.deferred.push(outcome);
  }
  return settled;
}
