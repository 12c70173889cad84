// The judge bill's metrics: each call's cost and tokens by model, and — on a run — by the binding's
// scorer and version and the run's tenant, with the record metrics' tenant labels.
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { createJudgeSpendMetrics } from '../../../otel/judge-spend-metrics.ts';
import { recordLabels } from '../../../otel/record-labels.ts';
import { CollectingMetricReader, metricValue } from '../../helpers/spans.ts';

function setup(maxTenants = 50) {
  const reader = new CollectingMetricReader();
  const meter = new MeterProvider({ readers: [reader] }).getMeter('scorestream');
  return { spend: createJudgeSpendMetrics(meter, recordLabels({ maxTenants })), collect: async () => (await reader.collect()).resourceMetrics };
}

const priced = (amount: number) => ({ amount, unit: 'USD', source: 'price-table' as const });

describe('judge spend metrics', () => {
  it('adds each priced call to scorestream.judge.cost by model, currency, scorer, version and tenant, and nothing for a zero cost', async () => {
    const { spend, collect } = setup();
    spend.recordCall({ modelId: 'gpt-4o-mini', usage: { inputTokens: 2000, outputTokens: 100 }, cost: priced(0.004) }, { scorerId: 'relevancy', scorerVersion: '2', tenant: 'acme' });
    spend.recordCall({ modelId: 'gpt-4o-mini', usage: { inputTokens: 1000, outputTokens: 50 }, cost: priced(0.0015) }, { scorerId: 'relevancy', scorerVersion: '2', tenant: 'acme' });
    spend.recordCall({ modelId: 'gpt-4o-mini', usage: { inputTokens: 1000, outputTokens: 50 }, cost: priced(0.002) }, { scorerId: 'tone', tenant: undefined });
    spend.recordCall({ modelId: 'llama3.1', usage: { inputTokens: 10, outputTokens: 10 }, cost: priced(0) }, { scorerId: 'tone', tenant: 'acme' });
    const metrics = await collect();
    const cost = (attributes: Record<string, string>) => metricValue(metrics, 'scorestream.judge.cost', attributes);
    expect(cost({ 'scorestream.scorer.id': 'relevancy', 'scorestream.scorer.version': '2', 'scorestream.tenant.id': 'acme', 'gen_ai.request.model': 'gpt-4o-mini', 'scorestream.currency': 'USD' })).toBeCloseTo(0.0055, 12);
    expect(cost({ 'scorestream.scorer.id': 'tone', 'scorestream.tenant.id': 'none' })).toBeCloseTo(0.002, 12);
    expect(cost({ 'gen_ai.request.model': 'llama3.1' })).toBe(0);
  });

  it('counts tokens by type — input, cached_input and cache_write of it, output, reasoning of it — by scorer and tenant', async () => {
    const { spend, collect } = setup();
    spend.recordCall({ modelId: 'claude-sonnet-4', usage: { inputTokens: 3000, cachedInputTokens: 2000, cacheCreationInputTokens: 800, outputTokens: 150, reasoningTokens: 40 }, cost: priced(0.00645) }, { scorerId: 'judge', tenant: 'acme' });
    const metrics = await collect();
    const tokens = (type: string) => metricValue(metrics, 'scorestream.judge.usage', { 'gen_ai.token.type': type, 'scorestream.scorer.id': 'judge', 'scorestream.tenant.id': 'acme' });
    expect([tokens('input'), tokens('cached_input'), tokens('cache_write'), tokens('output'), tokens('reasoning')]).toEqual([3000, 2000, 800, 150, 40]);
  });

  it('counts an unpriced call by model and scorer, and a call outside a run by model alone', async () => {
    const { spend, collect } = setup();
    spend.recordCall({ modelId: 'house-judge', usage: { inputTokens: 10, outputTokens: 5 }, cost: 'unpriced' }, { scorerId: 'judge', tenant: 'acme' });
    spend.recordCall({ modelId: 'house-judge', usage: undefined, cost: 'unpriced' }, undefined);
    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.judge.unpriced', { 'gen_ai.request.model': 'house-judge' })).toBe(2);
    expect(metricValue(metrics, 'scorestream.judge.unpriced', { 'gen_ai.request.model': 'house-judge', 'scorestream.scorer.id': 'judge' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.judge.cost')).toBe(0);
  });

  it('bounds the tenant label like the record metrics: past the limit, other', async () => {
    const { spend, collect } = setup(2);
    for (const tenant of ['a', 'b', 'c', 'd']) spend.recordCall({ modelId: 'm', usage: undefined, cost: priced(1) }, { scorerId: 's', tenant });
    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.judge.cost', { 'scorestream.tenant.id': 'a' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.judge.cost', { 'scorestream.tenant.id': 'other' })).toBe(2);
  });
});
