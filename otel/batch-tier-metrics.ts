// The batch tier's instruments (docs/spend-and-replay.md, the batch tier; docs/observability.md):
// what it deferred, submitted, polled, got answered and resumed, and per claimed batch-tier
// partition what waits — pairs held, requests not yet submitted, batches open, the oldest pair's
// wait — read from the service's counters when observed. A partition no longer claimed reports 0
// once, so a dashboard's last value is not a stale one.
import type { Attributes, Meter, Observable } from '@opentelemetry/api';
import { partitionAttributes } from './partition-attributes.ts';

export type BatchTierMetrics = { unregister(): void };

/** What the instruments read: ServiceStats' `batch` (consumers/service-stats.ts), structurally. */
export type BatchTierCounters = {
  readonly deferred: number;
  readonly resumed: number;
  readonly batchesSubmitted: number;
  readonly requestsSubmitted: number;
  readonly polls: number;
  readonly batchesEnded: number;
  readonly answered: number;
  readonly failedAnswers: number;
  readonly unanswered: number;
  readonly restoredBatches: number;
  readonly byPartition: ReadonlyMap<string, () => { waitingRequests: number; openBatches: number; byScorer: ReadonlyArray<{ scorerId: string; scorerVersion?: string; pendingPairs: number; oldestWaitMs: number }> }>;
};

export function registerBatchTierMetrics(meter: Meter, batch: BatchTierCounters): BatchTierMetrics {
  const pairs = meter.createObservableCounter('scorestream.batch.pairs', { description: 'Pairs of batch-mode bindings: deferred to the batch tier (each round), resumed with their answers', unit: '{pair}' });
  const requests = meter.createObservableCounter('scorestream.batch.requests', { description: 'Judge requests of the batch tier: submitted, answered, failed (inside their batch), unanswered (expired or cancelled: submitted again)', unit: '{request}' });
  const batches = meter.createObservableCounter('scorestream.batch.batches', { description: 'Judge batches: submitted, ended, restored (found open in the state topic when a partition was claimed)', unit: '{batch}' });
  const polls = meter.createObservableCounter('scorestream.batch.polls', { description: 'Polls of open judge batches', unit: '{poll}' });
  const pending = meter.createObservableGauge('scorestream.batch.pending', { description: 'Pairs held waiting on judge batches, per binding and claimed batch-tier partition (bounded by judge.batch.maxPendingPairs per instance)', unit: '{pair}' });
  const waiting = meter.createObservableGauge('scorestream.batch.waiting_requests', { description: 'Judge requests waiting to be submitted, per claimed batch-tier partition', unit: '{request}' });
  const open = meter.createObservableGauge('scorestream.batch.open', { description: 'Judge batches open at the provider, per claimed batch-tier partition', unit: '{batch}' });
  const oldest = meter.createObservableGauge('scorestream.batch.oldest_wait', { description: "The longest-waiting held pair's wait, per binding and claimed batch-tier partition", unit: 's' });
  const gauges = [pending, waiting, open, oldest];
  /** Every attribute set a gauge reported, so one that went away reads 0 once rather than its last value. */
  const reported = new Map<string, { gauges: Observable[]; attributes: Attributes }>();
  const observables = [pairs, requests, batches, polls, ...gauges];
  const observe: Parameters<Meter['addBatchObservableCallback']>[0] = (result) => {
    result.observe(pairs, batch.deferred, { 'scorestream.batch.outcome': 'deferred' });
    result.observe(pairs, batch.resumed, { 'scorestream.batch.outcome': 'resumed' });
    result.observe(requests, batch.requestsSubmitted, { 'scorestream.batch.outcome': 'submitted' });
    result.observe(requests, batch.answered, { 'scorestream.batch.outcome': 'answered' });
    result.observe(requests, batch.failedAnswers, { 'scorestream.batch.outcome': 'failed' });
    result.observe(requests, batch.unanswered, { 'scorestream.batch.outcome': 'unanswered' });
    result.observe(batches, batch.batchesSubmitted, { 'scorestream.batch.outcome': 'submitted' });
    result.observe(batches, batch.batchesEnded, { 'scorestream.batch.outcome': 'ended' });
    result.observe(batches, batch.restoredBatches, { 'scorestream.batch.outcome': 'restored' });
    result.observe(polls, batch.polls);
    const seen = new Set<string>();
    const report = (gauge: Observable, value: number, attributes: Attributes, key: string) => {
      result.observe(gauge, value, attributes);
      seen.add(key);
      reported.set(key, { gauges: [...(reported.get(key)?.gauges.filter((known) => known !== gauge) ?? []), gauge], attributes });
    };
    for (const [key, read] of batch.byPartition) {
      const state = read();
      const where = partitionAttributes(key);
      report(waiting, state.waitingRequests, where, key);
      report(open, state.openBatches, where, key);
      for (const binding of state.byScorer) {
        const attributes = { ...where, 'scorestream.scorer.id': binding.scorerId, ...(binding.scorerVersion === undefined ? {} : { 'scorestream.scorer.version': binding.scorerVersion }) };
        const bindingKey = `${key}\n${binding.scorerId}\n${binding.scorerVersion ?? ''}`;
        report(pending, binding.pendingPairs, attributes, bindingKey);
        report(oldest, binding.oldestWaitMs / 1000, attributes, bindingKey);
      }
    }
    for (const [key, gone] of reported) {
      if (seen.has(key)) continue;
      for (const gauge of gone.gauges) result.observe(gauge, 0, gone.attributes);
      reported.delete(key);
    }
  };
  meter.addBatchObservableCallback(observe, observables);
  return { unregister: () => meter.removeBatchObservableCallback(observe, observables) };
}
