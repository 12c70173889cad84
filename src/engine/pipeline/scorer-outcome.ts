// Runs one scorer on one run and turns whatever happens — a score, notScorable, a thrown
// error, a hang — into an outcome. Nothing escapes: a scorer that throws or never returns must
// not stop the consumer. The timeout aborts the run's signal (judge calls stop) and, for code
// that ignores signals, stops waiting for it. Timers and signals are shared (deadline-cohorts.ts).
import { hasErrorMarker, ScorestreamError } from '../../kit/errors.ts';
import type { NotScorableOutcome } from '../../kit/contracts/score-record.ts';
import { isPipelineStage } from '../../kit/contracts/scorer-steps.ts';
import type { PipelineStage } from '../../kit/contracts/scorer-steps.ts';
import type { ScorerLike } from '../config/config-types.ts';
import type { ScorerServices } from '../../kit/scorer-services.ts';
import type { AnyScorerRunResult, ScorerRunOptions, ScorerRunResultSnapshot } from '../../kit/scorer/types.ts';

type ScoredRunResult = Extract<AnyScorerRunResult, { score: number }>;
type NotScorableRunResult = Exclude<AnyScorerRunResult, ScoredRunResult>;
import { runNowKey } from '../../kit/scorer/run-scorer.ts';
import { deadlineCohortFor } from './deadline-cohorts.ts';
import type { DeadlineMembership } from './deadline-cohorts.ts';

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** A scorer run's outcome, typed from the kit's run result (ScorerRunResult) through to the score record. */
export type ScorerOutcome =
  | { status: 'scored'; score: number; result: ScoredRunResult }
  | { status: 'not_scorable'; notScorable: NotScorableOutcome; result: NotScorableRunResult }
  | {
      status: 'failed';
      error: { name: string; message: string; code?: string; failedStep: PipelineStage; completedSteps: PipelineStage[]; retryable: boolean };
      snapshot?: ScorerRunResultSnapshot;
    };

export type ScorerOutcomeOptions = {
  timeoutMs: number;
  /** Aborted at shutdown; the scorer's own timeout is added to it. */
  signal?: AbortSignal;
  /** Handed to scorer.run() with the run's own options (its abort signal, onStepStart). */
  services?: ScorerServices;
};

const timeoutMarker = Symbol.for('scorestream.error.ScorerTimeoutError');

export class ScorerTimeoutError extends ScorestreamError {
  readonly [timeoutMarker] = true;

  constructor(scorerId: string, timeoutMs: number) {
    super(`Scorer '${scorerId}' did not finish within ${timeoutMs} ms; raise the binding's timeoutMs if its judge is slow`, { code: 'scorer_timeout', canRetry: true });
    this.name = 'ScorerTimeoutError';
  }

  /** True for a ScorerTimeoutError from any copy of this library. */
  static override isInstance(value: unknown): value is ScorerTimeoutError {
    return hasErrorMarker(value, timeoutMarker);
  }
}

function stageOr(value: unknown, fallback: PipelineStage): PipelineStage {
  return isPipelineStage(value) ? value : fallback;
}

function isRetryable(error: unknown): boolean {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 5; depth += 1) {
    const candidate = current as { canRetry?: unknown; isRetryable?: unknown; cause?: unknown };
    if (typeof candidate.canRetry === 'boolean') return candidate.canRetry;
    if (typeof candidate.isRetryable === 'boolean') return candidate.isRetryable;
    current = candidate.cause;
  }
  return false;
}

function describe(error: unknown): { name: string; message: string; code?: string } {
  if (error instanceof Error) {
    const code = (error as { code?: unknown; id?: unknown }).code ?? (error as { id?: unknown }).id;
    return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(error) };
}

/**
 * Maps a rejection of scorer.run() to a failed outcome, keeping ScorerRunError's evidence.
 * `startedSteps` (from onStepStart) stand in for it when the run was abandoned: steps run one
 * after another, so every step started before the last one had completed.
 */
