// Retry tiers: one topic per distinct delay, named after it, shortest first; none without retries.
import { describe, expect, it } from 'vitest';
import { retryTierName, retryTiers, retryTierTopic } from '../../../../../src/engine/topology/retry-tiers.ts';

describe('retry tiers', () => {
  it('names a delay by whole hours, minutes or seconds, else milliseconds', () => {
    expect([10_000, 60_000, 600_000, 3_600_000, 90_000, 1_500, 7_200_000].map(retryTierName)).toEqual(['10s', '1m', '10m', '1h', '90s', '1500ms', '2h']);
    expect(retryTierTopic('agent-runs-retry', 600_000)).toBe('agent-runs-retry-10m');
  });

  it('has one tier per distinct delay, shortest first, and none when retries are off', () => {
    const config = (delaysMs: number[], enabled = true) => ({ topics: { retry: 'runs-retry' }, retries: { enabled, delaysMs } });
    expect(retryTiers(config([10_000, 60_000, 600_000, 3_600_000]))).toEqual([
      { delayMs: 10_000, topic: 'runs-retry-10s' },
      { delayMs: 60_000, topic: 'runs-retry-1m' },
      { delayMs: 600_000, topic: 'runs-retry-10m' },
      { delayMs: 3_600_000, topic: 'runs-retry-1h' },
    ]);
    expect(retryTiers(config([2_000, 1_000, 2_000])).map((tier) => tier.topic)).toEqual(['runs-retry-1s', 'runs-retry-2s']);
    expect(retryTiers(config([1_000], false))).toEqual([]);
  });
});
