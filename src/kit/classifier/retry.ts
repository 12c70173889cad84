// Retries a decision-model call on transient provider failures (docs/scorers.md, classifiers): only
// an APICallError marked retryable (429, 5xx, ...) is tried again, with exponential backoff that
// yields to a `retry-after-ms` / `retry-after` header. The AI SDK's own helper (ai/internal
// prepareRetries) is not used: it wraps the last failure in a RetryError, while callers here need
// the provider's own error (its statusCode and isRetryable) and a clock tests can control.

import { APICallError } from '@ai-sdk/provider';
import { backoffDelayMs } from '../backoff.ts';

/** Waits `delayMs`; rejects with the signal's reason when it aborts first. */
export type Sleep = (delayMs: number, abortSignal?: AbortSignal) => Promise<void>;

export type RetryPolicy = {
  /** Delay before the first retry. Default 2000 ms (the AI SDK's). */
  initialDelayMs?: number;
  /** Each further retry waits this many times longer. Default 2. */
  backoffFactor?: number;
  sleep?: Sleep;
  /** Epoch ms; used to read an HTTP-date `retry-after`. */
  now?: () => number;
};

export type RetryOptions = RetryPolicy & {
  maxRetries: number;
  abortSignal?: AbortSignal;
  /** Called before every attempt, first included. */
  onAttempt?: () => void;
};

/** A server-suggested delay is honoured only when it is sane: under a minute, or shorter than our own. */
const maxHeaderDelayMs = 60_000;

export async function callWithRetries<T>(call: () => PromiseLike<T>, options: RetryOptions): Promise<T> {
  const { maxRetries, abortSignal, initialDelayMs = 2000, backoffFactor = 2, sleep = sleepFor, now = Date.now } = options;
  const backoff = { firstDelayMs: initialDelayMs, maxDelayMs: Number.POSITIVE_INFINITY, factor: backoffFactor };
  for (let retries = 0; ; retries++) {
    throwIfAborted(abortSignal);
    options.onAttempt?.();
    try {
      return await call();
    } catch (error) {
      // A call cut short by our own signal reports the signal's reason, whatever the provider threw.
      throwIfAborted(abortSignal);
      if (retries >= maxRetries || !isRetryableProviderError(error)) throw error;
      await sleep(retryDelayMs(error, backoffDelayMs(backoff, retries + 1), now()), abortSignal);
    }
  }
}

export function isRetryableProviderError(error: unknown): boolean {
  return APICallError.isInstance(error) && error.isRetryable;
}

/** The wait before the next attempt: the provider's retry-after headers if sane, else the backoff. */
export function retryDelayMs(error: unknown, backoffDelayMs: number, nowMs: number): number {
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  if (headers === undefined) return backoffDelayMs;
  let headerDelayMs: number | undefined;
  const retryAfterMs = headers['retry-after-ms'];
  if (retryAfterMs) {
    const parsed = Number.parseFloat(retryAfterMs);
    if (!Number.isNaN(parsed)) headerDelayMs = parsed;
  }
  const retryAfter = headers['retry-after'];
  if (retryAfter && headerDelayMs === undefined) {
    const seconds = Number.parseFloat(retryAfter);
    headerDelayMs = Number.isNaN(seconds) ? Date.parse(retryAfter) - nowMs : seconds * 1000;
  }
  if (
    headerDelayMs !== undefined &&
    !Number.isNaN(headerDelayMs) &&
    headerDelayMs >= 0 &&
    (headerDelayMs < maxHeaderDelayMs || headerDelayMs < backoffDelayMs)
  ) {
    return headerDelayMs;
  }
  return backoffDelayMs;
}

export function throwIfAborted(abortSignal: AbortSignal | undefined): void {
  if (abortSignal?.aborted) throw abortSignal.reason;
}

const sleepFor: Sleep = (delayMs, abortSignal) =>
  new Promise((resolve, reject) => {
    if (abortSignal?.aborted) {
      reject(abortSignal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortSignal?.reason);
    };
    const timer = setTimeout(() => {
      abortSignal?.removeEventListener('abort', onAbort);
      resolve();
    }, delayMs);
    abortSignal?.addEventListener('abort', onAbort, { once: true });
  });

export { sleepFor as defaultSleep };
