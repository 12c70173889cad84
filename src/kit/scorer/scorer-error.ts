// Errors of the scorer API with Mastra's error fields (`id`, `domain`, `category`, `details`)
// on top of ScorestreamError, so code ported from Mastra that reads them keeps working.
import { hasErrorMarker, ScorestreamError } from '../errors.ts';
import { describeError } from '../judge/judge-errors.ts';

export type ScorerErrorOptions = {
  id: string;
  details?: Record<string, string>;
  category?: 'USER' | 'SYSTEM' | 'THIRD_PARTY';
  canRetry?: boolean;
  cause?: unknown;
};

const marker = Symbol.for('scorestream.error.ScorerError');

export class ScorerError extends ScorestreamError {
  readonly [marker] = true;
  readonly id: string;
  readonly domain = 'SCORER' as const;
  readonly category: 'USER' | 'SYSTEM' | 'THIRD_PARTY';
  readonly details: Record<string, string>;

  constructor(message: string, options: ScorerErrorOptions) {
    super(message, { code: options.id, canRetry: options.canRetry ?? false, cause: options.cause });
    this.name = 'ScorerError';
    this.id = options.id;
    this.category = options.category ?? 'USER';
    this.details = options.details ?? {};
  }

  /** True for a ScorerError (a ScorerRunError included) from any copy of this library. */
  static override isInstance(value: unknown): value is ScorerError {
    return hasErrorMarker(value, marker);
  }

  /** Mastra's serialisation: never the cause's own fields beyond name, message and code (they can hold provider data). */
  toJSON(): Record<string, unknown> {
    return {
      message: this.message,
      domain: this.domain,
      category: this.category,
      code: this.id,
      details: this.details,
      ...(this.cause === undefined ? {} : { cause: describeError(this.cause) }),
    };
  }
}

export function missingIdError(): ScorerError {
  return new ScorerError('Scorers must have an ID field. Please provide an ID in the scorer config.', {
    id: 'MASTR_SCORER_FAILED_TO_CREATE_MISSING_ID',
  });
}

export function missingGenerateScoreError(scorerId: string, stepNames: string[]): ScorerError {
  return new ScorerError(
    `Cannot execute pipeline without generateScore() step (scorer '${scorerId}'). Add .generateScore(...) to the scorer.`,
    {
      id: 'MASTR_SCORER_FAILED_TO_RUN_MISSING_GENERATE_SCORE',
      details: { scorerId, steps: stepNames.join(', ') },
    },
  );
}
