// Step budget (code, no judge): did the agent stay within the model calls, tool calls, tokens and
// time it was allowed? Graded, not pass/fail: a run slightly over a limit scores a little below 1,
// a run at `limit × (1 + tolerance)` or beyond scores 0, so a dashboard sees drift before it is a
// breach. Measures the run does not carry (no usage, no duration) are reported, not guessed.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { notScorable } from '../../../scorer/not-scorable.ts';
import type { PreparedScorerRun } from '../../../scorer/types.ts';
import { invalidScorerOptions, numberOption } from '../../shared/invalid-options.ts';
import { listToolCalls } from '../../shared/tool-invocations.ts';
import { isRecord } from '../../../utils/message-text.ts';

export const stepBudgetScorerId = 'step-budget';

export type StepBudgetOptions = {
  /** Most model calls (LLM steps) the run may make. */
  maxModelCalls?: number;
  /** Most tool calls the run may make. */
  maxToolCalls?: number;
  /** Most tokens (the run's `usage.totalTokens`, else input + output) the run may use. */
  maxTotalTokens?: number;
  /** Longest the run may take, in milliseconds (the run's `durationMs`). */
  maxDurationMs?: number;
  /**
   * How far past a limit the score reaches 0, as a share of the limit: the default 1 means 0 at
   * twice the limit; 0.5 means 0 at one and a half times the limit.
   */
  tolerance?: number;
};

export type BudgetMeasure = 'modelCalls' | 'toolCalls' | 'totalTokens' | 'durationMs';

export type BudgetCheck = { limit: number; value: number; subScore: number };

export type StepBudgetMeasures = { modelCalls: number; toolCalls: number; totalTokens?: number; durationMs?: number };

export type StepBudgetResult = {
  measures: StepBudgetMeasures;
  /** How model calls were counted: step-start parts, or assistant messages when there are none. */
  modelCallsCountedBy: 'step-start parts' | 'assistant messages';
  /** One entry per configured limit the run could be measured against. */
  checks: Partial<Record<BudgetMeasure, BudgetCheck>>;
  /** Configured limits whose measure the run lacks. */
  unmeasured: BudgetMeasure[];
  tolerance: number;
};

/** Each limit: its option, the measure it caps, and how the reason names the measure. */
const budgets = [
  { option: 'maxModelCalls', measure: 'modelCalls', name: 'model calls', unit: 'model calls', missing: 'no response messages' },
  { option: 'maxToolCalls', measure: 'toolCalls', name: 'tool calls', unit: 'tool calls', missing: 'no response messages' },
  { option: 'maxTotalTokens', measure: 'totalTokens', name: 'tokens', unit: 'tokens', missing: 'the run carries no usage' },
  { option: 'maxDurationMs', measure: 'durationMs', name: 'duration', unit: 'ms', missing: 'the run carries no durationMs' },
] as const satisfies readonly { option: keyof StepBudgetOptions; measure: BudgetMeasure; name: string; unit: string; missing: string }[];

type BudgetLimits = Partial<Record<BudgetMeasure, number>>;

function validateOptions(options: StepBudgetOptions): { limits: BudgetLimits; tolerance: number } {
  if (typeof options !== 'object' || options === null) {
    throw invalidScorerOptions(stepBudgetScorerId, 'pass an options object with at least one limit, e.g. { maxModelCalls: 8 }.');
  }
  const limits: BudgetLimits = {};
  for (const { option, measure } of budgets) {
    const value = options[option];
    if (value !== undefined) limits[measure] = numberOption(stepBudgetScorerId, option, value, 0, { min: 0, exclusiveMin: true });
  }
  if (Object.keys(limits).length === 0) {
    const names = budgets.map(({ option }) => `"${option}"`).join(', ');
    throw invalidScorerOptions(stepBudgetScorerId, `give at least one limit: ${names}.`);
  }
  const tolerance = numberOption(stepBudgetScorerId, 'tolerance', options.tolerance, 1, { min: 0, exclusiveMin: true });
  return { limits, tolerance };
}

/** 1 within the limit; past it, falls linearly to 0 at `limit × (1 + tolerance)`. */
export function budgetSubScore(value: number, limit: number, tolerance: number): number {
  if (value <= limit) return 1;
  return Math.max(0, 1 - (value - limit) / (limit * tolerance));
}


/**
 * Mastra opens every model step with a `step-start` part, so those count the model calls. A
 * producer that sends no step-start parts still sends one assistant message per step, so the
 * assistant messages are the count then.
 */
