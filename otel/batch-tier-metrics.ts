// The batch tier's instruments (docs/spend-and-replay.md, the batch tier; docs/observability.md):
// what it deferred, submitted, polled, got answered and resumed, and per claimed batch-tier
// partition what waits — pairs held, requests not yet submitted, batches open, the oldest pair's
// wait — read from the service's counters when observed. A partition no longer claimed reports 0
// once, so a dashboard's last value is not a stale one.
import type { Meter } from '@opentelemetry/api';
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
  readonly byPartition: ReadonlyMap<string, () => { pendingPairs: number; waitingRequests: number; openBatches: number; oldestWaitMs: number }>;
};

export function registerBatchTierMetrics(meter: Meter, batch: BatchTierCounters): BatchTierMetrics {
  const pairs = meter.createObservableCounter('scorestream.batch.pairs', { description: 'Pairs of batch-mode bindings: deferred to the batch tier (each round), resumed with their answers', unit: '{pair}' });
  const requests = meter.createObservableCounter('scorestream.batch.requests', { description: 'Judge requests of the batch tier: submitted, answered, failed (inside their batch), unanswered (expired or cancelled: submitted again)', unit: '{request}' });
  const batches = meter.createObservableCounter('scorestream.batch.batches', { description: 'Judge batches: submitted, ended, restored (found open in the state topic when a partition was claimed)', unit: '{batch}' });
  const polls = meter.createObservableCounter('scorestream.batch.polls', { description: 'Polls of open judge batches', unit: '{poll}' });
  const pending = meter.createObservableGauge('scorestream.batch.pending', { description: 'Pairs held waiting on judge batches, per claimed batch-tier partition (bounded by judge.batch.maxPendingPairs)', unit: '{pair}' });
  const waiting = meter.createObservableGauge('scorestream.batch.waiting_requests', { description: 'Judge requests waiting to be submitted, per claimed batch-tier partition', unit: '{request}' });
  const open = meter.createObservableGauge('scorestream.batch.open', { description: 'Judge batches open at the provider, per claimed batch-tier partition', unit: '{batch}' });
  const oldest = meter.createObservableGauge('scorestream.batch.oldest_wait', { description: "The longest-waiting held pair's wait, per claimed batch-tier partition", unit: 's' });
  const gauges = [pending, waiting, open, oldest];
  const reported = new Set<string>();
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
    for (const [key, read] of batch.byPartition) {
      const state = read();
      const where = partitionAttributes(key);
      result.observe(pending, state.pendingPairs, where);
      result.observe(waiting, state.waitingRequests, where);
      result.observe(open, state.openBatches, where);
      result.observe(oldest, state.oldestWaitMs / 1000, where);
      reported.add(key);
    }
    for (const key of [...reported]) {
      if (batch.byPartition.has(key)) continue;
      for (const gauge of gauges) result.observe(gauge, 0, partitionAttributes(key));
      reported.delete(key);
    }
  };
  meter.addBatchObservableCallback(observe, observables);
  return { unregister: () => meter.removeBatchObservableCallback(observe, observables) };
}