export function failedOutcome(error: unknown, currentStep: PipelineStage | undefined, startedSteps: readonly PipelineStage[] = []): ScorerOutcome {
  const runError = error as { failedStep?: unknown; completedSteps?: unknown; result?: unknown; cause?: unknown };
  const isStepFailure = typeof runError?.failedStep === 'string';
  // The record names the root cause (the judge's error, the step's throw), not the wrapper.
  const root = isStepFailure && runError.cause !== undefined ? runError.cause : error;
  const completedSteps = Array.isArray(runError?.completedSteps)
    ? runError.completedSteps.filter(isPipelineStage)
    : isStepFailure
      ? []
      : startedSteps.slice(0, -1);
  const failedStep = isStepFailure ? stageOr(runError.failedStep, 'prepareRun') : (currentStep ?? 'prepareRun');
  // A ScorerRunError's snapshot (src/kit/scorer/run-result.ts): the fields its completed steps set.
  const snapshot = isStepFailure && typeof runError.result === 'object' && runError.result !== null ? (runError.result as ScorerRunResultSnapshot) : undefined;
  return {
    status: 'failed',
    // ScorerRunError's own canRetry only recognises provider errors; a root cause that says
    // canRetry (a timeout, a rate-limited tool) is just as retryable.
    error: { ...describe(root), failedStep, completedSteps, retryable: isRetryable(error) || (root !== error && isRetryable(root)) },
    ...(snapshot === undefined ? {} : { snapshot }),
  };
}

/**
 * A run's resolved value as an outcome. A scorer of this library resolves with a ScorerRunResult;
 * any other `ScorerLike` is held to the same shape here, where its value enters the engine: an
 * object, with a finite `score` unless it says `notScorable`.
 */
function successOutcome(value: unknown): ScorerOutcome {
  if (typeof value !== 'object' || value === null) {
    return failedOutcome(new ScorestreamError(`scorer returned ${value === null ? 'null' : typeof value}, not a run result; run() must resolve with an object holding the score`, { code: 'invalid_score' }), 'generateScore');
  }
  const result = value as AnyScorerRunResult;
  if (result.notScorable !== undefined && !('score' in result)) {
    const notScorable: { step?: unknown; reason?: unknown } = result.notScorable;
    return {
      status: 'not_scorable',
      notScorable: { step: stageOr(notScorable.step, 'preprocess'), ...(typeof notScorable.reason === 'string' ? { reason: notScorable.reason } : {}) },
      result: result as NotScorableRunResult,
    };
  }
  const score: unknown = result.score;
  if (typeof score !== 'number' || !Number.isFinite(score)) {
    return failedOutcome(new ScorestreamError(`scorer returned a non-finite score (${String(score)}); scores must be finite numbers`, { code: 'invalid_score' }), 'generateScore');
  }
  return { status: 'scored', score, result: result as ScoredRunResult };
}

export async function runScorerToOutcome(scorer: ScorerLike, input: Record<string, unknown>, options: ScorerOutcomeOptions): Promise<ScorerOutcome> {
  let currentStep: PipelineStage | undefined;
  const startedSteps: PipelineStage[] = [];
  // On timeout or shutdown the cohort's signal is aborted first, so a cooperating run rejects
  // with its own ScorerRunError (which knows the step); code that ignores the signal is
  // abandoned after a short grace period. A run that finishes synchronously never joins it.
  const cohort = deadlineCohortFor(scorer.id, {
    timeoutMs: options.timeoutMs,
    timeoutReason: () => new ScorerTimeoutError(scorer.id, options.timeoutMs),
    shutdown: options.signal,
  });
  let membership: DeadlineMembership | undefined;
  try {
    const runOptions: ScorerRunOptions = {
      ...options.services,
      scorerTimeoutMs: options.timeoutMs,
      abortSignal: cohort.signal,
      onStepStart: (step: string) => {
        currentStep = stageOr(step, 'preprocess');
        if (!startedSteps.includes(currentStep)) startedSteps.push(currentStep);
      },
    };
    // A scorer of this library runs synchronously as far as its steps are (a code scorer: all the
    // way, with no promise to race against the deadline); any other through its run().
    const runNow = (scorer as { [runNowKey]?: (input: Record<string, unknown>, options: ScorerRunOptions) => unknown })[runNowKey];
    const running = typeof runNow === 'function' ? runNow.call(scorer, input, runOptions) : scorer.run(input, runOptions);
    if (!isThenable(running)) return successOutcome(running);
    membership = cohort.join();
    return successOutcome(await Promise.race([running, membership.abandoned]));
  } catch (error) {
    const outcome = failedOutcome(error, currentStep, startedSteps);
    // Stopped by its own deadline, the run fails however the step reports the abort (an
    // AbortError, the AI SDK's "Delay was aborted" between retries): a timeout, transient like
    // any other, and the record says so rather than the step's word for it.
    if (outcome.status === 'failed' && cohort.signal.aborted && ScorerTimeoutError.isInstance(cohort.signal.reason)) {
      const deadline = describe(cohort.signal.reason);
      const reported = outcome.error.message === deadline.message ? '' : ` (${outcome.error.failedStep} reported: ${outcome.error.name}: ${outcome.error.message})`;
      outcome.error = { ...outcome.error, ...deadline, message: `${deadline.message}${reported}`, retryable: true };
    }
    return outcome;
  } finally {
    membership?.release();
  }
}