function countModelCalls(output: unknown[]): Pick<StepBudgetResult, 'modelCallsCountedBy'> & { modelCalls: number } {
  const assistantMessages = output.filter((message) => isRecord(message) && message.role === 'assistant');
  let stepStarts = 0;
  for (const message of assistantMessages) {
    const content = (message as Record<string, unknown>).content;
    const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts : [];
    stepStarts += parts.filter((part) => isRecord(part) && part.type === 'step-start').length;
  }
  return stepStarts > 0
    ? { modelCalls: stepStarts, modelCallsCountedBy: 'step-start parts' }
    : { modelCalls: assistantMessages.length, modelCallsCountedBy: 'assistant messages' };
}

/** `totalTokens` when reported; else input + output, but only when both are, so a half count never passes for a whole. */
function totalTokensOf(usage: PreparedScorerRun['usage']): number | undefined {
  if (!isRecord(usage)) return undefined;
  // A count that is not a finite number (a producer's NaN) is no count.
  const count = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  if (count(usage.totalTokens)) return usage.totalTokens;
  if (count(usage.inputTokens) && count(usage.outputTokens)) return usage.inputTokens + usage.outputTokens;
  return undefined;
}

/**
 * 1,204 and 0.25: thousands separated, at most two decimals. Not Intl: its formatters were the
 * largest part of this scorer's time (npm run bench:trajectory), for text only English reads.
 */
function formatNumber(value: number): string {
  const [whole, fraction] = String(Math.round(value * 100) / 100).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

export function createStepBudgetScorer(options: StepBudgetOptions) {
  const { limits, tolerance } = validateOptions(options);
  const configured = budgets.filter(({ measure }) => limits[measure] !== undefined);
  const limitList = configured.map(({ measure, unit }) => `${formatNumber(limits[measure]!)} ${unit}`).join(', ');

  return createScorer({
    id: stepBudgetScorerId,
    name: 'Step Budget',
    description: `Checks that the run stays within ${limitList}; the score falls linearly to 0 at ${formatNumber(1 + tolerance)}× a limit.`,
    type: 'agent',
  })
    .preprocess(({ run }) => {
      if (!Array.isArray(run.output)) return notScorable('The run has no response messages to count model and tool calls in.');
      const { modelCalls, modelCallsCountedBy } = countModelCalls(run.output);
      const measures: StepBudgetMeasures = { modelCalls, toolCalls: listToolCalls(run.output).length };
      const totalTokens = totalTokensOf(run.usage);
      if (totalTokens !== undefined) measures.totalTokens = totalTokens;
      if (typeof run.durationMs === 'number' && Number.isFinite(run.durationMs)) measures.durationMs = run.durationMs;

      const checks: StepBudgetResult['checks'] = {};
      const unmeasured: BudgetMeasure[] = [];
      for (const { measure } of configured) {
        const value = measures[measure];
        const limit = limits[measure]!;
        if (value === undefined) unmeasured.push(measure);
        else checks[measure] = { limit, value, subScore: budgetSubScore(value, limit, tolerance) };
      }
      if (Object.keys(checks).length === 0) {
        const missing = configured.map(({ option, missing: why }) => `${option} (${why})`).join('; ');
        return notScorable(`No configured limit could be measured: ${missing}.`);
      }
      const result: StepBudgetResult = { measures, modelCallsCountedBy, checks, unmeasured, tolerance };
      return result;
    })
    // The worst overrun decides: a run within its token budget but at three times its tool-call
    // limit is over budget, and an average would let the good measures hide the bad one.
    .generateScore(({ results }) => Math.min(...Object.values(results.preprocessStepResult.checks).map((check) => check.subScore)))
    .generateReason(({ results }) => {
      const { checks, unmeasured } = results.preprocessStepResult;
      const measured = configured.filter(({ measure }) => checks[measure] !== undefined);
      const over = measured.filter(({ measure }) => checks[measure]!.value > checks[measure]!.limit);
      const within = measured.filter(({ measure }) => checks[measure]!.value <= checks[measure]!.limit);
      const withinText = within.map(({ measure, unit }) => `${formatNumber(checks[measure]!.value)} ${unit} ≤ ${formatNumber(checks[measure]!.limit)}`);
      const notMeasured = configured
        .filter(({ measure }) => unmeasured.includes(measure))
        .map(({ name, missing }) => `${name} not measured (${missing})`);
      if (over.length === 0) return `Within budget: ${[...withinText, ...notMeasured].join(', ')}.`;
      const overText = over.map(({ measure, unit }) => {
        const { value, limit, subScore } = checks[measure]!;
        return `${formatNumber(value)} ${unit} against a limit of ${formatNumber(limit)} (score ${subScore.toFixed(2)})`;
      });
      return `Over budget: ${[overText.join(', '), ...withinText, ...notMeasured].join('; ')}.`;
    });
}
