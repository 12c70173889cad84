// `scorer.run()` (spec §4.1): strip `_internal`, require generateScore, prepareRun, fill in runId,
// then run the steps in order, each in its own span. A step returning notScorable() ends the run
// without a score; a step failing rejects with ScorerRunError; a score must be a finite number.
import { randomUUID } from 'node:crypto';
import { isTransientJudgeError } from '../judge/judge-errors.ts';
import type { JudgeConfig, StepName } from '../judge/types.ts';
import { isNotScorable } from './not-scorable.ts';
import type { NotScorable } from './not-scorable.ts';
import { runPromptStep } from './prompt-step.ts';
import type { PromptStepEnvironment } from './prompt-step.ts';
import { failureSnapshot, notScorableResult, scoredResult } from './run-result.ts';
import { newRunState } from './run-state.ts';
import type { RunState } from './run-state.ts';
import { missingGenerateScoreError } from './scorer-error.ts';
import { asError, ScorerRunError } from './scorer-run-error.ts';
import { activeTraceId, getDefaultTracer, inStepSpan } from './step-span.ts';
import type { StepSpan } from './step-span.ts';
import type { StepEntry } from './step-definition.ts';
import type { PreparedScorerRun, ScorerConfig, ScorerRun, ScorerRunOptions, ScorerRunResult } from './types.ts';

export type ScorerDefinition = {
  id: string;
  judge: JudgeConfig | undefined;
  prepareRun: ScorerConfig['prepareRun'];
  steps: readonly StepEntry[];
};

const resultKeys: Record<StepName, 'preprocessStepResult' | 'analyzeStepResult' | 'generateScoreStepResult' | 'generateReasonStepResult'> = {
  preprocess: 'preprocessStepResult',
  analyze: 'analyzeStepResult',
  generateScore: 'generateScoreStepResult',
  generateReason: 'generateReasonStepResult',
};

const defaultNow = () => performance.now();

export async function runScorer(
  scorer: ScorerDefinition,
  input: ScorerRun,
  options: ScorerRunOptions = {},
): Promise<ScorerRunResult> {
  const { _internal: _stripped, ...run } = input ?? ({} as ScorerRun);
  if (!scorer.steps.some((step) => step.name === 'generateScore')) {
    throw missingGenerateScoreError(
      scorer.id,
      scorer.steps.map((step) => step.name),
    );
  }
  const prepared = scorer.prepareRun === undefined ? run : await scorer.prepareRun(run as ScorerRun);
  const state = newRunState(prepareIdentity(prepared, options));
  const tracer = options.tracer ?? getDefaultTracer();
  const environment: PromptStepEnvironment = { scorerJudge: scorer.judge, options, now: options.now ?? defaultNow };
  for (const step of scorer.steps) {
    let value: unknown;
    try {
      options.abortSignal?.throwIfAborted();
      value = await inStepSpan(tracer, scorer.id, step.name, step.kind, (span) =>
        executeStep(scorer, step, state, environment, span),
      );
    } catch (error) {
      throw runError(scorer, step.name, state, error);
    }
    if (isNotScorable(value)) {
      const reason = (value as NotScorable).reason;
      return notScorableResult(state, reason === undefined ? { step: step.name } : { step: step.name, reason });
    }
    state.results = { ...state.results, [resultKeys[step.name]]: value };
    if (!state.completed.includes(step.name)) state.completed.push(step.name);
  }
  return scoredResult(state);
}

function prepareIdentity(prepared: Record<string, unknown>, options: ScorerRunOptions): PreparedScorerRun {
  const runId = (prepared.runId as string | undefined) || (options.generateId ?? randomUUID)();
  const scoreTraceId = activeTraceId();
  const identity = scoreTraceId === undefined ? { ...prepared, runId } : { ...prepared, runId, scoreTraceId };
  return identity as PreparedScorerRun;
}

async function executeStep(
  scorer: ScorerDefinition,
  step: StepEntry,
  state: RunState,
  environment: PromptStepEnvironment,
  span: StepSpan,
): Promise<unknown> {
  const stepContext: Record<string, unknown> =
    step.name === 'generateReason'
      ? { run: state.run, results: state.results, score: state.results.generateScoreStepResult }
      : { run: state.run, results: state.results };
  if (span !== undefined) stepContext.tracingContext = { currentSpan: span };
  const value =
    step.kind === 'function'
      ? await step.execute(stepContext as never)
      : await runPromptStep(step, stepContext, state, environment, span);
  if (step.name === 'generateScore' && !isNotScorable(value) && !isFiniteNumber(value)) {
    throw new TypeError(
      `Scorer '${scorer.id}': generateScore returned ${describeScore(value)}; a score must be a finite number. ` +
        'Return notScorable(reason) when the run cannot be scored.',
    );
  }
  if (span !== undefined && isNotScorable(value)) span.setAttribute('scorestream.step.not_scorable', true);
  return value;
}

function runError(scorer: ScorerDefinition, failedStep: StepName, state: RunState, thrown: unknown): ScorerRunError {
  const cause = asError(thrown);
  return new ScorerRunError({
    scorerId: scorer.id,
    stepNames: scorer.steps.map((step) => step.name),
    failedStep,
    completedSteps: [...state.completed],
    result: failureSnapshot(state),
    cause,
    canRetry: isTransientJudgeError(thrown),
  });
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function describeScore(value: unknown): string {
  if (typeof value === 'string') return `the string '${value}'`;
  if (typeof value === 'number') return String(value);
  return value === null ? 'null' : typeof value;
}
