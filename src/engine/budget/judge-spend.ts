// Judge spend of one service: prices every judge call's reported usage (its `cost` evidence and
// the cost metric) and enforces the budgets (budget-ledger.ts). Scoring asks it twice: before a
// scorer runs (`admitRun`: `runs` budgets), and through a per-run gate before each judge call
// (`runGate`: calls, tokens, cost — reserved with an estimate, settled with the real usage). The
// gate remembers a refusal, so the pipeline records the pair as `budget_exhausted`, not failed.
import type { JudgeCallCost } from '../../kit/contracts/judge-execution.ts';
import type { JudgeCallGate, JudgeCallScope, LimitDecisionCall, MadeJudgeCall, PlannedJudgeCall } from '../../kit/scorer-services.ts';
import { BudgetExhaustedError } from './budget-exhausted-error.ts';
import { createBudgetLedger, isBudgetRefusal } from './budget-ledger.ts';
import type { BudgetLedger, BudgetRefusal } from './budget-ledger.ts';
import type { BudgetConfig, PricingConfig } from './budget-schema.ts';
import { costOf, createPriceTable, judgeUsageCost } from './prices.ts';
import type { PriceTable } from './prices.ts';
import { estimateJudgeCall } from './token-estimate.ts';

/** A gate for the judge calls of one (run, scorer), which remembers the budget that refused one. */
export type RunJudgeGate = JudgeCallGate & { readonly refusal: BudgetRefusal | undefined };


export type JudgeSpend = {
  readonly prices: PriceTable;
  readonly ledger: BudgetLedger | undefined;
  /** Prices calls without budgets: for runs outside any (run, scorer) scope. */
  readonly gate: JudgeCallGate;
  /** Before a scorer runs on a run: a refusal when a `runs` budget is exhausted (counted otherwise). */
  admitRun(scorerId: string, tenant: string | undefined): BudgetRefusal | undefined;
  /**
   * The gate of one (run, binding): its calls priced and counted under the binding's scorer and
   * version and the run's tenant, and held to the budgets. Without budgets a gate keeps no state,
   * and one per (scorer, version, tenant) serves every run.
   */
  runGate(scorerId: string, scorerVersion: string | undefined, tenant: string | undefined): RunJudgeGate;
};

export type JudgeSpendOptions = {
  pricing: PricingConfig;
  budgets?: readonly BudgetConfig[];
  now: () => number;
  /** Each call's reported usage, priced (`cost`), or `unpriced` when the table has no price for its model — its usage kept, its cost not guessed; `scope` undefined outside a (run, binding). */
  onCall?: (call: { modelId: string; usage: MadeJudgeCall['usage']; cost: JudgeCallCost }, scope: JudgeCallScope | undefined) => void;
};

/** `map`'s map under `key`, made when missing. */
function inner<Key, Value>(map: Map<Key, Map<string | undefined, Value>>, key: Key): Map<string | undefined, Value> {
  let found = map.get(key);
  if (found === undefined) map.set(key, (found = new Map()));
  return found;
}

/** Stateless gates kept for reuse per binding (one per tenant) before they are made afresh. */
const MAX_SHARED_GATES = 4096;

