// What a scorer's steps may use from whoever runs them: judge model resolution and wrapping,
// the cap on classifier decision calls, the classifier registry and whether prompts may be
// recorded. Mastra's steps reach such things through the Mastra instance; Scorestream has none,
// so they come with the run: `scorer.run(input, { models, ... })` from a user, one object built
// by the service's composition root (service/start-service.ts) for every run it scores. Each step
// context carries them as `services` (docs/scorers.md).
import type { ClassifierRegistry } from './classifier/classifier-registry.ts';
import type { JudgeCallCost, JudgeUsage } from './contracts/judge-execution.ts';
import type { PrepareJudgeModel } from './judge/model-resolution.ts';
import type { JudgeModelResolver } from './judge/types.ts';

/** Runs one call to a decision model, e.g. inside the service's per-model cap and metrics. */
export type LimitDecisionCall = <T>(model: { provider: string; modelId: string }, call: () => PromiseLike<T>) => Promise<T>;

/** A prompt step's judge call about to be made: what a gate checks it by. */
export type PlannedJudgeCall = { modelId: string; provider?: string; instructions: string; prompt: string; maxOutputTokens?: number };
/** What the judge call reported once made. */
export type MadeJudgeCall = {
  judgeModelId: string;
  usage?: JudgeUsage;
  modelCallCount: number;
  /** The share of the list price the call costs: the batch tier's calls are billed at the batch rate (`pricing.batchRate`). Default 1. */
  priceRate?: number;
};

/**
 * Asked before every judge call of a prompt step (src/kit/scorer/prompt-step.ts); `before` throws to
 * refuse the call (a budget is exhausted, src/engine/budget/), and `after` settles it with the real usage
 * and returns its cost for the step's judge evidence.
 */
export type JudgeCallGate = { before(call: PlannedJudgeCall): { after(made: MadeJudgeCall): JudgeCallCost | undefined } };

/** Whose judge calls a gate passes: a binding's, on a run of a tenant — what the spend metrics are labelled by. */
export type JudgeCallScope = { readonly scorerId: string; readonly scorerVersion?: string | undefined; readonly tenant: string | undefined };

export type ScorerServices = {
  /** Resolves string judge model ids, e.g. `createProviderRegistry(...)`; falls back to the application default. */
  models?: JudgeModelResolver;
  /** Wraps judge model objects given directly in a judge config (e.g. the service's per-model cap and metrics). */
  prepareModel?: PrepareJudgeModel;
  /**
   * Runs each call a classifier scorer makes to its decision model (e.g. the service's per-model
   * cap and metrics, shared with judge models of the same provider and id).
   */
  limitDecisionCall?: LimitDecisionCall;
  /** Where a classifier scorer finds a classifier it names by id; takes precedence over the scorer's own `classifiers`. */
  classifiers?: ClassifierRegistry;
  /** Budgets and cost of judge calls (the service's, src/engine/budget/judge-spend.ts). */
  judgeCalls?: JudgeCallGate;
  /** Record prompts on spans (ours and the AI SDK's). Off by default: prompts can carry user content. */
  recordInputs?: boolean;
  /**
   * A span for every function step too. Off by default: a function step takes microseconds, and
   * its span (created, recorded, serialised, exported) cost more than the step — most of what
   * tracing cost the service (docs/benchmarks.md). Prompt steps always have theirs: the judge's
   * spans nest under them.
   */
  functionStepSpans?: boolean;
  /**
   * The run's deadline in ms (the service sets its binding's timeoutMs): without judge.callTimeoutMs,
   * the service bounds each judge request by a quarter of it (at most 30 s).
   */
  scorerTimeoutMs?: number;
};
