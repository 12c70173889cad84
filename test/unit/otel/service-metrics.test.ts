// Service metrics: observed from the live counters at collection time (so they always agree with
// them), the per-record instruments fed per acknowledged record (latency in seconds; a re-score on
// feedback counted apart, never as a score), and unregister() stopping observation.
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { registerServiceMetrics } from '../../../otel/service-metrics.ts';
import type { ObservedRecordFields, ServiceCounters, ServiceMetricsOptions } from '../../../otel/service-metrics.ts';
import { ServiceStats } from '../../../consumers/service-stats.ts';
import { CollectingMetricReader, findMetric, histogramTotals, metricValue } from '../../helpers/spans.ts';

function setup(counters: ServiceCounters, options: ServiceMetricsOptions = {}) {
  const reader = new CollectingMetricReader();
  const meter = new MeterProvider({ readers: [reader] }).getMeter('test');
  const metrics = registerServiceMetrics(meter, counters, options);
  return {
    metrics,
    async collect() {
      const { resourceMetrics, errors } = await reader.collect();
      expect(errors).toEqual([]);
      return resourceMetrics;
    },
  };
}

function record(scorerId: string, status: 'scored' | 'not_scorable' | 'failed') {
  return (status === 'scored' ? { scorerId, status, score: 0.5 } : { scorerId, status }) as never;
}

