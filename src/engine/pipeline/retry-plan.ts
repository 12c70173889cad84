// When a pair that failed is tried again (docs/delivery.md, retries): a transient failure
// (`error.retryable`: timeouts, 429, 5xx, connection errors) is deferred with the next delay of
// `retries.delaysMs` (the last one repeats), until `retries.maxAgeMs` after the first failure; the
// last attempt is due at that limit at the latest. Anything else is final.
// Each delay is a retry tier with a topic of its own (src/engine/topology/retry-tiers.ts), read in order:
// a pair goes to the tier of its delay, so every message of a tier is due no later than the ones
// written after it. The last attempt, cut short to the limit, goes to the first tier whose delay
// reaches the limit: it is due no later than anything written after it there (it may itself wait
// behind pairs written before it, up to that tier's delay). Pure: the caller brings the clock reading.
import type { ScoreRecord } from '../../kit/contracts/score-record.ts';

export type RetryPolicy = { enabled: boolean; delaysMs: readonly number[]; maxAgeMs: number };

export type RetryPlan =
  | { action: 'final' }
  /** `attempt`: failed attempts so far, this one included; `tierDelayMs`: the delay whose tier topic the pair waits on. */
  | { action: 'defer'; attempt: number; dueAtMs: number; tierDelayMs: number };

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
  if (nowMs + delayMs <= deadlineMs) return { action: 'defer', attempt, dueAtMs: nowMs + delayMs, tierDelayMs: delayMs };
  const remainingMs = deadlineMs - nowMs;
  const tierDelayMs = Math.min(...policy.delaysMs.filter((delay) => delay >= remainingMs));
  return { action: 'defer', attempt, dueAtMs: deadlineMs, tierDelayMs };
}
