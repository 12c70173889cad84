// The one error base of Scorestream. Every error we raise carries a stable `code` and says
// whether trying again can help (`canRetry`): that flag alone decides retry, failed record,
// or dead letter downstream. `cause` keeps the original error for whoever needs the details.
//
// Identity works across copies of the library (two installations in one process, a config
// loaded beside the service): `instanceof` does not, so each class marks its instances with its
// own `Symbol.for` marker and has its own static `isInstance` that checks that marker. A
// subclass carries its ancestors' markers too, so `ScorestreamError.isInstance` is true for
// every Scorestream error while `ScorerError.isInstance` is false for a ConfigError.

const marker = Symbol.for('scorestream.error');

/** True when `value` carries `classMarker`: what the `isInstance` of each of our error classes checks. */
export function hasErrorMarker(value: unknown, classMarker: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[classMarker] === true;
}

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

  /** True for any ScorestreamError (subclasses included), also one created by another copy of this library. */
  static isInstance(value: unknown): value is ScorestreamError {
    return hasErrorMarker(value, marker);
  }
}
