// The Grafana dashboard (dashboard/grafana/scorestream.json) queries only metrics and labels the
// service really exports: the names are taken from the service's own instruments, serialized by
// the same Prometheus exporter the service uses (OTEL_METRICS_EXPORTER=prometheus).
import { readFileSync } from 'node:fs';
import { generateText } from 'ai';
import { PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { ServiceStats } from '../../../consumers/service-stats.ts';
import { createJudgeMetrics } from '../../../otel/judge-metrics.ts';
import { createJudgeSpendMetrics } from '../../../otel/judge-spend-metrics.ts';
import { recordLabels } from '../../../otel/record-labels.ts';
import { registerServiceMetrics } from '../../../otel/service-metrics.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { CollectingMetricReader } from '../../helpers/spans.ts';

type Panel = { id: number; type: string; title: string; gridPos: { x: number; y: number; w: number; h: number }; targets?: { expr: string }[] };
const dashboard = JSON.parse(readFileSync(new URL('../../../dashboard/grafana/scorestream.json', import.meta.url), 'utf8')) as { uid: string; panels: Panel[]; templating: { list: { name: string; definition?: string }[] } };

async function exportedSeries(): Promise<string> {
  const reader = new CollectingMetricReader();
  const meter = new MeterProvider({ readers: [reader] }).getMeter('scorestream');
  const stats = new ServiceStats();
  stats.consumed = 1;
  stats.countRecord({ scorerId: 's', status: 'scored', score: 0.5 } as never);
  stats.countSkip('sampling');
  stats.countEscalation('s', 'not_escalated');
  stats.countDeadLetter('invalid_json');
  stats.inFlight = 1;
  stats.pausedPartitions.add('runs[0]');
  stats.lagByPartition.set('runs[0]', 1);
  Object.assign(stats.batch, { deferred: 2, requestsSubmitted: 2, answered: 1 });
  stats.batch.byPartition.set('runs-retry-batch[0]', () => ({ waitingRequests: 1, openBatches: 1, byScorer: [{ scorerId: 's', pendingPairs: 1, oldestWaitMs: 5_000 }] }));
  const metrics = registerServiceMetrics(meter, stats);
  metrics.observeRecord({ scorerId: 's', status: 'scored', score: 0.5, entity: { id: 'a' }, latency: { kafkaMs: 60, runSlotMs: 5, scoringMs: 2 } }, 100, 33);
  stats.countRescore('admitted');
  metrics.observeRecord({ scorerId: 's', status: 'scored', score: 0.1, verdict: 'fail', entity: { id: 'a' }, rescore: { reason: 'thumbs-down' } }, undefined);
  const judge = createJudgeMetrics(meter);
  const spend = createJudgeSpendMetrics(meter, recordLabels());
  spend.recordCall({ modelId: 'm', usage: { inputTokens: 3, outputTokens: 2 }, cost: { amount: 0.01, unit: 'USD', source: 'price-table' } }, { scorerId: 's', scorerVersion: '1', tenant: 't' });
  spend.recordCall({ modelId: 'house', usage: undefined, cost: 'unpriced' }, { scorerId: 's', tenant: 't' });
  await generateText({ model: judge.instrument(mockJudge({ modelId: 'm', answer: { score: 0.5 }, usage: { inputTokens: 3, outputTokens: 2 } })), prompt: 'rate it' });
  await judge.measureCall({ provider: 'p', modelId: 'm' }, async () => Promise.reject(new Error('x'))).catch(() => undefined);
  const { resourceMetrics } = await reader.collect();
  return new PrometheusSerializer().serialize(resourceMetrics);
}

describe('Grafana dashboard', () => {
  it('queries only metrics and labels the service exports', async () => {
    const exported = await exportedSeries();
    const exprs = dashboard.panels.flatMap((panel) => panel.targets ?? []).map((target) => target.expr).concat(dashboard.templating.list.flatMap((variable) => variable.definition ?? []));
    expect(exprs.length).toBeGreaterThan(10);
    const names = new Set(exprs.flatMap((expr) => [...expr.matchAll(/\b(scorestream_[a-z_]+)\b/g)].map((match) => match[1]!)));
    const labels = new Set(exprs.flatMap((expr) => [...expr.matchAll(/\b(?:by \(|, )([a-z_]+)(?=[,)])|([a-z_]+)(?:=~?"|!=)/g)].map((match) => match[1] ?? match[2]!)));
    for (const name of names) {
      if (name.startsWith('scorestream_') && /_(id|status|reason|verdict|outcome|stage|version|currency|tier)$/.test(name) && !exported.includes(`\n${name}`)) {
        expect(exported, `label ${name}`).toContain(`${name}=`);
        continue;
      }
      expect(exported, `metric ${name}`).toMatch(new RegExp(`^${name}[{ ]`, 'm'));
    }
    for (const label of labels) if (label !== 'le') expect(exported, `label ${label}`).toContain(`${label}=`);
    expect(names).toContain('scorestream_score_bucket');
  });

  it('has unique panel ids and every panel on the grid', () => {
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels) expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
    expect(dashboard.uid).toBe('scorestream');
  });
});
