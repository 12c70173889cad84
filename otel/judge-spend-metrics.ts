// What judges cost, by whom (issue 49, the judge bill): every judge call's reported usage and its
// price, labelled by the model, and — for a call made on a run — the binding's scorer id and
// version and the run's tenant (bounded like the record metrics' tenants, one labeller shared with
// them: record-labels.ts). Fed by the judge spend (src/engine/budget/judge-spend.ts) as each call
// returns, so a failed attempt that a retry tier re-runs, or a classifier's decision call, counts
// once, whatever the record's evidence level keeps.
//   scorestream.judge.cost      priced calls' cost, by model, currency, scorer, version, tenant
//   scorestream.judge.usage     tokens by type: input (all of it), cached_input and cache_write
//                               (of the input), output, reasoning (of the output)
//   scorestream.judge.unpriced  calls whose model has no price: their cost is counted nowhere
import type { Attributes, Meter } from '@opentelemetry/api';
import type { JudgeCallCost, JudgeUsage } from '../src/kit/contracts/judge-execution.ts';
import type { JudgeCallScope } from '../src/kit/scorer-services.ts';
import type { RecordLabels } from './record-labels.ts';
import { scorerLabels } from './record-labels.ts';

export type JudgeSpendMetrics = {
  /** One judge call returned: its usage (when reported), its cost or `unpriced`, under its scope (none outside a run). */
  recordCall(call: { modelId: string; usage: JudgeUsage | undefined; cost: JudgeCallCost }, scope: JudgeCallScope | undefined): void;
};

const TOKEN_TYPES = [
  ['input', 'inputTokens'],
  ['cached_input', 'cachedInputTokens'],
  ['cache_write', 'cacheCreationInputTokens'],
  ['output', 'outputTokens'],
  ['reasoning', 'reasoningTokens'],
] as const;

export function createJudgeSpendMetrics(meter: Meter, labels: RecordLabels): JudgeSpendMetrics {
  const cost = meter.createCounter('scorestream.judge.cost', { description: "Cost of judge calls: their reported usage priced with the config's price table (cached input at its cache rate), by model, currency, scorer and tenant" });
  const usage = meter.createCounter('scorestream.judge.usage', { description: 'Tokens judge calls used, by type (input; cached_input and cache_write, of the input; output; reasoning, of the output), model, scorer and tenant', unit: '{token}' });
  const unpriced = meter.createCounter('scorestream.judge.unpriced', { description: 'Judge calls whose model has no price in the price table (pricing.models): their cost is in no record, metric or budget', unit: '{call}' });
  const scopeAttributes = (modelId: string, scope: JudgeCallScope | undefined): Attributes =>
    scope === undefined
      ? { 'gen_ai.request.model': modelId }
      : { 'gen_ai.request.model': modelId, ...scorerLabels(scope.scorerId, scope.scorerVersion), 'scorestream.tenant.id': labels.tenant(scope.tenant) };
  return {
    recordCall(call, scope) {
      const attributes = scopeAttributes(call.modelId, scope);
      if (call.cost === 'unpriced') unpriced.add(1, attributes);
      else if (call.cost.amount > 0) cost.add(call.cost.amount, { ...attributes, 'scorestream.currency': call.cost.unit });
      if (call.usage === undefined) return;
      for (const [type, field] of TOKEN_TYPES) {
        const tokens = call.usage[field];
        if (tokens !== undefined && tokens > 0) usage.add(tokens, { ...attributes, 'gen_ai.token.type': type });
      }
    },
  };
}
