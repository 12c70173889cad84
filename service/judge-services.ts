// What every scorer run of a service gets for its steps (src/kit/scorer-services.ts): the judge
// models behind their per-model caps and measurements, the judge spend (prices and budgets, each
// instance enforcing its share of a budget by the partitions it owns), and the classifier decision
// calls under the same caps.
import type { Meter } from '@opentelemetry/api';
import { createJudgeSpend } from '../src/engine/budget/judge-spend.ts';
import { DEFAULTS } from '../src/engine/config/defaults.ts';
import { limitJudgeConcurrency } from '../src/engine/pipeline/limit-judge-concurrency.ts';
import type { LimitDecisionCall, ScorerServices } from '../src/kit/scorer-services.ts';
import { createJudgeMetrics, instrumentJudgeModels } from '../otel/judge-metrics.ts';
import { createJudgeSpendMetrics } from '../otel/judge-spend-metrics.ts';
import { recordLabels } from '../otel/record-labels.ts';
import type { RecordLabels } from '../otel/record-labels.ts';
import type { KafkaEdge } from '../kafka/kafka-edge.ts';
import { trackBudgetShare } from './budget-share.ts';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';

/** What the services are made from: the config, the process's edge, and the service's span settings (start-service.ts). */
export type JudgeServicesOptions = {
  config: ResolvedConfig;
  logger: Logger;
  edge: Pick<KafkaEdge, 'admin'>;
  recordInputs?: boolean | undefined;
  functionStepSpans?: boolean | undefined;
  consumer?: { now?: (() => number) | undefined } | undefined;
  /** The record metrics' labeller, so that a tenant has one label in the spend and the score metrics. */
  labels?: RecordLabels | undefined;
};

/** The judge models behind their caps and measurements, the judge spend (prices, budgets), and the services every scorer gets. */
export async function judgeServices(options: JudgeServicesOptions, meter: Meter) {
  const { config, logger, edge } = options;
  const judgeMetrics = createJudgeMetrics(meter);
  const spendMetrics = createJudgeSpendMetrics(meter, options.labels ?? recordLabels());
  // The limiter wraps the measured model, so judge durations exclude time queued for a slot.
  // Inside each slot a request gets its own timeout; slot waits go to the evidence and a metric.
  const models = limitJudgeConcurrency(instrumentJudgeModels(config.judge?.models, judgeMetrics), config.concurrency.judgeCallsPerModel, {
    callTimeoutMs: config.judge?.callTimeoutMs,
    defaultCallTimeoutMs: DEFAULTS.judgeCallTimeoutMs,
    onSlotWait: judgeMetrics.recordSlotWait,
  });
  // Model objects given directly in a scorer's judge config get the same cap and measurements.
  const prepareModel = (model: Parameters<typeof judgeMetrics.instrument>[0]) => models.limit(judgeMetrics.instrument(model));
  // Classifier scorers' decision-model calls share the cap (by provider and model id) and the metrics.
  const limitCall: LimitDecisionCall = (model, call) => models.run(model, () => judgeMetrics.measureCall(model, call));
  // Said once per model: a model without a price is a config gap, not an event per call.
  const warnedUnpriced = new Set<string>();
  const spend = createJudgeSpend({
    pricing: config.pricing,
    budgets: config.budgets,
    now: options.consumer?.now ?? Date.now,
    onCall: (call, scope) => {
      spendMetrics.recordCall(call, scope);
      if (call.cost !== 'unpriced' || warnedUnpriced.has(call.modelId)) return;
      warnedUnpriced.add(call.modelId);
      logger.warn({ modelId: call.modelId.slice(0, 200) }, `judge model '${call.modelId.slice(0, 200)}' has no price in the price table: its calls' usage is recorded but their cost is counted nowhere (no record, metric or cost budget); add it to pricing.models in the config`);
    },
  });
  const budgetShare = spend.ledger === undefined ? undefined : await trackBudgetShare(edge.admin, spend.ledger, config.topics.runs, logger);
  // Each run's gate wraps limitCall (score-run-event.ts): a decision call is priced and counted
  // there, once, under its binding and tenant. Wrapped here too, it was counted twice.
  const services: ScorerServices = { models, prepareModel, limitDecisionCall: limitCall, recordInputs: options.recordInputs, functionStepSpans: options.functionStepSpans, judgeCalls: spend.gate };
  return { models, spend, budgetShare, services };
}
