import { describe, expect, it } from 'vitest';
import { coresUsed } from '../../../../bench/pipeline/cpu-usage.ts';
import { percentile } from '../../../../bench/pipeline/latency-stages.ts';
import { measureRate, waitFor } from '../../../../bench/pipeline/measurement.ts';

describe('measureRate', () => {
  it('counts only the events after the warm-up', async () => {
    let completed = 0;
    const ticker = setInterval(() => (completed += 10), 1);
    try {
      const result = await measureRate({ completed: () => completed, warmUpEvents: 50, targetEvents: 200, what: 'a counter', timeoutMs: 10_000 });
      expect(result.events).toBeGreaterThanOrEqual(150 - 10);
      expect(result.events).toBeLessThanOrEqual(completed);
      expect(result.eventsPerSecond).toBeCloseTo(result.events / result.seconds, 6);
    } finally {
      clearInterval(ticker);
    }
  });

  it('says what it was waiting for when the scenario never gets there', async () => {
    await expect(measureRate({ completed: () => 0, warmUpEvents: 1, targetEvents: 2, what: '(x) a stuck scenario', timeoutMs: 20 })).rejects.toThrow(
      'benchmark: timed out after 0 s waiting for (x) a stuck scenario to warm up (1 events)',
    );
  });
});

describe('waitFor', () => {
  it('resolves at once when the condition already holds', async () => {
    await expect(waitFor(() => true, 'nothing', 0)).resolves.toBeUndefined();
  });
});

describe('percentile', () => {
  const sorted = Float64Array.from({ length: 100 }, (_, index) => index + 1);
  it('takes the nearest rank', () => {
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile(sorted, 1)).toBe(100);
  });
  it('is NaN without samples', () => {
    expect(percentile(new Float64Array(0), 0.5)).toBeNaN();
  });
});

describe('coresUsed', () => {
  it('divides CPU time by wall time for each side', () => {
    expect(coresUsed({ nodeMs: 0, mainThreadMs: 0, brokerMs: 100, at: 0 }, { nodeMs: 1500, mainThreadMs: 900, brokerMs: 600, at: 1000 })).toEqual({ node: 1.5, mainThread: 0.9, broker: 0.5 });
  });
  it('leaves the broker out when its CPU time is not known', () => {
    expect(coresUsed({ nodeMs: 0, mainThreadMs: 0, brokerMs: undefined, at: 0 }, { nodeMs: 10, mainThreadMs: 10, brokerMs: undefined, at: 10 }).broker).toBeUndefined();
  });
});
