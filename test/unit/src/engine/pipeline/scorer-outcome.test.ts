// runScorerToOutcome (the pipeline's): whatever a scorer does — score, notScorable, throw, hang — becomes
// an outcome; nothing escapes. Real createScorer scorers where the behaviour is the scorer's own.
import { APICallError } from 'ai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScorerLike } from '../../../../../src/engine/config/config-types.ts';
import { ScorestreamError } from '../../../../../src/kit/errors.ts';
import { deadlineWindowMs } from '../../../../../src/engine/pipeline/deadline-cohorts.ts';
import { runScorerToOutcome, ScorerTimeoutError } from '../../../../../src/engine/pipeline/scorer-outcome.ts';
import type { ScorerOutcome } from '../../../../../src/engine/pipeline/scorer-outcome.ts';
import { createScorer } from '../../../../../src/kit/scorer/create-scorer.ts';
import { notScorable } from '../../../../../src/kit/scorer/not-scorable.ts';
import { mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import { deferred } from './fixtures.ts';
import { handMadeScorer } from '../../../../helpers/hand-made-scorer.ts';

const input = { runId: 'run-1', input: { inputMessages: [] }, output: [] };
const options = { timeoutMs: 1000 };

/** A scorer made by hand: records the options it was called with, settles when told. */
function manualScorer(id = 'manual') {
  const calls: Array<{ input: Record<string, unknown>; options: Record<string, unknown> }> = [];
  const result = deferred<unknown>();
  const scorer: ScorerLike = handMadeScorer(id, (runInput, runOptions = {}) => {
    calls.push({ input: runInput, options: runOptions });
    return result.promise;
  });
  return { scorer, calls, ...result, signal: () => calls[0]?.options.abortSignal as AbortSignal };
}

/** Tracks a promise's settlement without awaiting it. */
function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T } = { settled: false };
  void promise.then((value) => {
    state.settled = true;
    state.value = value;
  });
  return state;
}

function failed(outcome: ScorerOutcome) {
  if (outcome.status !== 'failed') throw new Error(`expected a failed outcome, got ${outcome.status}`);
  return outcome;
}

