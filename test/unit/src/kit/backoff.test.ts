import { describe, expect, it } from 'vitest';
import { backoffDelayMs, retryUntilDone } from '../../../../src/kit/backoff.ts';

describe('backoffDelayMs', () => {
  it('starts at the first delay, doubles, and stops at the cap', () => {
    const backoff = { firstDelayMs: 100, maxDelayMs: 1_000 };
    expect([1, 2, 3, 4, 5, 6].map((failures) => backoffDelayMs(backoff, failures))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('takes its factor, and stays finite after any number of failures', () => {
    expect(backoffDelayMs({ firstDelayMs: 10, maxDelayMs: 1_000, factor: 3 }, 3)).toBe(90);
    expect(backoffDelayMs({ firstDelayMs: 10, maxDelayMs: Number.POSITIVE_INFINITY }, 10_000)).toBe(10 * 2 ** 30);
    expect(backoffDelayMs({ firstDelayMs: 10, maxDelayMs: 50 }, 0)).toBe(10);
  });
});

describe('retryUntilDone', () => {
  it('pauses by the backoff between failures and resolves with the first success', async () => {
    const waits: number[] = [];
    const seen: Array<[string, number, number]> = [];
    let calls = 0;
    const result = await retryUntilDone(
      async () => {
        calls += 1;
        if (calls < 4) throw new Error(`failure ${calls}`);
        return 'done';
      },
      { backoff: { firstDelayMs: 5, maxDelayMs: 12 }, wait: async (ms) => void waits.push(ms), onFailure: (error, failures, delayMs) => void seen.push([(error as Error).message, failures, delayMs]) },
    );
    expect(result).toBe('done');
    expect(waits).toEqual([5, 10, 12]);
    expect(seen).toEqual([
      ['failure 1', 1, 5],
      ['failure 2', 2, 10],
      ['failure 3', 3, 12],
    ]);
  });

  it('gives up when onFailure throws, without pausing again', async () => {
    const waits: number[] = [];
    const fatal = new Error('denied');
    await expect(
      retryUntilDone(() => Promise.reject(fatal), {
        backoff: { firstDelayMs: 5, maxDelayMs: 10 },
        wait: async (ms) => void waits.push(ms),
        onFailure: (error, failures) => {
          if (failures === 2) throw error;
        },
      }),
    ).rejects.toBe(fatal);
    expect(waits).toEqual([5]);
  });
});