export function createJudgeSpend(options: JudgeSpendOptions): JudgeSpend {
  const prices = createPriceTable(options.pricing.models, options.pricing.currency);
  const budgets = options.budgets ?? [];
  const ledger = budgets.length === 0 ? undefined : createBudgetLedger(budgets, options.now);

  const price = (made: MadeJudgeCall, scope: JudgeCallScope | undefined): JudgeCallCost | undefined => {
    const cost = judgeUsageCost(prices, made.judgeModelId, made.usage, made.priceRate);
    if (cost !== undefined) options.onCall?.({ modelId: made.judgeModelId, usage: made.usage, cost }, scope);
    return cost;
  };

  const sharedGates = new Map<string, Map<string | undefined, Map<string | undefined, RunJudgeGate>>>();

  const makeGate = (scope: JudgeCallScope | undefined): RunJudgeGate => {
    const after = (made: MadeJudgeCall) => price(made, scope);
    let refusal: BudgetRefusal | undefined;
    return {
      get refusal() {
        return refusal;
      },
      before(call: PlannedJudgeCall) {
        if (ledger === undefined || scope === undefined) return { after };
        const estimate = estimateJudgeCall(call, options.pricing.estimate);
        const modelPrice = prices.priceOf(call.modelId);
        const reserved = ledger.reserveJudgeCall(
          { scorerId: scope.scorerId, tenant: scope.tenant, modelId: call.modelId },
          { calls: 1, tokens: estimate.inputTokens + estimate.outputTokens, cost: modelPrice === undefined ? 0 : costOf(modelPrice, estimate.inputTokens, estimate.outputTokens) },
        );
        if (isBudgetRefusal(reserved)) {
          refusal = reserved;
          throw new BudgetExhaustedError(reserved);
        }
        return {
          after(made: MadeJudgeCall) {
            const cost = after(made);
            const usage = made.usage;
            const reported = usage?.totalTokens ?? (usage?.inputTokens === undefined && usage?.outputTokens === undefined ? undefined : (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0));
            // Without reported usage (the call failed before any response) the estimate stays booked.
            reserved.settle({
              calls: Math.max(1, made.modelCallCount),
              tokens: reported ?? estimate.inputTokens + estimate.outputTokens,
              cost: typeof cost === 'object' ? cost.amount : modelPrice === undefined ? 0 : costOf(modelPrice, estimate.inputTokens, estimate.outputTokens),
            });
            return cost;
          },
        };
      },
    };
  };

  return {
    prices,
    ledger,
    gate: makeGate(undefined),
    admitRun: (scorerId, tenant) => ledger?.admitRun(scorerId, tenant),
    runGate(scorerId, scorerVersion, tenant) {
      if (ledger !== undefined) return makeGate({ scorerId, scorerVersion, tenant });
      // A gate made per binding and run cost the hot path 1.5 µs a binding (docs/benchmarks.md, the 2026-12-07 entry).
      // By scorer, version, then tenant: no key string built per binding and run.
      const byTenant = inner(inner(sharedGates, scorerId), scorerVersion);
      let gate = byTenant.get(tenant);
      if (gate === undefined) {
        // Bounded whatever the tenants: past the bound the gates are made again, not kept.
        if (byTenant.size >= MAX_SHARED_GATES) byTenant.clear();
        byTenant.set(tenant, (gate = makeGate({ scorerId, scorerVersion, tenant })));
      }
      return gate;
    },
  };
}

/**
 * Puts a classifier scorer's decision-model calls through a gate, like prompt steps' judge calls:
 * refused when a budget is exhausted, priced and settled with the usage the decision model
 * reports (plain token numbers). The prompt is not visible here, so the estimate reserved is the
 * output expectation alone; the settlement books the real usage.
 */
export function gateDecisionCalls(gate: JudgeCallGate, limit: LimitDecisionCall | undefined): LimitDecisionCall {
  return async (model, call) => {
    const permit = gate.before({ modelId: model.modelId, provider: model.provider, instructions: '', prompt: '' });
    try {
      const result = await (limit === undefined ? call() : limit(model, call));
      const usage = (result as { usage?: { inputTokens?: unknown; outputTokens?: unknown } } | undefined)?.usage;
      const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
      const inputTokens = count(usage?.inputTokens);
      const outputTokens = count(usage?.outputTokens);
      permit.after({
        judgeModelId: model.modelId,
        modelCallCount: 1,
        ...(inputTokens === undefined && outputTokens === undefined ? {} : { usage: { ...(inputTokens === undefined ? {} : { inputTokens }), ...(outputTokens === undefined ? {} : { outputTokens }) } }),
      });
      return result;
    } catch (error) {
      permit.after({ judgeModelId: model.modelId, modelCallCount: 1 });
      throw error;
    }
  };
}
