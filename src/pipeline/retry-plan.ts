// When a pair that failed is tried again (docs/delivery.md, retries): a transient failure
// (`error.retryable`: timeouts, 429, 5xx, connection errors) is deferred to the retry topic with
// the next delay of `retries.delaysMs` (the last one repeats), until `retries.maxAgeMs` after the
// first failure; the last attempt is due at that limit at the latest. Anything else is final.
// Pure: the caller brings the clock reading.
import type { ScoreRecord } from '../contracts/score-record.ts';

export type RetryPolicy = { enabled: boolean; delaysMs: readonly number[]; maxAgeMs: number };

export type RetryPlan =
  | { action: 'final' }
  /** `attempt`: failed attempts so far, this one included. */
  | { action: 'defer'; attempt: number; dueAtMs: number };

/**
 * `priorAttempts`: failed attempts before this one (0 on the runs topic); `firstFailedAtMs`: the
 * first failure (this one's time when there was none before).
 */
export function planRetry(record: ScoreRecord, policy: RetryPolicy, priorAttempts: number, firstFailedAtMs: number, nowMs: number): RetryPlan {
  if (!policy.enabled || record.status !== 'failed' || !record.error.retryable) return { action: 'final' };
  const deadlineMs = firstFailedAtMs + policy.maxAgeMs;
  if (nowMs >= deadlineMs) return { action: 'final' };
  const attempt = priorAttempts + 1;
  const delayMs = policy.delaysMs[Math.min(attempt, policy.delaysMs.length) - 1]!;
  return { action: 'defer', attempt, dueAtMs: Math.min(nowMs + delayMs, deadlineMs) };
}
