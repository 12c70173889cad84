// The ScorerRunError a scorer run rejected with; fails the test when it resolved or rejected
// with anything else.
import { expect } from 'vitest';
import { ScorerRunError } from '../../src/kit/scorer/scorer-run-error.ts';

export async function scorerFailure(promise: Promise<unknown>): Promise<ScorerRunError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ScorerRunError);
  return error as ScorerRunError;
}
