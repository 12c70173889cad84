import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { OTHER_LABEL } from '../../../otel/bounded-label.ts';
import { NO_TENANT, recordLabels } from '../../../otel/record-labels.ts';
import { registerScoreMetric } from '../../../otel/score-metric.ts';
import { CollectingMetricReader, findMetric, histogramTotals } from '../../helpers/spans.ts';

async function withMetric(maxAgents: number, use: (metric: ReturnType<typeof registerScoreMetric>) => void, maxTenants?: number) {
  const reader = new CollectingMetricReader();
  const metric = registerScoreMetric(new MeterProvider({ readers: [reader] }).getMeter('test'), recordLabels({ maxAgents, ...(maxTenants === undefined ? {} : { maxTenants }) }));
  use(metric);
  const { resourceMetrics, errors } = await reader.collect();
  expect(errors).toEqual([]);
  return resourceMetrics;
}

describe('scorestream.score', () => {
  it('bounds the agents: past maxAgents distinct ids, agents share "other"', async () => {
    const metrics = await withMetric(2, (metric) => {
      for (const agent of ['a', 'b', 'c', 'd', 'a']) metric.record({ scorerId: 's', status: 'scored', score: 1, entity: { id: agent } });
      metric.record({ scorerId: 's', status: 'scored', score: 1 });
    });
    const agents = new Set((findMetric(metrics, 'scorestream.score')?.dataPoints ?? []).map((point) => point.attributes['scorestream.agent.id']));
    expect(agents).toEqual(new Set(['a', 'b', OTHER_LABEL]));
    expect(histogramTotals(metrics, 'scorestream.score', { 'scorestream.agent.id': 'a' }).count).toBe(2);
    expect(histogramTotals(metrics, 'scorestream.score', { 'scorestream.agent.id': OTHER_LABEL }).count).toBe(3);
  });

  it('labels the tenant, bounded the same way: past maxTenants distinct ids "other", a run without one "none"', async () => {
    const metrics = await withMetric(
      50,
      (metric) => {
        for (const tenantId of ['acme', 'globex', 'initech', 'acme']) metric.record({ scorerId: 's', status: 'scored', score: 1, entity: { id: 'a' }, metadata: { tenantId } });
        metric.record({ scorerId: 's', status: 'scored', score: 1, entity: { id: 'a' } });
        metric.record({ scorerId: 's', status: 'scored', score: 1, entity: { id: 'a' }, metadata: { tenantId: '' } });
      },
      2,
    );
    const tenants = new Set((findMetric(metrics, 'scorestream.score')?.dataPoints ?? []).map((point) => point.attributes['scorestream.tenant.id']));
    expect(tenants).toEqual(new Set(['acme', 'globex', OTHER_LABEL, NO_TENANT]));
    expect(histogramTotals(metrics, 'scorestream.score', { 'scorestream.tenant.id': 'acme' }).count).toBe(2);
    expect(histogramTotals(metrics, 'scorestream.score', { 'scorestream.tenant.id': NO_TENANT }).count).toBe(2);
    expect(histogramTotals(metrics, 'scorestream.score', { 'scorestream.tenant.id': OTHER_LABEL }).count).toBe(1);
  });

  it('puts scores in 0.1 buckets over [0, 1]', async () => {
    const metrics = await withMetric(5, (metric) => {
      for (const score of [0, 0.05, 0.55, 1, 3]) metric.record({ scorerId: 's', status: 'scored', score, entity: { id: 'a' } });
      metric.record({ scorerId: 's', status: 'scored', score: Number.NaN, entity: { id: 'a' } });
    });
    const point = findMetric(metrics, 'scorestream.score')!.dataPoints[0]!.value as { buckets: { boundaries: number[]; counts: number[] }; count: number };
    expect(point.buckets.boundaries).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
    expect(point.count).toBe(5);
    expect(point.buckets.counts).toEqual([1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1]);
  });
});