describe('registerServiceMetrics', () => {
  it('counts an escalated binding\'s pairs by the tier that decided; a re-score is not one', async () => {
    const stats = new ServiceStats();
    const { collect } = setup(stats);
    const judged = (tier: 'escalated' | 'sampled', rescore?: object) => ({ scorerId: 'judge', status: 'scored', score: 1, escalation: { tier }, ...(rescore === undefined ? {} : { rescore }) }) as never;
    stats.countRecord(judged('escalated'));
    stats.countRecord(judged('escalated'));
    stats.countRecord(judged('sampled'));
    stats.countRecord(judged('escalated', { feedbackId: 'f' }));
    stats.countEscalation('judge', 'not_escalated');
    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.escalations', { 'scorestream.scorer.id': 'judge', 'scorestream.escalation.tier': 'escalated' })).toBe(2);
    expect(metricValue(metrics, 'scorestream.escalations', { 'scorestream.escalation.tier': 'sampled' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.escalations', { 'scorestream.escalation.tier': 'not_escalated' })).toBe(1);
  });

  it('reports what ServiceStats counted, by scorer/status, reason and partition', async () => {
    const stats = new ServiceStats();
    const { collect } = setup(stats);
    stats.consumed = 7;
    stats.countRecord(record('answer-length', 'scored'));
    stats.countRecord(record('answer-length', 'scored'));
    stats.countRecord(record('judge', 'failed'));
    stats.countRecord(record('judge', 'not_scorable'));
    stats.countSkip('trace_not_sampled');
    stats.countSkip('trace_not_sampled');
    stats.countSkip('own_output');
    stats.countDeadLetter('invalid_json');
    stats.inFlight = 3;
    stats.pausedPartitions.add('agent-runs[1]');
    stats.lagByPartition.set('agent-runs[0]', 12);
    stats.lagByPartition.set('agent-runs[1]', 4);

    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.runs.consumed')).toBe(7);
    expect(metricValue(metrics, 'scorestream.records', { 'scorestream.scorer.id': 'answer-length', 'scorestream.status': 'scored' })).toBe(2);
    expect(metricValue(metrics, 'scorestream.records', { 'scorestream.scorer.id': 'judge', 'scorestream.status': 'failed' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.records', { 'scorestream.scorer.id': 'judge', 'scorestream.status': 'not_scorable' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.records')).toBe(4);
    expect(metricValue(metrics, 'scorestream.skips', { 'scorestream.skip.reason': 'trace_not_sampled' })).toBe(2);
    expect(metricValue(metrics, 'scorestream.skips', { 'scorestream.skip.reason': 'own_output' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.dead_letters', { 'scorestream.dead_letter.reason': 'invalid_json' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.runs.in_flight')).toBe(3);
    expect(metricValue(metrics, 'scorestream.partitions.paused')).toBe(1);
    expect(metricValue(metrics, 'scorestream.consumer.lag', { 'messaging.destination.name': 'agent-runs', 'messaging.destination.partition.id': '0' })).toBe(12);
    expect(metricValue(metrics, 'scorestream.consumer.lag', { 'messaging.destination.partition.id': '1' })).toBe(4);
  });

  it('reports thread scoring: open threads, held turns and state bytes per claimed by-thread partition, closes by reason, restores and their time, turns re-keyed', async () => {
    const stats = new ServiceStats();
    const { collect } = setup(stats);
    stats.threads.byPartition.set('agent-runs-by-thread[2]', () => ({ threads: 5, openThreads: 3, heldTurns: 11, bytes: 4_096 }));
    stats.threads.closesByReason.set('idle', 4);
    stats.threads.closesByReason.set('overflow', 1);
    stats.threads.restores = 2;
    stats.threads.restoredRecords = 40;
    stats.threads.restoreMs = 3_500;
    stats.threads.lastRestoreMs = 1_250;
    stats.threads.rekeyed = 9;

    let metrics = await collect();
    const where = { 'messaging.destination.name': 'agent-runs-by-thread', 'messaging.destination.partition.id': '2' };
    expect(metricValue(metrics, 'scorestream.threads.open', where)).toBe(3);
    expect(metricValue(metrics, 'scorestream.threads.held_turns', where)).toBe(11);
    expect(metricValue(metrics, 'scorestream.threads.state_bytes', where)).toBe(4_096);
    expect(metricValue(metrics, 'scorestream.threads.closes', { 'scorestream.thread.closed_by': 'idle' })).toBe(4);
    expect(metricValue(metrics, 'scorestream.threads.closes', { 'scorestream.thread.closed_by': 'overflow' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.threads.restores', { 'scorestream.restore.unit': 'partition' })).toBe(2);
    expect(metricValue(metrics, 'scorestream.threads.restores', { 'scorestream.restore.unit': 'record' })).toBe(40);
    expect(metricValue(metrics, 'scorestream.threads.restore_time')).toBe(3.5);
    expect(metricValue(metrics, 'scorestream.threads.last_restore.duration')).toBe(1.25);
    expect(metricValue(metrics, 'scorestream.threads.rekeyed')).toBe(9);

    // A partition no longer claimed reads 0, not its last value.
    stats.threads.byPartition.delete('agent-runs-by-thread[2]');
    metrics = await collect();
    expect(metricValue(metrics, 'scorestream.threads.open', where)).toBe(0);
  });

  it('reports the batch tier: pairs deferred and resumed, requests and batches by outcome, polls, per claimed batch-tier partition what waits, and per binding the pairs held and the oldest wait', async () => {
    const stats = new ServiceStats();
    const { collect } = setup(stats);
    Object.assign(stats.batch, { deferred: 48, resumed: 47, batchesSubmitted: 12, requestsSubmitted: 50, polls: 30, batchesEnded: 11, answered: 45, failedAnswers: 3, unanswered: 2, restoredBatches: 1 });
    stats.batch.byPartition.set('scorestream.retry-batch[1]', () => ({ waitingRequests: 4, openBatches: 2, byScorer: [{ scorerId: 'faithfulness', scorerVersion: '2', pendingPairs: 7, oldestWaitMs: 90_500 }] }));
    let metrics = await collect();
    const where = { 'messaging.destination.name': 'scorestream.retry-batch', 'messaging.destination.partition.id': '1' };
    const binding = { ...where, 'scorestream.scorer.id': 'faithfulness', 'scorestream.scorer.version': '2' };
    expect(metricValue(metrics, 'scorestream.batch.pairs', { 'scorestream.batch.outcome': 'deferred' })).toBe(48);
    expect(metricValue(metrics, 'scorestream.batch.pairs', { 'scorestream.batch.outcome': 'resumed' })).toBe(47);
    expect(metricValue(metrics, 'scorestream.batch.requests', { 'scorestream.batch.outcome': 'submitted' })).toBe(50);
    expect(metricValue(metrics, 'scorestream.batch.requests', { 'scorestream.batch.outcome': 'failed' })).toBe(3);
    expect(metricValue(metrics, 'scorestream.batch.requests', { 'scorestream.batch.outcome': 'unanswered' })).toBe(2);
    expect(metricValue(metrics, 'scorestream.batch.batches', { 'scorestream.batch.outcome': 'restored' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.batch.polls')).toBe(30);
    expect(metricValue(metrics, 'scorestream.batch.pending', binding)).toBe(7);
    expect(metricValue(metrics, 'scorestream.batch.waiting_requests', where)).toBe(4);
    expect(metricValue(metrics, 'scorestream.batch.open', where)).toBe(2);
    expect(metricValue(metrics, 'scorestream.batch.oldest_wait', binding)).toBe(90.5);
    // A partition no longer claimed reads 0, not its last value.
    stats.batch.byPartition.delete('scorestream.retry-batch[1]');
    metrics = await collect();
    expect(metricValue(metrics, 'scorestream.batch.pending', binding)).toBe(0);
    expect(metricValue(metrics, 'scorestream.batch.oldest_wait', binding)).toBe(0);
    expect(metricValue(metrics, 'scorestream.batch.open', where)).toBe(0);
  });

  it('reports re-score requests on feedback by outcome', async () => {
    const stats = new ServiceStats();
    const { collect } = setup(stats);
    stats.countRescore('admitted');
    stats.countRescore('not_enabled');
    stats.countRescore('not_enabled');
    stats.countRescore('run_unavailable');
    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.rescores', { 'scorestream.rescore.outcome': 'admitted' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.rescores', { 'scorestream.rescore.outcome': 'not_enabled' })).toBe(2);
    expect(metricValue(metrics, 'scorestream.rescores', { 'scorestream.rescore.outcome': 'run_unavailable' })).toBe(1);
  });

  it('reports the retry topic: pairs deferred, attempted and exhausted, and those waiting per retry partition', async () => {
    const stats = new ServiceStats();
    const { collect } = setup(stats);
    stats.retriesDeferred = 5;
    stats.retriesAttempted = 3;
    stats.retriesExhausted = 1;
    stats.retryWaitingByPartition.set('agent-runs-retry[0]', 2);
    let metrics = await collect();
    expect(metricValue(metrics, 'scorestream.retries', { 'scorestream.retry.outcome': 'deferred' })).toBe(5);
    expect(metricValue(metrics, 'scorestream.retries', { 'scorestream.retry.outcome': 'attempted' })).toBe(3);
    expect(metricValue(metrics, 'scorestream.retries', { 'scorestream.retry.outcome': 'exhausted' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.retries.waiting', { 'messaging.destination.name': 'agent-runs-retry', 'messaging.destination.partition.id': '0' })).toBe(2);
    // A partition no longer ours reports 0 rather than its last count.
    stats.retryWaitingByPartition.clear();
    metrics = await collect();
    expect(metricValue(metrics, 'scorestream.retries.waiting', { 'messaging.destination.partition.id': '0' })).toBe(0);
  });

  it('reports the records that did not fit as built: truncated, refused by the broker, dropped', async () => {
    const stats = new ServiceStats();
    const { collect } = setup(stats);
    stats.recordsTruncated = 4;
    stats.recordsRefused = 2;
    stats.recordsDropped = 1;
    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.records.oversized', { 'scorestream.record.outcome': 'truncated' })).toBe(4);
    expect(metricValue(metrics, 'scorestream.records.oversized', { 'scorestream.record.outcome': 'refused' })).toBe(2);
    expect(metricValue(metrics, 'scorestream.records.oversized', { 'scorestream.record.outcome': 'dropped' })).toBe(1);
  });

  it('reports the pairs each judge budget skipped, by budget name', async () => {
    const stats = new ServiceStats();
    const { collect } = setup(stats);
    stats.countBudgetExhausted('judge-tokens');
    stats.countBudgetExhausted('judge-tokens');
    stats.countBudgetExhausted('runs-per-tenant');
    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.budget.exhausted', { 'scorestream.budget.name': 'judge-tokens' })).toBe(2);
    expect(metricValue(metrics, 'scorestream.budget.exhausted', { 'scorestream.budget.name': 'runs-per-tenant' })).toBe(1);
  });

  it('follows the counters between collections (cumulative counters, current gauges)', async () => {
    const stats = new ServiceStats();
    const { collect } = setup(stats);
    stats.consumed = 2;
    stats.inFlight = 2;
    await collect();
    stats.consumed = 5;
    stats.inFlight = 0;
    stats.lagByPartition.set('runs[0]', 1);
    let metrics = await collect();
    expect(metricValue(metrics, 'scorestream.runs.consumed')).toBe(5);
    expect(metricValue(metrics, 'scorestream.runs.in_flight')).toBe(0);
    // A rebalance clears the lag map: a partition no longer owned reports 0, not its stale lag.
    stats.lagByPartition.set('runs[0]', 40);
    await collect();
    stats.lagByPartition.clear();
    metrics = await collect();
    expect(findMetric(metrics, 'scorestream.consumer.lag')?.dataPoints).toEqual([expect.objectContaining({ value: 0, attributes: { 'messaging.destination.name': 'runs', 'messaging.destination.partition.id': '0' } })]);
  });

  it('reports a lag key that is not topic[partition] under its whole name', async () => {
    const stats = new ServiceStats();
    const { collect } = setup(stats);
    stats.lagByPartition.set('odd-key', 3);
    expect(metricValue(await collect(), 'scorestream.consumer.lag', { 'messaging.destination.name': 'odd-key' })).toBe(3);
  });

  it('records event-to-result latency in seconds by scorer and status, never negative', async () => {
    const { metrics, collect } = setup(new ServiceStats());
    metrics.observeRecord({ scorerId: 'answer-length', status: 'scored', score: 1 }, 1500);
    metrics.observeRecord({ scorerId: 'answer-length', status: 'scored', score: 1 }, 500);
    metrics.observeRecord({ scorerId: 'judge', status: 'failed' }, -20);
    metrics.observeRecord({ scorerId: 'judge', status: 'failed' }, undefined);
    const collected = await collect();
    expect(histogramTotals(collected, 'scorestream.event_to_result.duration', { 'scorestream.scorer.id': 'answer-length', 'scorestream.status': 'scored' })).toEqual({ count: 2, sum: 2 });
    expect(histogramTotals(collected, 'scorestream.event_to_result.duration', { 'scorestream.scorer.id': 'judge' })).toEqual({ count: 1, sum: 0 });
  });

  it("records each record's latency stages and its produce in seconds by stage and scorer; a re-score's none", async () => {
    const { metrics, collect } = setup(new ServiceStats());
    metrics.observeRecord({ scorerId: 'answer-length', status: 'scored', score: 1, latency: { kafkaMs: 200, runSlotMs: 50, scoringMs: 4 } }, 300, 46);
    metrics.observeRecord({ scorerId: 'answer-length', status: 'scored', score: 1, latency: { kafkaMs: 800, scoringMs: 6 } }, 900, 94);
    metrics.observeRecord({ scorerId: 'relevancy', status: 'failed', latency: { retryWaitMs: 30_000, scoringMs: 10, judgeMs: 2_000 } }, 33_000, 990);
    metrics.observeRecord({ scorerId: 'relevancy', status: 'scored', score: 0.2, rescore: { reason: 'thumbs-down' }, latency: { scoringMs: 10, judgeMs: 9_000 } }, undefined, 5);
    const collected = await collect();
    const stage = (name: string, scorerId: string) => histogramTotals(collected, 'scorestream.record.stage.duration', { 'scorestream.latency.stage': name, 'scorestream.scorer.id': scorerId });
    expect(stage('kafka', 'answer-length')).toEqual({ count: 2, sum: expect.closeTo(1, 9) });
    expect(stage('runSlot', 'answer-length')).toEqual({ count: 1, sum: expect.closeTo(0.05, 9) });
    expect(stage('scoring', 'answer-length')).toEqual({ count: 2, sum: expect.closeTo(0.01, 9) });
    expect(stage('produce', 'answer-length')).toEqual({ count: 2, sum: expect.closeTo(0.14, 9) });
    expect(stage('assembly', 'answer-length')).toEqual({ count: 0, sum: expect.closeTo(0, 9) });
    expect(stage('retryWait', 'relevancy')).toEqual({ count: 1, sum: expect.closeTo(30, 9) });
    // The re-score's judge time is not a stage of the first scores' way.
    expect(stage('judge', 'relevancy')).toEqual({ count: 1, sum: expect.closeTo(2, 9) });
  });

  it('records scores by scorer and agent, never a not_scorable or failed record', async () => {
    const { metrics, collect } = setup(new ServiceStats());
    metrics.observeRecord({ scorerId: 'answer-length', status: 'scored', score: 0.25, entity: { id: 'support-agent' } }, 10);
    metrics.observeRecord({ scorerId: 'answer-length', status: 'scored', score: 0.75, entity: { id: 'support-agent' } }, undefined);
    metrics.observeRecord({ scorerId: 'answer-length', status: 'not_scorable', entity: { id: 'support-agent' } }, 10);
    metrics.observeRecord({ scorerId: 'judge', status: 'failed', entity: { id: 'support-agent' } }, 10);
    const collected = await collect();
    expect(histogramTotals(collected, 'scorestream.score', { 'scorestream.scorer.id': 'answer-length', 'scorestream.agent.id': 'support-agent' })).toEqual({ count: 2, sum: 1 });
    expect(histogramTotals(collected, 'scorestream.score', { 'scorestream.scorer.id': 'judge' })).toEqual({ count: 0, sum: 0 });
  });

  describe('re-scores on feedback (a record with rescore)', () => {
    const judged = { judged: [{ scorerId: 'relevancy', version: '2' }] };
    const first = (fields: Partial<ObservedRecordFields>): ObservedRecordFields => ({ scorerId: 'relevancy', scorerVersion: '2', status: 'scored', score: 0.9, verdict: 'pass', entity: { id: 'support-agent' }, metadata: { tenantId: 'acme' }, ...fields });
    const rescore = (fields: Partial<ObservedRecordFields>, reason = 'thumbs-down'): ObservedRecordFields => first({ rescore: { reason }, ...fields });

    it('leave the score histogram, the verdict counter and the latency histogram as they were: a disputed run counts once', async () => {
      const { metrics, collect } = setup(new ServiceStats(), judged);
      metrics.observeRecord(first({}), 1_000);
      metrics.observeRecord(first({ score: 0.2, verdict: 'fail' }), 1_000);
      // Both runs disputed and re-scored; the second re-score deferred and retried, so it comes with its run event's old timestamp.
      metrics.observeRecord(rescore({ score: 0.1, verdict: 'fail' }), undefined);
      metrics.observeRecord(rescore({ score: 0.3, verdict: 'fail' }, 'correction'), 86_400_000);
      const collected = await collect();
      expect(histogramTotals(collected, 'scorestream.score')).toEqual({ count: 2, sum: 1.1 });
      expect(metricValue(collected, 'scorestream.verdicts', { 'scorestream.verdict': 'pass' })).toBe(1);
      expect(metricValue(collected, 'scorestream.verdicts', { 'scorestream.verdict': 'fail' })).toBe(1);
      expect(histogramTotals(collected, 'scorestream.event_to_result.duration')).toEqual({ count: 2, sum: 2 });
    });

    it('are counted in scorestream.rescore.records by scorer, version, agent, tenant, status, verdict and reason', async () => {
      const { metrics, collect } = setup(new ServiceStats(), judged);
      metrics.observeRecord(rescore({ score: 0.1, verdict: 'fail' }), undefined);
      metrics.observeRecord(rescore({ score: 0.2, verdict: 'fail' }), undefined);
      metrics.observeRecord(rescore({ score: 0.8, verdict: 'pass' }, 'correction'), undefined);
      metrics.observeRecord(rescore({ status: 'failed', score: undefined, verdict: undefined }), undefined);
      // A binding without pass: scored, no verdict label; a version-less binding: no version label.
      metrics.observeRecord(rescore({ scorerId: 'tone', scorerVersion: undefined, score: 0.4, verdict: undefined, metadata: undefined }), undefined);
      const collected = await collect();
      const points = findMetric(collected, 'scorestream.rescore.records')!.dataPoints.map((point) => [point.attributes, point.value]);
      expect(points).toEqual(
        expect.arrayContaining([
          [{ 'scorestream.scorer.id': 'relevancy', 'scorestream.scorer.version': '2', 'scorestream.agent.id': 'support-agent', 'scorestream.tenant.id': 'acme', 'scorestream.status': 'scored', 'scorestream.verdict': 'fail', 'scorestream.rescore.reason': 'thumbs-down' }, 2],
          [{ 'scorestream.scorer.id': 'relevancy', 'scorestream.scorer.version': '2', 'scorestream.agent.id': 'support-agent', 'scorestream.tenant.id': 'acme', 'scorestream.status': 'scored', 'scorestream.verdict': 'pass', 'scorestream.rescore.reason': 'correction' }, 1],
          [{ 'scorestream.scorer.id': 'relevancy', 'scorestream.scorer.version': '2', 'scorestream.agent.id': 'support-agent', 'scorestream.tenant.id': 'acme', 'scorestream.status': 'failed', 'scorestream.rescore.reason': 'thumbs-down' }, 1],
          [{ 'scorestream.scorer.id': 'tone', 'scorestream.agent.id': 'support-agent', 'scorestream.tenant.id': 'none', 'scorestream.status': 'scored', 'scorestream.rescore.reason': 'thumbs-down' }, 1],
        ]),
      );
      expect(points).toHaveLength(4);
      expect(histogramTotals(collected, 'scorestream.score').count).toBe(0);
      expect(metricValue(collected, 'scorestream.verdicts')).toBe(0);
    });

    it('share the bounded agent and tenant labels of the first scores: an agent named in one is named in all', async () => {
      const { metrics, collect } = setup(new ServiceStats(), judged);
      // 50 agents scored first, then a 51st: 'other' in the histogram, so 'other' in the re-score counter too.
      for (let index = 0; index < 50; index += 1) metrics.observeRecord(first({ entity: { id: `agent-${index}` } }), 1);
      metrics.observeRecord(first({ entity: { id: 'agent-late' } }), 1);
      metrics.observeRecord(rescore({ entity: { id: 'agent-late' } }), undefined);
      metrics.observeRecord(rescore({ entity: { id: 'agent-7' } }), undefined);
      const collected = await collect();
      const agents = findMetric(collected, 'scorestream.rescore.records')!.dataPoints.map((point) => point.attributes['scorestream.agent.id']).sort();
      expect(agents).toEqual(['agent-7', 'other']);
      expect(histogramTotals(collected, 'scorestream.score', { 'scorestream.agent.id': 'other' }).count).toBe(1);
    });
  });

  it('keeps thread scores out of the per-run score and verdict series (a conversation is not a run), timing nothing it has no event time for', async () => {
    const { metrics, collect } = setup(new ServiceStats(), { judged: [{ scorerId: 'resolution' }] });
    metrics.observeRecord({ scorerId: 'resolution', status: 'scored', score: 1, verdict: 'pass', thread: { key: 'acme:42' } }, undefined);
    const collected = await collect();
    expect(histogramTotals(collected, 'scorestream.score').count).toBe(0);
    expect(metricValue(collected, 'scorestream.verdicts')).toBe(0);
    expect(histogramTotals(collected, 'scorestream.event_to_result.duration').count).toBe(0);
  });

  it('stops observing after unregister()', async () => {
    const stats = new ServiceStats();
    const { metrics, collect } = setup(stats);
    stats.consumed = 4;
    expect(metricValue(await collect(), 'scorestream.runs.consumed')).toBe(4);
    metrics.unregister();
    stats.consumed = 9;
    expect(metricValue(await collect(), 'scorestream.runs.consumed')).not.toBe(9);
  });
});
