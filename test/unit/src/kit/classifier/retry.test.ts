import { describe, expect, it } from 'vitest';
import { callWithRetries, defaultSleep, isRetryableProviderError, retryDelayMs } from '../../../../../src/kit/classifier/retry.ts';
import { apiError, recordingSleep } from './fixtures.ts';

function failingThen<T>(failures: unknown[], value: T) {
  let calls = 0;
  const call = async () => {
    calls += 1;
    if (calls <= failures.length) throw failures[calls - 1];
    return value;
  };
  return { call, calls: () => calls };
}

describe('callWithRetries', () => {
  it('retries retryable provider errors with exponential backoff', async () => {
    const { delays, sleep } = recordingSleep();
    const retryable = apiError({ isRetryable: true, statusCode: 503 });
    const { call, calls } = failingThen([retryable, retryable], 'ok');
    await expect(callWithRetries(call, { maxRetries: 2, sleep, initialDelayMs: 100, backoffFactor: 3 })).resolves.toBe('ok');
    expect(calls()).toBe(3);
    expect(delays).toEqual([100, 300]);
  });

  it('defaults to 2 s doubling, the AI SDK backoff', async () => {
    const { delays, sleep } = recordingSleep();
    const retryable = apiError({ isRetryable: true });
    const { call } = failingThen([retryable, retryable], 'ok');
    await callWithRetries(call, { maxRetries: 2, sleep });
    expect(delays).toEqual([2000, 4000]);
  });

  it('rethrows the last provider error itself once retries are exhausted', async () => {
    const { sleep } = recordingSleep();
    const first = apiError({ isRetryable: true, statusCode: 500 });
    const last = apiError({ isRetryable: true, statusCode: 503 });
    const { call, calls } = failingThen([first, last], 'never');
    await expect(callWithRetries(call, { maxRetries: 1, sleep })).rejects.toBe(last);
    expect(calls()).toBe(2);
  });

  it('does not retry a non-retryable provider error', async () => {
    const { delays, sleep } = recordingSleep();
    const fatal = apiError({ isRetryable: false, statusCode: 401 });
    const { call, calls } = failingThen([fatal], 'never');
    await expect(callWithRetries(call, { maxRetries: 5, sleep })).rejects.toBe(fatal);
    expect(calls()).toBe(1);
    expect(delays).toEqual([]);
  });

  it('does not retry errors that are not provider API errors', async () => {
    const { sleep } = recordingSleep();
    const bug = new TypeError('bad answer');
    const { call, calls } = failingThen([bug], 'never');
    await expect(callWithRetries(call, { maxRetries: 5, sleep })).rejects.toBe(bug);
    expect(calls()).toBe(1);
  });

  it('makes exactly one attempt with maxRetries 0', async () => {
    const retryable = apiError({ isRetryable: true });
    const { call, calls } = failingThen([retryable], 'never');
    await expect(callWithRetries(call, { maxRetries: 0 })).rejects.toBe(retryable);
    expect(calls()).toBe(1);
  });

  it('reports every attempt', async () => {
    const { sleep } = recordingSleep();
    const { call } = failingThen([apiError({ isRetryable: true })], 'ok');
    let attempts = 0;
    await callWithRetries(call, { maxRetries: 3, sleep, onAttempt: () => (attempts += 1) });
    expect(attempts).toBe(2);
  });

  it('rejects with the signal reason when aborted before the first attempt', async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    controller.abort(reason);
    const { call, calls } = failingThen([], 'ok');
    await expect(callWithRetries(call, { maxRetries: 2, abortSignal: controller.signal })).rejects.toBe(reason);
    expect(calls()).toBe(0);
  });

  it('rejects with the signal reason when the call fails because of the abort', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline');
    const call = async () => {
      controller.abort(reason);
      throw new DOMException('aborted', 'AbortError');
    };
    await expect(callWithRetries(call, { maxRetries: 2, abortSignal: controller.signal })).rejects.toBe(reason);
  });

  it('stops waiting between attempts when aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    const retryable = apiError({ isRetryable: true });
    const { call, calls } = failingThen([retryable, retryable], 'ok');
    const pending = callWithRetries(call, { maxRetries: 2, abortSignal: controller.signal, initialDelayMs: 60_000 });
    await Promise.resolve();
    await Promise.resolve();
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(calls()).toBe(1);
  });
});

describe('retryDelayMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('uses the backoff when the error carries no headers', () => {
    expect(retryDelayMs(new Error('x'), 2000, now)).toBe(2000);
    expect(retryDelayMs(apiError({ isRetryable: true }), 2000, now)).toBe(2000);
  });

  it('prefers retry-after-ms, then retry-after seconds', () => {
    const both = apiError({ isRetryable: true, headers: { 'retry-after-ms': '150', 'retry-after': '3' } });
    expect(retryDelayMs(both, 2000, now)).toBe(150);
    const seconds = apiError({ isRetryable: true, headers: { 'retry-after': '3' } });
    expect(retryDelayMs(seconds, 2000, now)).toBe(3000);
  });

  it('reads an HTTP-date retry-after against the clock', () => {
    const date = apiError({ isRetryable: true, headers: { 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' } });
    expect(retryDelayMs(date, 2000, now)).toBe(5000);
  });

  it('ignores unparsable, negative and unreasonably long suggestions', () => {
    const junk = apiError({ isRetryable: true, headers: { 'retry-after': 'soon' } });
    expect(retryDelayMs(junk, 2000, now)).toBe(2000);
    const negative = apiError({ isRetryable: true, headers: { 'retry-after-ms': '-5' } });
    expect(retryDelayMs(negative, 2000, now)).toBe(2000);
    const tooLong = apiError({ isRetryable: true, headers: { 'retry-after': '3600' } });
    expect(retryDelayMs(tooLong, 2000, now)).toBe(2000);
  });

  it('accepts a long suggestion that is still shorter than the backoff', () => {
    const long = apiError({ isRetryable: true, headers: { 'retry-after': '70' } });
    expect(retryDelayMs(long, 120_000, now)).toBe(70_000);
  });
});

describe('isRetryableProviderError', () => {
  it('is true only for APICallErrors marked retryable', () => {
    expect(isRetryableProviderError(apiError({ isRetryable: true }))).toBe(true);
    expect(isRetryableProviderError(apiError({ isRetryable: false }))).toBe(false);
    expect(isRetryableProviderError(Object.assign(new Error('x'), { isRetryable: true }))).toBe(false);
  });
});

describe('defaultSleep', () => {
  it('resolves after the delay', async () => {
    await expect(defaultSleep(1)).resolves.toBeUndefined();
  });

  it('rejects with the reason of an already aborted signal', async () => {
    const controller = new AbortController();
    controller.abort('why');
    await expect(defaultSleep(10_000, controller.signal)).rejects.toBe('why');
  });

  it('rejects with the reason when aborted while waiting', async () => {
    const controller = new AbortController();
    const waiting = defaultSleep(10_000, controller.signal);
    controller.abort('later');
    await expect(waiting).rejects.toBe('later');
  });
});
