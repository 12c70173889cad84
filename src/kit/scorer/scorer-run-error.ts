// The one error a failing step turns into (docs/scorers.md, failures): which step failed, which
// completed before it, the partial result, and the original thrown value as `cause`.
import { hasErrorMarker } from '../errors.ts';
import { ScorerError } from './scorer-error.ts';
import type { StepName } from '../contracts/scorer-steps.ts';
import type { ScorerRunResultSnapshot } from './types.ts';

const marker = Symbol.for('scorestream.error.ScorerRunError');
// The marker of releases before every error class had its own: carried and recognised too, so a
// ScorerRunError crossing between an older and a newer copy of the library is still one.
const legacyMarker = Symbol.for('scorestream.scorerRunError');

export type ScorerRunErrorOptions = {
  scorerId: string;
  stepNames: StepName[];
  failedStep: StepName;
  completedSteps: StepName[];
  result: ScorerRunResultSnapshot | undefined;
  cause: Error;
  canRetry: boolean;
};

export class ScorerRunError extends ScorerError {
  readonly [marker] = true;
  readonly [legacyMarker] = true;
  readonly failedStep: StepName;
  readonly completedSteps: StepName[];
  readonly result: ScorerRunResultSnapshot | undefined;
  declare readonly cause: Error;

  constructor(options: ScorerRunErrorOptions) {
    super(`Scorer Run Failed: ${options.cause.message}`, {
      id: 'MASTR_SCORER_FAILED_TO_RUN_WORKFLOW_FAILED',
      details: {
        scorerId: options.scorerId,
        steps: options.stepNames.join(', '),
        failedStep: options.failedStep,
        completedSteps: options.completedSteps.join(', '),
      },
      canRetry: options.canRetry,
      cause: options.cause,
    });
    this.name = 'ScorerRunError';
    this.failedStep = options.failedStep;
    this.completedSteps = options.completedSteps;
    this.result = options.result;
  }

  /** True for a ScorerRunError from any copy of this library. */
  static override isInstance(value: unknown): value is ScorerRunError {
    return hasErrorMarker(value, marker) || hasErrorMarker(value, legacyMarker);
  }
}

/** The original thrown value as an Error: the same object when it is one. */
export function asError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === 'object' && thrown !== null && typeof (thrown as { message?: unknown }).message === 'string') {
    return new Error((thrown as { message: string }).message, { cause: thrown });
  }
  return new Error(String(thrown), { cause: thrown });
}
