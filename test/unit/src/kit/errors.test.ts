// Error identity: each class's isInstance is true for its own instances and its subclasses',
// false for siblings and ancestors, and works across copies of the library (where instanceof
// does not).
import { APICallError } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../../../../src/engine/config/config-error.ts';
import { InvalidPredicateError } from '../../../../src/engine/eligibility/validate-predicate.ts';
import { ScorestreamError } from '../../../../src/kit/errors.ts';
import { JudgeTimeoutError } from '../../../../src/kit/judge/judge-errors.ts';
import { ScorerTimeoutError } from '../../../../src/engine/pipeline/scorer-outcome.ts';
import { ScorerError } from '../../../../src/kit/scorer/scorer-error.ts';
import { ScorerRunError } from '../../../../src/kit/scorer/scorer-run-error.ts';
import { InvalidRunError } from '../../../../producers/run-validation.ts';

type ErrorClass = { isInstance(value: unknown): boolean; name: string };

/** Every error class we define, with one instance and the classes it descends from (itself included). */
const errorClasses: { errorClass: ErrorClass; create: () => Error; isA: ErrorClass[] }[] = [
  { errorClass: ScorestreamError, create: () => new ScorestreamError('m', { code: 'c' }), isA: [ScorestreamError] },
  { errorClass: ScorerError, create: () => new ScorerError('m', { id: 'SOME_ID' }), isA: [ScorerError, ScorestreamError] },
  {
    errorClass: ScorerRunError,
    create: () =>
      new ScorerRunError({ scorerId: 's', stepNames: ['generateScore'], failedStep: 'generateScore', completedSteps: [], result: undefined, cause: new Error('x'), canRetry: false }),
    isA: [ScorerRunError, ScorerError, ScorestreamError],
  },
  { errorClass: ConfigError, create: () => new ConfigError([{ path: 'groupId', message: 'expected a string' }]), isA: [ConfigError, ScorestreamError] },
  { errorClass: InvalidPredicateError, create: () => new InvalidPredicateError('m', []), isA: [InvalidPredicateError, ScorestreamError] },
  { errorClass: ScorerTimeoutError, create: () => new ScorerTimeoutError('s', 10), isA: [ScorerTimeoutError, ScorestreamError] },
  { errorClass: InvalidRunError, create: () => new InvalidRunError('m', []), isA: [InvalidRunError, ScorestreamError] },
  { errorClass: JudgeTimeoutError, create: () => new JudgeTimeoutError({ modelId: 'm', timeoutMs: 10 }), isA: [JudgeTimeoutError] },
];

describe('error identity', () => {
  for (const { errorClass, create, isA } of errorClasses) {
    it(`${errorClass.name}: named after its class, isInstance of exactly its own class and its ancestors`, () => {
      const error = create();
      expect(error.name).toBe(errorClass.name);
      for (const { errorClass: other } of errorClasses) {
        const expected = isA.includes(other);
        expect(other.isInstance(error), `${other.name}.isInstance(new ${errorClass.name}(…))`).toBe(expected);
        // In one copy of the library, instanceof is the ground truth isInstance must agree with.
        expect(error instanceof (other as unknown as new () => Error)).toBe(expected);
      }
    });
  }

  it('rejects values that are no errors of ours', () => {
    for (const { errorClass } of errorClasses) {
      for (const value of [undefined, null, 'ScorestreamError', 42, {}, new Error('plain'), new TypeError('type')]) {
        expect(errorClass.isInstance(value)).toBe(false);
      }
    }
  });

  it('keeps JudgeTimeoutError a provider error, so the AI SDK retries it', () => {
    expect(APICallError.isInstance(new JudgeTimeoutError({ modelId: 'm', timeoutMs: 10 }))).toBe(true);
    expect(JudgeTimeoutError.isInstance(new APICallError({ message: 'm', url: 'u', requestBodyValues: {} }))).toBe(false);
  });

  it('recognises an object carrying a class marker, as an error from another copy of the library would', () => {
    const fromAnotherCopy = { [Symbol.for('scorestream.error')]: true, [Symbol.for('scorestream.error.ConfigError')]: true };
    expect(ConfigError.isInstance(fromAnotherCopy)).toBe(true);
    expect(ScorestreamError.isInstance(fromAnotherCopy)).toBe(true);
    expect(ScorerError.isInstance(fromAnotherCopy)).toBe(false);
  });

  it('keeps recognising ScorerRunErrors of releases before per-class markers, and carries their marker too', () => {
    const fromAnOlderCopy = { [Symbol.for('scorestream.error')]: true, [Symbol.for('scorestream.scorerRunError')]: true };
    expect(ScorerRunError.isInstance(fromAnOlderCopy)).toBe(true);
    const current = new ScorerRunError({ scorerId: 's', stepNames: [], failedStep: 'analyze', completedSteps: [], result: undefined, cause: new Error('x'), canRetry: false });
    expect((current as unknown as Record<symbol, unknown>)[Symbol.for('scorestream.scorerRunError')]).toBe(true);
  });

  it('recognises errors of a second, separately loaded copy of the modules, where instanceof fails', async () => {
    vi.resetModules();
    const copy = {
      config: await import('../../../../src/engine/config/config-error.ts'),
      runError: await import('../../../../src/kit/scorer/scorer-run-error.ts'),
      judge: await import('../../../../src/kit/judge/judge-errors.ts'),
    };
    expect(copy.config.ConfigError).not.toBe(ConfigError);
    const configError = new copy.config.ConfigError([]);
    expect(configError).not.toBeInstanceOf(ConfigError);
    expect(ConfigError.isInstance(configError)).toBe(true);
    expect(ScorestreamError.isInstance(configError)).toBe(true);
    expect(ScorerError.isInstance(configError)).toBe(false);
    const runError = new copy.runError.ScorerRunError({
      scorerId: 's', stepNames: [], failedStep: 'analyze', completedSteps: [], result: undefined, cause: new Error('x'), canRetry: false,
    });
    expect(ScorerRunError.isInstance(runError)).toBe(true);
    expect(ScorerError.isInstance(runError)).toBe(true);
    expect(ConfigError.isInstance(runError)).toBe(false);
    expect(JudgeTimeoutError.isInstance(new copy.judge.JudgeTimeoutError({ modelId: 'm', timeoutMs: 1 }))).toBe(true);
  });
});
