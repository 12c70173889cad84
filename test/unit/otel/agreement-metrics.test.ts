// The join's metrics read the ledger's latest windows and the join's state at collection time.
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { registerAgreementMetrics } from '../../../otel/agreement-metrics.ts';
import { CollectingMetricReader, metricValue } from '../../helpers/spans.ts';

describe('registerAgreementMetrics', () => {
  it('reports κ, accuracy, pairs and confusion per scorer version, the join state, dead letters and re-scores asked or refused', async () => {
    const reader = new CollectingMetricReader();
    const meter = new MeterProvider({ readers: [reader] }).getMeter('test');
    const windows = [{ scorerId: 'completeness', scorerVersion: '2', n: 50, accuracy: 0.7, kappa: 0.4, weightedKappa: { quadratic: 0.4 }, confusion: { labels: ['fail', 'pass'], counts: [[15, 10], [5, 20]] } }];
    const metrics = registerAgreementMetrics(meter, { latestWindows: () => windows, joinState: () => ({ runs: 3, scores: 4, feedback: 2 }), deadLettersByCode: new Map([['invalid_json', 2]]), rescores: () => ({ requested: 3, refused: 1 }) });
    const version = { 'scorestream.scorer.id': 'completeness', 'scorestream.scorer.version': '2' };
    const { resourceMetrics } = await reader.collect();
    expect(metricValue(resourceMetrics, 'scorestream.agreement.kappa', version)).toBe(0.4);
    expect(metricValue(resourceMetrics, 'scorestream.agreement.accuracy', version)).toBe(0.7);
    expect(metricValue(resourceMetrics, 'scorestream.agreement.pairs', version)).toBe(50);
    expect(metricValue(resourceMetrics, 'scorestream.agreement.confusion', { ...version, 'scorestream.agreement.human': 'pass', 'scorestream.agreement.judge': 'fail' })).toBe(5);
    expect(metricValue(resourceMetrics, 'scorestream.agreement.join_state', { 'scorestream.agreement.side': 'score' })).toBe(4);
    expect(metricValue(resourceMetrics, 'scorestream.agreement.dead_letters', { 'scorestream.dead_letter.code': 'invalid_json' })).toBe(2);
    expect(metricValue(resourceMetrics, 'scorestream.agreement.rescores', { 'scorestream.agreement.rescore.outcome': 'requested' })).toBe(3);
    expect(metricValue(resourceMetrics, 'scorestream.agreement.rescores', { 'scorestream.agreement.rescore.outcome': 'refused_thread_score' })).toBe(1);
    // Read at collection time: the next window's figures, not a copy of the first.
    windows[0] = { ...windows[0]!, n: 51 };
    const after = await reader.collect();
    expect(metricValue(after.resourceMetrics, 'scorestream.agreement.pairs', version)).toBe(51);
    metrics.unregister();
  });
});
