// Thrown by a judge-call gate (judge-spend.ts) before a judge call that a budget refuses. The run
// is then recorded as a `budget_exhausted` decision (src/engine/pipeline/score-run-event.ts), not as a
// failure: nothing was wrong with the run, and a replay can score it later.
import { ScorestreamError } from '../../kit/errors.ts';
import type { BudgetRefusal } from './budget-ledger.ts';

export class BudgetExhaustedError extends ScorestreamError {
  readonly refusal: BudgetRefusal;

  constructor(refusal: BudgetRefusal) {
    super(describeRefusal(refusal), { code: 'budget_exhausted', canRetry: true });
    this.name = 'BudgetExhaustedError';
    this.refusal = refusal;
  }
}

/** One line for decision records and logs: which budget, how much of it this instance used. */
export function describeRefusal(refusal: BudgetRefusal): string {
  const limit = refusal.max * refusal.share;
  const round = (value: number) => (Number.isInteger(value) ? String(value) : value.toPrecision(4));
  const shareText = refusal.share === 1 ? '' : ` (this instance's share ${round(refusal.share)} of ${round(refusal.max)})`;
  return `budget '${refusal.name}' of ${refusal.of} per ${refusal.window} is exhausted: ${round(refusal.used)} used, ${round(refusal.wanted)} more wanted, limit ${round(limit)}${shareText}; re-score these runs later with scorestream replay`;
}