describe('runScorerToOutcome', () => {
  describe('a run that completes', () => {
    it('returns scored with the score and the whole result', async () => {
      const scorer = createScorer({ id: 'length', description: 'd' })
        .preprocess(() => ({ words: 3 }))
        .generateScore(({ results }) => results.preprocessStepResult.words / 4)
        .generateReason(() => 'three words');
      const outcome = await runScorerToOutcome(scorer, input, options);
      expect(outcome).toMatchObject({ status: 'scored', score: 0.75, result: { runId: 'run-1', score: 0.75, reason: 'three words', preprocessStepResult: { words: 3 } } });
    });

    it("passes the run's services through (at the top level of the run options) and adds its own abort signal", async () => {
      const { scorer, calls, resolve } = manualScorer();
      const models = { languageModel: () => undefined as never };
      const running = runScorerToOutcome(scorer, input, { ...options, services: { models, recordInputs: true } });
      resolve({ score: 1 });
      await running;
      expect(calls[0]!.input).toBe(input);
      expect(calls[0]!.options).toMatchObject({ models, recordInputs: true });
      expect(calls[0]!.options.abortSignal).toBeInstanceOf(AbortSignal);
      expect((calls[0]!.options.abortSignal as AbortSignal).aborted).toBe(false);
    });

    it('returns not_scorable with the step and reason, and no score', async () => {
      const scorer = createScorer({ id: 'refunds', description: 'd' })
        .preprocess(() => notScorable('not a refund conversation'))
        .generateScore(() => 1);
      const outcome = await runScorerToOutcome(scorer, input, options);
      expect(outcome).toMatchObject({ status: 'not_scorable', notScorable: { step: 'preprocess', reason: 'not a refund conversation' } });
      expect(outcome).not.toHaveProperty('score');
    });

    it('returns not_scorable without a reason when none was given', async () => {
      const scorer = createScorer({ id: 'refunds', description: 'd' })
        .analyze(() => notScorable())
        .generateScore(() => 1);
      const outcome = await runScorerToOutcome(scorer, input, options);
      expect(outcome.status === 'not_scorable' && outcome.notScorable).toEqual({ step: 'analyze' });
    });

    it('treats notScorable from generateReason as not scorable, dropping the score', async () => {
      const scorer = createScorer({ id: 'late', description: 'd' })
        .generateScore(() => 0.4)
        .generateReason(() => notScorable('no reason possible'));
      const outcome = await runScorerToOutcome(scorer, input, options);
      expect(outcome).toMatchObject({ status: 'not_scorable', notScorable: { step: 'generateReason', reason: 'no reason possible' } });
    });

    it('fails at generateScore when a scorer resolves with a score that is not a finite number', async () => {
      for (const score of [Number.NaN, Number.POSITIVE_INFINITY, '0.5', undefined]) {
        const { scorer, resolve } = manualScorer();
        const running = runScorerToOutcome(scorer, input, options);
        resolve({ runId: 'run-1', score });
        const outcome = failed(await running);
        expect(outcome.error).toMatchObject({ code: 'invalid_score', failedStep: 'generateScore', completedSteps: [], retryable: false });
        expect(outcome.error.message).toContain('finite');
      }
    });

    it('fails at generateScore when a createScorer step returns NaN', async () => {
      const scorer = createScorer({ id: 'nan', description: 'd' })
        .preprocess(() => 'x')
        .generateScore(() => Number.NaN);
      const outcome = failed(await runScorerToOutcome(scorer, input, options));
      expect(outcome.error).toMatchObject({ name: 'TypeError', failedStep: 'generateScore', completedSteps: ['preprocess'], retryable: false });
    });
  });

  describe('a run that fails', () => {
    it('keeps a ScorerRunError’s evidence: failed step, completed steps, snapshot, root cause', async () => {
      const cause = new ScorestreamError('the knowledge base is down', { code: 'kb_unavailable' });
      const scorer = createScorer({ id: 'grounded', description: 'd' })
        .preprocess(() => ({ claims: ['a', 'b'] }))
        .analyze(() => {
          throw cause;
        })
        .generateScore(() => 1);
      const outcome = failed(await runScorerToOutcome(scorer, input, options));
      expect(outcome.error).toEqual({
        name: 'ScorestreamError',
        message: 'the knowledge base is down',
        code: 'kb_unavailable',
        failedStep: 'analyze',
        completedSteps: ['preprocess'],
        retryable: false,
      });
      expect(outcome.snapshot).toMatchObject({ runId: 'run-1', preprocessStepResult: { claims: ['a', 'b'] } });
      expect(outcome.snapshot).not.toHaveProperty('score');
    });

    it('keeps the score of the snapshot when generateReason failed after it (the record drops it later)', async () => {
      const scorer = createScorer({ id: 'reasoned', description: 'd' })
        .generateScore(() => 0)
        .generateReason(() => {
          throw new Error('reason failed');
        });
      const outcome = failed(await runScorerToOutcome(scorer, input, options));
      expect(outcome.error).toMatchObject({ name: 'Error', message: 'reason failed', failedStep: 'generateReason', completedSteps: ['generateScore'] });
      expect(outcome.snapshot).toMatchObject({ score: 0 });
    });

    it('has no snapshot when the first step failed', async () => {
      const scorer = createScorer({ id: 'first', description: 'd' }).generateScore(() => {
        throw new Error('nope');
      });
      const outcome = failed(await runScorerToOutcome(scorer, input, options));
      expect(outcome.error.failedStep).toBe('generateScore');
      expect(outcome).not.toHaveProperty('snapshot');
    });

    it('names the code of a Mastra-style error carried as `id`', async () => {
      const error = Object.assign(new Error('tool lookup failed'), { id: 'MASTRA_TOOL_FAILED' });
      const scorer = createScorer({ id: 'mastra', description: 'd' }).generateScore(() => {
        throw error;
      });
      expect(failed(await runScorerToOutcome(scorer, input, options)).error.code).toBe('MASTRA_TOOL_FAILED');
    });

    it('is retryable when its own deadline stopped it, however the step reported the abort', async () => {
      // The step rethrows the abort as a plain AbortError, as fetch does when its signal aborts.
      const scorer = createScorer({ id: 'cut-short', description: 'd' }).analyze(
        ({ abortSignal }) =>
          new Promise((_resolve, reject) => abortSignal?.addEventListener('abort', () => reject(Object.assign(new Error('This operation was aborted'), { name: 'AbortError' })))),
      ).generateScore(() => 1);
      const outcome = failed(await runScorerToOutcome(scorer, input, { timeoutMs: 20 }));
      expect(outcome.error).toMatchObject({ name: 'ScorerTimeoutError', code: 'scorer_timeout', failedStep: 'analyze', retryable: true });
      expect(outcome.error.message).toBe("Scorer 'cut-short' did not finish within 20 ms; raise the binding's timeoutMs if its judge is slow (analyze reported: AbortError: This operation was aborted)");
    });

    it('is retryable when the root cause says canRetry: true', async () => {
      const scorer = createScorer({ id: 'flaky', description: 'd' }).generateScore(() => {
        throw new ScorestreamError('rate limited by the knowledge base', { code: 'kb_rate_limited', canRetry: true });
      });
      expect(failed(await runScorerToOutcome(scorer, input, options)).error).toMatchObject({ code: 'kb_rate_limited', retryable: true });
    });

    it('is retryable when a provider error says isRetryable: true, and not when it says false', async () => {
      const providerError = (isRetryable: boolean, statusCode: number) =>
        new APICallError({ message: `status ${statusCode}`, url: 'http://judge', requestBodyValues: {}, statusCode, isRetryable });
      for (const [error, retryable] of [
        [providerError(true, 503), true],
        [providerError(false, 401), false],
      ] as const) {
        const scorer = createScorer({ id: 'provider', description: 'd' }).generateScore(() => {
          throw error;
        });
        expect(failed(await runScorerToOutcome(scorer, input, options)).error).toMatchObject({ name: 'AI_APICallError', message: error.message, retryable });
      }
    });

    it('turns a plain rejection into a failure at the step the scorer last reported', async () => {
      const { scorer, calls, reject } = manualScorer();
      const running = runScorerToOutcome(scorer, input, options);
      (calls[0]!.options.onStepStart as (step: string) => void)('analyze');
      reject(new RangeError('out of range'));
      expect(failed(await running).error).toEqual({ name: 'RangeError', message: 'out of range', failedStep: 'analyze', completedSteps: [], retryable: false });
    });

    it('turns a plain rejection with no step reported into a failure at prepareRun', async () => {
      const { scorer, reject } = manualScorer();
      const running = runScorerToOutcome(scorer, input, options);
      reject('a thrown string');
      expect(failed(await running).error).toEqual({ name: 'Error', message: 'a thrown string', failedStep: 'prepareRun', completedSteps: [], retryable: false });
    });

    it('turns a synchronous throw from run() into a failure', async () => {
      const scorer: ScorerLike = {
        id: 'sync',
        run() {
          throw new Error('thrown before any promise');
        },
      };
      expect(failed(await runScorerToOutcome(scorer, input, options)).error).toMatchObject({ message: 'thrown before any promise' });
    });

    it('fails at prepareRun when prepareRun throws (it is not wrapped in ScorerRunError)', async () => {
      const scorer = createScorer({
        id: 'prepared',
        description: 'd',
        prepareRun: () => {
          throw new Error('cannot prepare');
        },
      }).generateScore(() => 1);
      expect(failed(await runScorerToOutcome(scorer, input, options)).error).toMatchObject({ message: 'cannot prepare', failedStep: 'prepareRun' });
    });
  });

  describe('timeouts and shutdown', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('aborts the run’s signal after timeoutMs and, when the scorer ignores it, fails with scorer_timeout', async () => {
      const { scorer, signal } = manualScorer('stuck');
      const state = track(runScorerToOutcome(scorer, input, { timeoutMs: 5000 }));
      // Never before timeoutMs; at most deadlineWindowMs after it (timers are shared by cohorts).
      await vi.advanceTimersByTimeAsync(4999);
      expect(signal().aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(1 + deadlineWindowMs);
      expect(signal().aborted).toBe(true);
      expect(signal().reason).toBeInstanceOf(ScorerTimeoutError);
      await vi.runOnlyPendingTimersAsync();
      expect(state.settled).toBe(true);
      const outcome = failed(state.value!);
      expect(outcome.error).toMatchObject({ name: 'ScorerTimeoutError', code: 'scorer_timeout', retryable: true });
      expect(outcome.error.message).toContain("Scorer 'stuck' did not finish within 5000 ms");
    });

    it('names the step a hung scorer last reported through onStepStart, and the steps before it as completed', async () => {
      const { scorer, calls } = manualScorer('stuck');
      const state = track(runScorerToOutcome(scorer, input, { timeoutMs: 100 }));
      const onStepStart = calls[0]!.options.onStepStart as (step: string) => void;
      onStepStart('preprocess');
      onStepStart('analyze');
      await vi.advanceTimersByTimeAsync(100 + deadlineWindowMs);
      await vi.runOnlyPendingTimersAsync();
      expect(failed(state.value!).error).toMatchObject({ code: 'scorer_timeout', failedStep: 'analyze', completedSteps: ['preprocess'] });
    });

    it('reports a hung createScorer step as scorer_timeout at that step', async () => {
      const scorer = createScorer({ id: 'hangs', description: 'd' })
        .preprocess(() => 'done')
        .generateScore(() => new Promise<number>(() => undefined));
      const state = track(runScorerToOutcome(scorer, input, { timeoutMs: 100 }));
      await vi.advanceTimersByTimeAsync(100 + deadlineWindowMs);
      await vi.runOnlyPendingTimersAsync();
      expect(state.settled).toBe(true);
      expect(failed(state.value!).error).toMatchObject({ code: 'scorer_timeout', failedStep: 'generateScore', completedSteps: ['preprocess'], retryable: true });
    });

    it('lets a scorer that honours the signal report the step it was in', async () => {
      const model = mockJudge({ modelId: 'slow-judge', answer: { score: 1 }, delayMs: Infinity });
      const scorer = createScorer({ id: 'judged', description: 'd', judge: { model, instructions: 'Grade.', modelSettings: { maxRetries: 0 } } })
        .preprocess(() => 'ready')
        .generateScore({ description: 'Score it', createPrompt: () => 'Score this answer' });
      const state = track(runScorerToOutcome(scorer, input, { timeoutMs: 100 }));
      await vi.advanceTimersByTimeAsync(100 + deadlineWindowMs);
      // No grace period needed: the judge call rejected as soon as the signal aborted.
      expect(state.settled).toBe(true);
      const outcome = failed(state.value!);
      expect(outcome.error).toMatchObject({ code: 'scorer_timeout', failedStep: 'generateScore', completedSteps: ['preprocess'], retryable: true });
      expect(outcome.snapshot).toMatchObject({ preprocessStepResult: 'ready' });
    });

    it('does not time out a run that finished, and leaves no timer behind', async () => {
      const scorer = createScorer({ id: 'quick', description: 'd' }).generateScore(() => 1);
      const outcome = await runScorerToOutcome(scorer, input, { timeoutMs: 100 });
      expect(outcome.status).toBe('scored');
      expect(vi.getTimerCount()).toBe(0);
    });

    it('sets no timer for a run that finishes synchronously, not even while it runs', async () => {
      let timersDuringRun = -1;
      const scorer = createScorer({ id: 'synchronous', description: 'd' })
        .preprocess(() => void (timersDuringRun = vi.getTimerCount()))
        .generateScore(() => 1);
      const shutdown = new AbortController();
      expect((await runScorerToOutcome(scorer, input, { timeoutMs: 100, signal: shutdown.signal })).status).toBe('scored');
      expect(timersDuringRun).toBe(0);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('still times out an asynchronous step of a scorer that began synchronously', async () => {
      const scorer = createScorer({ id: 'then-async', description: 'd' })
        .preprocess(() => 'ready')
        .generateScore(() => new Promise<number>(() => undefined));
      const state = track(runScorerToOutcome(scorer, input, { timeoutMs: 1000 }));
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(1000 + deadlineWindowMs + 300);
      expect(failed(state.value!).error).toMatchObject({ code: 'scorer_timeout', failedStep: 'generateScore', completedSteps: ['preprocess'] });
      expect(vi.getTimerCount()).toBe(0);
    });

    it('gives a run that starts after the shutdown an aborted signal, though a synchronous run opened its cohort before', async () => {
      const shutdown = new AbortController();
      const quick = createScorer({ id: 'same', description: 'd' }).generateScore(() => 1);
      expect((await runScorerToOutcome(quick, input, { timeoutMs: 1000, signal: shutdown.signal })).status).toBe('scored');
      shutdown.abort(new Error('shutting down'));
      const after = createScorer({ id: 'same', description: 'd' }).generateScore(() => 1);
      expect(failed(await runScorerToOutcome(after, input, { timeoutMs: 1000, signal: shutdown.signal })).error).toMatchObject({ message: 'shutting down' });
    });

    it('aborts the run’s signal when the shutdown signal aborts', async () => {
      const shutdown = new AbortController();
      const { scorer, signal } = manualScorer('busy');
      const state = track(runScorerToOutcome(scorer, input, { timeoutMs: 60_000, signal: shutdown.signal }));
      await vi.advanceTimersByTimeAsync(10);
      expect(signal().aborted).toBe(false);
      const reason = new Error('shutting down');
      shutdown.abort(reason);
      expect(signal().aborted).toBe(true);
      expect(signal().reason).toBe(reason);
      await vi.advanceTimersByTimeAsync(1000);
      expect(state.settled).toBe(true);
      expect(failed(state.value!).error).toMatchObject({ message: 'shutting down' });
    });

    it('settles under a shutdown signal that was already aborted, even when the scorer ignores signals', async () => {
      const shutdown = new AbortController();
      shutdown.abort(new Error('shutting down'));
      const { scorer, signal } = manualScorer('ignores-signals');
      const state = track(runScorerToOutcome(scorer, input, { timeoutMs: 60_000, signal: shutdown.signal }));
      await vi.advanceTimersByTimeAsync(1000);
      expect(signal().aborted).toBe(true);
      expect(state.settled).toBe(true);
      expect(failed(state.value!).error).toMatchObject({ message: 'shutting down' });
    });

    it('shares one signal and timer among runs of a scorer that start together, and times out only those still running', async () => {
      const first = manualScorer('shared');
      const second = manualScorer('shared');
      const firstState = track(runScorerToOutcome(first.scorer, input, { timeoutMs: 1000 }));
      const secondState = track(runScorerToOutcome(second.scorer, input, { timeoutMs: 1000 }));
      expect(second.signal()).toBe(first.signal());
      expect(vi.getTimerCount()).toBe(1);
      first.resolve({ score: 1 });
      await vi.advanceTimersByTimeAsync(1000 + deadlineWindowMs);
      await vi.runOnlyPendingTimersAsync();
      expect(firstState.value!.status).toBe('scored');
      expect(failed(secondState.value!).error).toMatchObject({ code: 'scorer_timeout' });
      expect(vi.getTimerCount()).toBe(0);
    });

    it('gives a run that starts after the window, or with another timeout or scorer, its own signal', async () => {
      const first = manualScorer('a');
      void runScorerToOutcome(first.scorer, input, { timeoutMs: 1000 });
      const otherTimeout = manualScorer('a');
      void runScorerToOutcome(otherTimeout.scorer, input, { timeoutMs: 2000 });
      const otherScorer = manualScorer('b');
      void runScorerToOutcome(otherScorer.scorer, input, { timeoutMs: 1000 });
      await vi.advanceTimersByTimeAsync(deadlineWindowMs + 1);
      const later = manualScorer('a');
      void runScorerToOutcome(later.scorer, input, { timeoutMs: 1000 });
      const signals = new Set([first, otherTimeout, otherScorer, later].map((scorer) => scorer.signal()));
      expect(signals.size).toBe(4);
      // The later run keeps its full timeout: it is not aborted with the first one's cohort.
      await vi.advanceTimersByTimeAsync(1000);
      expect(first.signal().aborted).toBe(true);
      expect(later.signal().aborted).toBe(false);
      await vi.runOnlyPendingTimersAsync();
    });

    it('starts a new cohort once the previous one emptied, so a finished run leaves nothing behind', async () => {
      const first = manualScorer('again');
      const running = runScorerToOutcome(first.scorer, input, { timeoutMs: 1000 });
      first.resolve({ score: 1 });
      await running;
      const second = manualScorer('again');
      void runScorerToOutcome(second.scorer, input, { timeoutMs: 1000 });
      expect(second.signal()).not.toBe(first.signal());
      await vi.runOnlyPendingTimersAsync();
    });

    it('stops listening to the shutdown signal once the run is over', async () => {
      const shutdown = new AbortController();
      const { scorer, signal, resolve } = manualScorer();
      const running = runScorerToOutcome(scorer, input, { timeoutMs: 1000, signal: shutdown.signal });
      resolve({ score: 1 });
      await running;
      shutdown.abort();
      expect(signal().aborted).toBe(false);
    });
  });
});
