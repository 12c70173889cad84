// A monitor's window: samples placed by time, duplicates counted once, the bound on samples, and
// each aggregation.
import { describe, expect, it } from 'vitest';
import { aggregateSamples, MonitorWindow, quantile } from '../../../../../src/engine/monitors/monitor-window.ts';
import type { MonitorSample } from '../../../../../src/engine/monitors/monitor-window.ts';

const sample = (at: number, value: number, pass?: boolean, scoreId = `s-${at}-${value}`): MonitorSample => ({ at, value, pass, scoreId });

describe('MonitorWindow', () => {
  it('keeps what is inside the window at evaluation, and drops what left it', () => {
    const window = new MonitorWindow(60_000, 1000);
    window.add(sample(1_000, 0.2), 1_000);
    window.add(sample(30_000, 0.4), 30_000);
    expect(window.aggregate('mean', 60_000)).toMatchObject({ value: 0.30000000000000004, samples: 2, from: 1_000, to: 30_000 });
    expect(window.aggregate('mean', 61_000)).toEqual({ value: 0.4, samples: 1, from: 30_000, to: 30_000 });
    expect(window.aggregate('mean', 90_000)).toEqual({ value: null, samples: 0 });
  });

  it('counts a scoreId once while it is in the window, and refuses samples already outside it', () => {
    const window = new MonitorWindow(60_000, 1000);
    expect(window.add(sample(1_000, 1, undefined, 'a'), 2_000)).toBe(true);
    expect(window.add(sample(1_500, 1, undefined, 'a'), 2_000)).toBe(false);
    expect(window.add(sample(0, 1, undefined, 'old'), 70_000)).toBe(false);
    expect(window.aggregate('count', 2_000).value).toBe(1);
  });

  it('keeps at most maxSamples, dropping the oldest', () => {
    const window = new MonitorWindow(1_000_000, 3);
    for (let at = 1; at <= 10; at += 1) window.add(sample(at, at), 10);
    expect(window.aggregate('count', 10)).toMatchObject({ value: 3, from: 8, to: 10 });
    expect(window.size).toBe(3);
  });
});

describe('aggregateSamples', () => {
  const samples = [sample(1, 0.1, false), sample(2, 0.5, true), sample(3, 0.9, true), sample(4, 1, true)];
  it('mean, count, passRate (of samples with a verdict), p50 and p95', () => {
    expect(aggregateSamples(samples, 'mean').value).toBeCloseTo(0.625);
    expect(aggregateSamples(samples, 'count').value).toBe(4);
    expect(aggregateSamples([...samples, sample(5, 0.2)], 'passRate')).toMatchObject({ value: 0.75, samples: 4 });
    expect(aggregateSamples(samples, 'p50').value).toBeCloseTo(0.7);
    expect(aggregateSamples(samples, 'p95').value).toBeCloseTo(0.985);
  });

  it('has no value without samples, except count, which is 0', () => {
    for (const aggregation of ['mean', 'p50', 'p95', 'passRate'] as const) expect(aggregateSamples([], aggregation).value).toBeNull();
    expect(aggregateSamples([], 'count').value).toBe(0);
  });

  it('quantile interpolates between ranks', () => {
    expect(quantile([3, 1, 2], 0.5)).toBe(2);
    expect(quantile([1], 0.95)).toBe(1);
    expect(quantile([0, 10], 0.95)).toBeCloseTo(9.5);
  });
});
