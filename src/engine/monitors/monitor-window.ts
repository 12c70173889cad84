// One monitor's samples over its time window: each score record that matches it, placed by its
// scoredAt, counted once by scoreId (at-least-once delivery and retried publishes can repeat a
// record), and aggregated on demand. Bounded: past `maxSamples` the oldest are dropped first, so a
// window of hours at thousands of records a second costs a known amount of memory.
import type { MonitorAggregation } from '../../kit/contracts/alert-record.ts';

export type MonitorSample = { at: number; scoreId: string; value: number; pass: boolean | undefined };

export type WindowAggregate = { value: number | null; samples: number; from?: number; to?: number };

export class MonitorWindow {
  private samples: MonitorSample[] = [];
  private readonly seen = new Set<string>();
  private readonly windowMs: number;
  private readonly maxSamples: number;

  constructor(windowMs: number, maxSamples: number) {
    this.windowMs = windowMs;
    this.maxSamples = maxSamples;
  }

  get size(): number {
    return this.samples.length;
  }

  /** False for a scoreId already in the window, or a sample older than the window at `nowMs`. */
  add(sample: MonitorSample, nowMs: number): boolean {
    if (sample.at <= nowMs - this.windowMs || this.seen.has(sample.scoreId)) return false;
    this.samples.push(sample);
    this.seen.add(sample.scoreId);
    if (this.samples.length >= 2 * this.maxSamples) this.dropOldest(this.samples.length - this.maxSamples);
    return true;
  }

  /** Drops what left the window, then aggregates what is in it. */
  aggregate(aggregation: MonitorAggregation, nowMs: number): WindowAggregate {
    const cutoff = nowMs - this.windowMs;
    if (this.samples.some((sample) => sample.at <= cutoff)) {
      const kept: MonitorSample[] = [];
      for (const sample of this.samples) {
        if (sample.at > cutoff) kept.push(sample);
        else this.seen.delete(sample.scoreId);
      }
      this.samples = kept;
    }
    if (this.samples.length > this.maxSamples) this.dropOldest(this.samples.length - this.maxSamples);
    return aggregateSamples(this.samples, aggregation);
  }

  private dropOldest(count: number): void {
    this.samples.sort((a, b) => a.at - b.at);
    for (const sample of this.samples.splice(0, count)) this.seen.delete(sample.scoreId);
  }
}

/** The aggregate of samples; `value` null when there is nothing to aggregate (never for count). */
export function aggregateSamples(samples: readonly MonitorSample[], aggregation: MonitorAggregation): WindowAggregate {
  let from = Infinity;
  let to = -Infinity;
  for (const sample of samples) {
    if (sample.at < from) from = sample.at;
    if (sample.at > to) to = sample.at;
  }
  const range = samples.length === 0 ? {} : { from, to };
  switch (aggregation) {
    case 'count':
      return { value: samples.length, samples: samples.length, ...range };
    case 'passRate': {
      let judged = 0;
      let passed = 0;
      for (const sample of samples) {
        if (sample.pass === undefined) continue;
        judged += 1;
        if (sample.pass) passed += 1;
      }
      return { value: judged === 0 ? null : passed / judged, samples: judged, ...range };
    }
    case 'mean': {
      if (samples.length === 0) return { value: null, samples: 0 };
      let sum = 0;
      for (const sample of samples) sum += sample.value;
      return { value: sum / samples.length, samples: samples.length, ...range };
    }
    case 'p50':
    case 'p95':
      return { value: quantile(samples.map((sample) => sample.value), aggregation === 'p50' ? 0.5 : 0.95), samples: samples.length, ...range };
  }
}

/** Linear interpolation between the closest ranks (numpy's default); null for no values. */
export function quantile(values: number[], q: number): number | null {
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const position = (values.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return values[lower]! + (values[upper]! - values[lower]!) * (position - lower);
}
