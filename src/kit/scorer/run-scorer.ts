// `scorer.run()` (docs/scorers.md): strip `_internal`, require generateScore, prepareRun, fill in
// runId, then run the steps in order (a prompt step in its own span, a function step only with
// `functionStepSpans`), each step context carrying the run's
// services and abort signal. A step returning notScorable() ends the run without a score; a step
// failing rejects with ScorerRunError; a score must be a finite number.
// Hot path: synchronous step functions are not awaited, and the service's way in (runScorerNow)
// returns a synchronous run's result itself, not a promise; spans cost nothing when tracing is off.
import { randomUUID } from 'node:crypto';
import { isTransientJudgeError } from '../judge/judge-errors.ts';
import type { StepName } from '../contracts/scorer-steps.ts';
import type { JudgeConfig } from '../judge/types.ts';
import { isNotScorable } from './not-scorable.ts';
import type { NotScorable } from './not-scorable.ts';
import { runPromptStep } from './prompt-step.ts';
import type { PromptStepEnvironment } from './prompt-step.ts';
import { failureSnapshot, notScorableResult, scoredResult } from './run-result.ts';
import { newRunState } from './run-state.ts';
import type { RunState } from './run-state.ts';
import { missingGenerateScoreError } from './scorer-error.ts';
import { asError, ScorerRunError } from './scorer-run-error.ts';
import { activeTraceId, getDefaultTracer, markFailed, startStepSpan, withSpan } from './step-span.ts';
import type { StepSpan } from './step-span.ts';
import type { Tracer } from '@opentelemetry/api';
import type { StepEntry } from './step-definition.ts';
import type { ScorerServices } from '../scorer-services.ts';
import type { PreparedScorerRun, ScorerConfig, ScorerRun, ScorerRunOptions, ScorerRunResult, StepResults } from './types.ts';

export type ScorerDefinition = {
  id: string;
  judge: JudgeConfig | undefined;
  prepareRun: ScorerConfig['prepareRun'];
  steps: readonly StepEntry[];
  stepNames: readonly StepName[];
  hasGenerateScore: boolean;
};

const noOptions: ScorerRunOptions = Object.freeze({});
const defaultNow = () => performance.now();

/**
 * The key of a scorer's maybe-synchronous run (runScorerNow), for the service's pipeline; a
 * registered symbol, so a scorer made by another copy of this library has it too. Not public API:
 * `run()` is, and always returns a promise.
 */
export const runNowKey = Symbol.for('scorestream.scorer.runNow');

export async function runScorer(
  scorer: ScorerDefinition,
  input: ScorerRun,
  options: ScorerRunOptions = noOptions,
): Promise<ScorerRunResult> {
  return runScorerNow(scorer, input, options);
}

/**
 * The service's way in (src/engine/pipeline/scorer-outcome.ts, through `runNow`): the same run, but
 * synchronous for as long as prepareRun and the steps are — the result itself when none returned a
 * promise, else a promise of it — so a code scorer costs no promise per step and no microtask
 * turns. A failure is thrown, or rejected once a step went asynchronous.
 */
export function runScorerNow(scorer: ScorerDefinition, input: ScorerRun, options: ScorerRunOptions = noOptions): ScorerRunResult | Promise<ScorerRunResult> {
  const run = withoutInternal(input);
  if (!scorer.hasGenerateScore) throw missingGenerateScoreError(scorer.id, [...scorer.stepNames]);
  if (scorer.prepareRun === undefined) return runSteps(scorer, run, options);
  const prepared: unknown = scorer.prepareRun(run as ScorerRun);
  return isThenable(prepared) ? Promise.resolve(prepared).then((value) => runSteps(scorer, value as Record<string, unknown>, options)) : runSteps(scorer, prepared as Record<string, unknown>, options);
}

/**
 * One run's steps in progress: what each step needs, kept across an asynchronous step. `tracer` is
 * looked up at the run's first step span: a code scorer's function steps have none by default, and
 * the lookup (the API's proxy, the SDK's map by a built key) was 0.5% of the traced service's CPU
 * in (c+tracing).
 */
type StepRun = { scorer: ScorerDefinition; state: RunState; options: ScorerRunOptions; tracer: Tracer | undefined; environment: PromptStepEnvironment | undefined };

function runSteps(scorer: ScorerDefinition, prepared: Record<string, unknown>, options: ScorerRunOptions): ScorerRunResult | Promise<ScorerRunResult> {
  const steps: StepRun = { scorer, state: newRunState(prepareIdentity(prepared, options)), options, tracer: options.tracer, environment: undefined };
  return stepsFrom(steps, 0);
}

/** The steps from `first` on, synchronously until one returns a promise. */
function stepsFrom(steps: StepRun, first: number): ScorerRunResult | Promise<ScorerRunResult> {
  const { scorer, state, options } = steps;
  for (let index = first; index < scorer.steps.length; index += 1) {
    const step = scorer.steps[index]!;
    let span: StepSpan;
    let value: unknown;
    try {
      options.abortSignal?.throwIfAborted();
      options.onStepStart?.(step.name);
      span = step.kind === 'function' && options.functionStepSpans !== true ? undefined : startStepSpan((steps.tracer ??= getDefaultTracer()), scorer.id, step.name, step.kind);
      if (step.kind === 'prompt') {
        steps.environment ??= { scorerJudge: scorer.judge, services: options, abortSignal: options.abortSignal, now: options.now ?? defaultNow };
      }
      const environment = steps.environment;
      value = span === undefined ? executeStep(step, state, options, environment, span) : withSpan(span, () => executeStep(step, state, options, environment, span));
      if (isThenable(value)) return finishStep(steps, index, span, value);
      checkScore(scorer, step.name, value);
    } catch (error) {
      throw stepFailed(scorer, step.name, state, span, error);
    }
    const ended = endStep(state, step.name, span, value);
    if (ended !== undefined) return ended;
  }
  return scoredResult(state);
}

