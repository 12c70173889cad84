// The one error base of Scorestream. Every error we raise carries a stable `code` and says
// whether trying again can help (`canRetry`): that flag alone decides retry, failed record,
// or dead letter downstream. `cause` keeps the original error for whoever needs the details.

const marker = Symbol.for('scorestream.error');

export type ScorestreamErrorOptions = {
  code: string;
  canRetry?: boolean;
  cause?: unknown;
};

export class ScorestreamError extends Error {
  readonly [marker] = true;
  readonly code: string;
  readonly canRetry: boolean;

  constructor(message: string, options: ScorestreamErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ScorestreamError';
    this.code = options.code;
    this.canRetry = options.canRetry ?? false;
  }

  /** True for any ScorestreamError, also one created by another copy of this library. */
  static isInstance(value: unknown): value is ScorestreamError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
