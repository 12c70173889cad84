// scorestream.verdicts and scorestream.pass.objective: only bindings that declare pass are counted;
// not_scorable and failed are counted as themselves; agents and tenants are bounded; the objective
// gauge exports what the config says.
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { OTHER_LABEL } from '../../../otel/bounded-label.ts';
import { NO_TENANT, recordLabels } from '../../../otel/record-labels.ts';
import { registerVerdictMetric } from '../../../otel/verdict-metric.ts';
import type { JudgedBinding, VerdictRecordFields } from '../../../otel/verdict-metric.ts';
import { CollectingMetricReader, findMetric, metricValue } from '../../helpers/spans.ts';

async function collect(bindings: JudgedBinding[], records: VerdictRecordFields[], options: { maxAgents?: number; maxTenants?: number } = {}) {
  const reader = new CollectingMetricReader();
  const metric = registerVerdictMetric(new MeterProvider({ readers: [reader] }).getMeter('test'), bindings, recordLabels(options));
  for (const record of records) metric.record(record);
  const { resourceMetrics, errors } = await reader.collect();
  expect(errors).toEqual([]);
  return resourceMetrics;
}

const record = (extra: Partial<VerdictRecordFields>): VerdictRecordFields => ({ scorerId: 'quality', status: 'scored', verdict: 'pass', entity: { id: 'agent-a' }, metadata: { tenantId: 'acme' }, ...extra });

describe('scorestream.verdicts', () => {
  it('counts each verdict, and not_scorable and failed as what they are', async () => {
    const metrics = await collect([{ scorerId: 'quality' }], [
      record({}), record({}), record({ verdict: 'fail' }),
      record({ status: 'not_scorable', verdict: undefined }), record({ status: 'failed', verdict: undefined }), record({ status: 'failed', verdict: undefined }),
    ]);
    const by = (verdict: string) => metricValue(metrics, 'scorestream.verdicts', { 'scorestream.verdict': verdict, 'scorestream.scorer.id': 'quality', 'scorestream.agent.id': 'agent-a', 'scorestream.tenant.id': 'acme' });
    expect([by('pass'), by('fail'), by('not_scorable'), by('failed')]).toEqual([2, 1, 1, 2]);
  });

  it('counts only bindings that declare pass, by scorer and version', async () => {
    const metrics = await collect([{ scorerId: 'quality', version: '2' }], [
      record({ scorerVersion: '2' }), record({}), record({ scorerId: 'other-scorer', scorerVersion: '2' }), record({ scorerVersion: '3' }),
    ]);
    expect(metricValue(metrics, 'scorestream.verdicts')).toBe(1);
    expect(metricValue(metrics, 'scorestream.verdicts', { 'scorestream.scorer.version': '2' })).toBe(1);
  });

  it('skips a scored record without a verdict (a label criterion with no choice)', async () => {
    const metrics = await collect([{ scorerId: 'quality' }], [record({ verdict: undefined }), record({})]);
    expect(metricValue(metrics, 'scorestream.verdicts')).toBe(1);
  });

  it('bounds agents and tenants: past the maximum they share "other"; a run without a tenant is "none", as in the score histogram', async () => {
    const metrics = await collect(
      [{ scorerId: 'quality' }],
      ['a', 'b', 'c', 'a'].map((agent, index) => record({ entity: { id: agent }, metadata: index === 3 ? {} : { tenantId: `t${index}` } })),
      { maxAgents: 2, maxTenants: 1 },
    );
    const points = findMetric(metrics, 'scorestream.verdicts')!.dataPoints;
    expect(new Set(points.map((point) => point.attributes['scorestream.agent.id']))).toEqual(new Set(['a', 'b', OTHER_LABEL]));
    expect(new Set(points.map((point) => point.attributes['scorestream.tenant.id']))).toEqual(new Set(['t0', OTHER_LABEL, NO_TENANT]));
  });
});

describe('scorestream.pass.objective', () => {
  it("exports each binding's objective by scorer and version, and nothing for bindings without one", async () => {
    const metrics = await collect([{ scorerId: 'quality', objective: 0.95 }, { scorerId: 'tone', version: '2', objective: 0.9 }, { scorerId: 'length' }], []);
    const points = findMetric(metrics, 'scorestream.pass.objective')!.dataPoints;
    expect(points.map((point) => [point.attributes, point.value])).toEqual([
      [{ 'scorestream.scorer.id': 'quality' }, 0.95],
      [{ 'scorestream.scorer.id': 'tone', 'scorestream.scorer.version': '2' }, 0.9],
    ]);
  });
});
