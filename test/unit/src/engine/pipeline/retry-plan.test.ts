// planRetry: only transient failures are deferred, with the next delay (the last repeats) on the
// tier of that delay, and never past maxAgeMs after the first failure.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../../../src/kit/contracts/score-record.ts';
import { planRetry } from '../../../../../src/engine/pipeline/retry-plan.ts';

const policy = { enabled: true, delaysMs: [10, 100, 1_000], maxAgeMs: 5_000 };
const failed = (retryable: boolean) =>
  ({ status: 'failed', error: { name: 'E', message: 'm', failedStep: 'analyze', completedSteps: [], retryable } }) as unknown as ScoreRecord;

describe('planRetry', () => {
  it('defers a transient failure by the delay of its attempt, the last delay repeating', () => {
    expect(planRetry(failed(true), policy, 0, 1_000, 1_000)).toEqual({ action: 'defer', attempt: 1, dueAtMs: 1_010, tierDelayMs: 10 });
    expect(planRetry(failed(true), policy, 1, 1_000, 1_020)).toEqual({ action: 'defer', attempt: 2, dueAtMs: 1_120, tierDelayMs: 100 });
    expect(planRetry(failed(true), policy, 2, 1_000, 1_200)).toEqual({ action: 'defer', attempt: 3, dueAtMs: 2_200, tierDelayMs: 1_000 });
    expect(planRetry(failed(true), policy, 3, 1_000, 2_300)).toEqual({ action: 'defer', attempt: 4, dueAtMs: 3_300, tierDelayMs: 1_000 });
  });

  it('makes the last attempt due at maxAgeMs after the first failure, on the first tier whose delay reaches it, and is final once that passed', () => {
    expect(planRetry(failed(true), policy, 5, 1_000, 5_500)).toEqual({ action: 'defer', attempt: 6, dueAtMs: 6_000, tierDelayMs: 1_000 });
    // 50 ms left: the 100 ms tier is the first that reaches the limit (none written after it there is due earlier).
    expect(planRetry(failed(true), policy, 6, 1_000, 5_950)).toEqual({ action: 'defer', attempt: 7, dueAtMs: 6_000, tierDelayMs: 100 });
    expect(planRetry(failed(true), policy, 6, 1_000, 6_000)).toEqual({ action: 'final' });
  });

  it('is final for scores, non-transient failures, and when retries are off', () => {
    expect(planRetry({ status: 'scored' } as ScoreRecord, policy, 0, 0, 0)).toEqual({ action: 'final' });
    expect(planRetry(failed(false), policy, 0, 0, 0)).toEqual({ action: 'final' });
    expect(planRetry(failed(true), { ...policy, enabled: false }, 0, 0, 0)).toEqual({ action: 'final' });
  });
});
