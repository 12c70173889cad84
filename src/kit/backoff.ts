// The one backoff of the project: every retry that pauses between attempts — a publish or a read
// Kafka did not answer, a topic's leaders settling, a group consumer's stream restarting, the
// monitor's webhook, a classifier's provider call — pauses by this rule, exponential from a first
// delay and capped. Pure: the caller brings its clock and its sleep, so tests pass no real time.

/** How long to pause after consecutive failures. */
export type Backoff = {
  /** The pause after the first failure. */
  readonly firstDelayMs: number;
  /** No pause is longer. */
  readonly maxDelayMs: number;
  /** Each further failure multiplies the pause by it (default 2). */
  readonly factor?: number;
};

/** Past it the pause is long capped (2^30 times the first); it keeps the arithmetic finite. */
const maxExponent = 30;

/** The pause after the `failures`-th failure in a row (1: the first): firstDelayMs × factor^(failures − 1), at most maxDelayMs. */
export function backoffDelayMs(backoff: Backoff, failures: number): number {
  const exponent = Math.min(Math.max(failures - 1, 0), maxExponent);
  return Math.min(backoff.firstDelayMs * (backoff.factor ?? 2) ** exponent, backoff.maxDelayMs);
}

export type RetryUntilDoneOptions = {
  backoff: Backoff;
  /** Pauses for `delayMs` (injected in tests). */
  wait(delayMs: number): Promise<unknown>;
  /**
   * Told of each failure before the pause: `failures` in a row so far, and the pause that follows.
   * It stops the retries by throwing (the error, or its own); returning retries.
   */
  onFailure(error: unknown, failures: number, delayMs: number): void;
};

/** Calls `attempt` until it resolves, pausing by the backoff after each failure; `onFailure` decides when to give up. */
export async function retryUntilDone<T>(attempt: () => Promise<T>, options: RetryUntilDoneOptions): Promise<T> {
  for (let failures = 1; ; failures += 1) {
    try {
      return await attempt();
    } catch (error) {
      const delayMs = backoffDelayMs(options.backoff, failures);
      options.onFailure(error, failures, delayMs);
      await options.wait(delayMs);
    }
  }
}
