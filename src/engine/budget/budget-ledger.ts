// The judge budgets of one service instance: rolling-window counters per budget (and per tenant
// for `perTenant` budgets), checked before a run is scored (`runs`) and before each judge call
// (`judgeCalls`, `tokens`, `cost`), and settled with the real usage after the call. Pure: the clock
// is injected and nothing here knows Kafka.
//
// In a consumer group each instance enforces its share of every budget: `max` × the partitions of
// the runs topic it owns / the topic's partitions (`setShare`, called on every rebalance), so the
// instances together stay within `max` while the partitions are spread evenly in traffic.
import type { BudgetConfig, BudgetMeasure } from './budget-schema.ts';
import { RollingCounter } from './rolling-window.ts';
import type { BudgetWindow } from '../../kit/contracts/decision-record.ts';

/** Which budget refused, as decision records, metrics and logs name it. */
export type BudgetRefusal = { name: string; window: BudgetWindow; of: BudgetMeasure; max: number; share: number; used: number; wanted: number };

/** What one judge call is expected to use (reserved), or did use (settled). */
export type JudgeCallAmounts = { calls: number; tokens: number; cost: number };

/** Where a charge was booked, so that it can be settled with the real amounts. */
export type BudgetCharge = { settle(actual: JudgeCallAmounts): void };

export type BudgetLedger = {
  readonly budgets: readonly BudgetConfig[];
  /** This instance's share of every budget, from 0 to 1 (owned partitions / topic partitions). */
  setShare(share: number): void;
  readonly share: number;
  /** Counts one scored run of the scorer, unless a `runs` budget is exhausted. */
  admitRun(scorerId: string, tenant: string | undefined): BudgetRefusal | undefined;
  /** Reserves a judge call's estimate in every budget it falls under, unless one is exhausted. */
  reserveJudgeCall(scope: { scorerId: string; tenant: string | undefined; modelId: string }, estimate: JudgeCallAmounts): BudgetRefusal | BudgetCharge;
  /** Used amount of a budget in its window, for `tenant` when it is per tenant (tests, views). */
  used(name: string, tenant?: string): number;
};

const noTenant = '\u0000none';

function amountOf(measure: Exclude<BudgetMeasure, 'runs'>, amounts: JudgeCallAmounts): number {
  return measure === 'judgeCalls' ? amounts.calls : measure === 'tokens' ? amounts.tokens : amounts.cost;
}

/** `gpt-4o-mini` matches `gpt-4o-mini`, `openai:gpt-4o-mini` and `openai/gpt-4o-mini`. */
function matchesModel(budgetModel: string | undefined, modelId: string): boolean {
  if (budgetModel === undefined || budgetModel === modelId) return true;
  return modelId.replace(/^[^:/]+[:/]/, '') === budgetModel.replace(/^[^:/]+[:/]/, '');
}

export function createBudgetLedger(budgets: readonly BudgetConfig[], now: () => number): BudgetLedger {
  const counters = new Map<string, RollingCounter>();
  let share = 1;
  const counterFor = (budget: BudgetConfig, tenant: string | undefined) => {
    const key = `${budget.name}\u0000${budget.perTenant ? (tenant ?? noTenant) : ''}`;
    let counter = counters.get(key);
    if (counter === undefined) counters.set(key, (counter = new RollingCounter(budget.window, now)));
    return counter;
  };
  const refusal = (budget: BudgetConfig, used: number, wanted: number): BudgetRefusal => ({
    name: budget.name,
    window: budget.window,
    of: budget.of,
    max: budget.max,
    share,
    used,
    wanted,
  });
  // A charge fits when what was used plus it stays within this instance's share of `max`.
  const fits = (used: number, wanted: number, budget: BudgetConfig) => used + wanted <= budget.max * share + 1e-9;
  const runBudgets = budgets.filter((budget) => budget.of === 'runs');
  const callBudgets = budgets.filter((budget) => budget.of !== 'runs') as (BudgetConfig & { of: Exclude<BudgetMeasure, 'runs'> })[];

  return {
    budgets,
    get share() {
      return share;
    },
    setShare(value) {
      share = Math.min(1, Math.max(0, value));
    },
    admitRun(scorerId, tenant) {
      const matching = runBudgets.filter((budget) => budget.scorer === undefined || budget.scorer === scorerId);
      if (matching.length === 0) return undefined;
      const counted = matching.map((budget) => ({ budget, counter: counterFor(budget, tenant) }));
      for (const { budget, counter } of counted) {
        const used = counter.total();
        if (!fits(used, 1, budget)) return refusal(budget, used, 1);
      }
      for (const { counter } of counted) counter.add(1);
      return undefined;
    },
    reserveJudgeCall(scope, estimate) {
      const matching = callBudgets.filter((budget) => (budget.scorer === undefined || budget.scorer === scope.scorerId) && matchesModel(budget.model, scope.modelId));
      if (matching.length === 0) return { settle() {} };
      const counted = matching.map((budget) => ({ budget, counter: counterFor(budget, scope.tenant), reserved: amountOf(budget.of, estimate) }));
      for (const { budget, counter, reserved } of counted) {
        const used = counter.total();
        if (!fits(used, reserved, budget)) return refusal(budget, used, reserved);
      }
      const marks = counted.map(({ counter, reserved }) => counter.add(reserved));
      return {
        settle(actual) {
          counted.forEach(({ budget, counter, reserved }, index) => counter.adjust(marks[index]!, amountOf(budget.of, actual) - reserved));
        },
      };
    },
    used(name, tenant) {
      const budget = budgets.find((candidate) => candidate.name === name);
      return budget === undefined ? 0 : counterFor(budget, tenant).total();
    },
  };
}

export function isBudgetRefusal(value: BudgetRefusal | BudgetCharge): value is BudgetRefusal {
  return 'name' in value;
}
