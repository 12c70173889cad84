// The memory metrics read the resident set and the memory target's state at collection time.
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { registerMemoryMetrics } from '../../../otel/memory-metrics.ts';
import type { MemoryTargetState } from '../../../otel/memory-metrics.ts';
import { CollectingMetricReader, findMetric, metricValue } from '../../helpers/spans.ts';

const MB = 2 ** 20;

describe('registerMemoryMetrics', () => {
  it('reports the resident set, the target and the heap growth in force as they are when collected', async () => {
    const reader = new CollectingMetricReader();
    const meter = new MeterProvider({ readers: [reader] }).getMeter('test');
    const state = { targetBytes: 400 * MB, growthPercent: 200 };
    let rss = 250 * MB;
    const metrics = registerMemoryMetrics(meter, () => state, () => rss);
    let { resourceMetrics } = await reader.collect();
    expect(metricValue(resourceMetrics, 'scorestream.memory.resident', {})).toBe(250 * MB);
    expect(metricValue(resourceMetrics, 'scorestream.memory.target', {})).toBe(400 * MB);
    expect(metricValue(resourceMetrics, 'scorestream.memory.heap_growth', {})).toBe(200);
    rss = 360 * MB;
    state.growthPercent = 75;
    ({ resourceMetrics } = await reader.collect());
    expect(metricValue(resourceMetrics, 'scorestream.memory.resident', {})).toBe(360 * MB);
    expect(metricValue(resourceMetrics, 'scorestream.memory.heap_growth', {})).toBe(75);
    metrics.unregister();
  });

  it('reports the resident set alone when the process has no target', async () => {
    const reader = new CollectingMetricReader();
    const meter = new MeterProvider({ readers: [reader] }).getMeter('test');
    registerMemoryMetrics(meter, (): MemoryTargetState | undefined => undefined, () => 123 * MB);
    const { resourceMetrics } = await reader.collect();
    expect(metricValue(resourceMetrics, 'scorestream.memory.resident', {})).toBe(123 * MB);
    expect(findMetric(resourceMetrics, 'scorestream.memory.target')?.dataPoints ?? []).toEqual([]);
    expect(findMetric(resourceMetrics, 'scorestream.memory.heap_growth')?.dataPoints ?? []).toEqual([]);
  });
});