/** A step that returned a promise: its value awaited, then the steps after it. */
async function finishStep(steps: StepRun, index: number, span: StepSpan, pending: PromiseLike<unknown>): Promise<ScorerRunResult> {
  const step = steps.scorer.steps[index]!;
  let value: unknown;
  try {
    value = await pending;
    checkScore(steps.scorer, step.name, value);
  } catch (error) {
    throw stepFailed(steps.scorer, step.name, steps.state, span, error);
  }
  const ended = endStep(steps.state, step.name, span, value);
  if (ended !== undefined) return ended;
  return stepsFrom(steps, index + 1);
}

function checkScore(scorer: ScorerDefinition, step: StepName, value: unknown): void {
  if (step === 'generateScore' && !isNotScorable(value) && !isFiniteNumber(value)) throw invalidScore(scorer.id, value);
}

function stepFailed(scorer: ScorerDefinition, step: StepName, state: RunState, span: StepSpan, error: unknown): ScorerRunError {
  if (span !== undefined) {
    markFailed(span, error);
    span.end();
  }
  return runError(scorer, step, state, error);
}

/** A step's value recorded: the run's end when it said notScorable, else undefined and the run goes on. */
function endStep(state: RunState, step: StepName, span: StepSpan, value: unknown): ScorerRunResult | undefined {
  if (isNotScorable(value)) {
    if (span !== undefined) {
      span.setAttribute('scorestream.step.not_scorable', true);
      span.end();
    }
    const reason = (value as NotScorable).reason;
    return notScorableResult(state, reason === undefined ? { step } : { step, reason });
  }
  span?.end();
  state.results = withResult(state.results, step, value);
  if (!state.completed.includes(step)) state.completed.push(step);
  return undefined;
}

/** `_internal` is Mastra's plumbing; it never reaches prepareRun, the steps or the result. */
function withoutInternal(input: ScorerRun | undefined): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (!Object.hasOwn(input, '_internal')) return input;
  const { _internal: _stripped, ...run } = input;
  return run;
}

function prepareIdentity(prepared: Record<string, unknown>, options: ScorerRunOptions): PreparedScorerRun {
  const runId = (prepared.runId as string | undefined) || (options.generateId ?? randomUUID)();
  const scoreTraceId = activeTraceId();
  const identity = scoreTraceId === undefined ? { ...prepared, runId } : { ...prepared, runId, scoreTraceId };
  return identity as PreparedScorerRun;
}

/**
 * The step's value, or a promise of it: synchronous step functions stay synchronous. The run's
 * options serve as its services (ScorerRunOptions extends ScorerServices), so no services object
 * is copied per run.
 */
function executeStep(
  step: StepEntry,
  state: RunState,
  options: ScorerRunOptions,
  environment: PromptStepEnvironment | undefined,
  span: StepSpan,
): unknown {
  const { run, results } = state;
  const services: ScorerServices = options;
  const abortSignal = options.abortSignal;
  let stepContext: Record<string, unknown>;
  if (step.name === 'generateReason') {
    const score = results.generateScoreStepResult;
    stepContext =
      span === undefined
        ? { run, results, score, services, abortSignal }
        : { run, results, score, services, abortSignal, tracingContext: { currentSpan: span } };
  } else {
    stepContext = span === undefined ? { run, results, services, abortSignal } : { run, results, services, abortSignal, tracingContext: { currentSpan: span } };
  }
  if (step.kind === 'function') return step.execute(stepContext as never);
  return runPromptStep(step, stepContext, state, environment!, span);
}

/** A new results object per step, so a step holding on to `results` never sees later steps. */
function withResult(results: StepResults, step: StepName, value: unknown): StepResults {
  switch (step) {
    case 'preprocess':
      return { ...results, preprocessStepResult: value };
    case 'analyze':
      return { ...results, analyzeStepResult: value };
    case 'generateScore':
      return { ...results, generateScoreStepResult: value as number };
    case 'generateReason':
      return { ...results, generateReasonStepResult: value };
  }
}

function runError(scorer: ScorerDefinition, failedStep: StepName, state: RunState, thrown: unknown): ScorerRunError {
  return new ScorerRunError({
    scorerId: scorer.id,
    stepNames: [...scorer.stepNames],
    failedStep,
    completedSteps: [...state.completed],
    result: failureSnapshot(state),
    cause: asError(thrown),
    canRetry: isTransientJudgeError(thrown),
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function invalidScore(scorerId: string, value: unknown): TypeError {
  const described =
    typeof value === 'string' ? `the string '${value}'` : typeof value === 'number' ? String(value) : value === null ? 'null' : typeof value;
  return new TypeError(
    `Scorer '${scorerId}': generateScore returned ${described}; a score must be a finite number. ` +
      'Return notScorable(reason) when the run cannot be scored.',
  );
}
