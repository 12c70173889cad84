// The one error the built-in scorer factories throw: options that cannot work, found at
// construction so a misconfigured scorer never reaches the stream.
import { ScorestreamError } from '../../errors.ts';

export const invalidScorerOptionsCode = 'INVALID_SCORER_OPTIONS';

export function invalidScorerOptions(scorerId: string, problem: string): ScorestreamError {
  return new ScorestreamError(`Scorer "${scorerId}": ${problem}`, { code: invalidScorerOptionsCode, canRetry: false });
}

/** Checks an optional numeric option against an inclusive range and returns it or the default. */
export function numberOption(
  scorerId: string,
  name: string,
  value: number | undefined,
  fallback: number,
  range: { min: number; max?: number; exclusiveMin?: boolean },
): number {
  if (value === undefined) return fallback;
  const tooLow = range.exclusiveMin ? value <= range.min : value < range.min;
  const tooHigh = range.max !== undefined && value > range.max;
  if (!Number.isFinite(value) || tooLow || tooHigh) {
    const lower = `${range.exclusiveMin ? '>' : '>='} ${range.min}`;
    const bounds = range.max === undefined ? lower : `${lower} and <= ${range.max}`;
    throw invalidScorerOptions(scorerId, `option "${name}" must be a number ${bounds}; got ${String(value)}.`);
  }
  return value;
}

/** An optional whole-number option of at least 1 (a count or a size), or its default. */
export function wholeNumberOption(scorerId: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
    throw invalidScorerOptions(scorerId, `option "${name}" must be a whole number >= 1; got ${shown}. Leave it out for the default (${fallback}).`);
  }
  return value;
}

/** `scale` multiplies a 0..1 score; it must be a positive finite number (default 1). */
export function scaleOption(scorerId: string, scale: number | undefined): number {
  return numberOption(scorerId, 'scale', scale, 1, { min: 0, exclusiveMin: true });
}

/** An optional list of context strings: an array of strings or absent. */
export function contextOption(scorerId: string, context: unknown): string[] | undefined {
  if (context === undefined) return undefined;
  if (!Array.isArray(context) || context.some((item) => typeof item !== 'string')) {
    throw invalidScorerOptions(scorerId, 'option "context" must be an array of strings.');
  }
  return [...(context as string[])];
}
