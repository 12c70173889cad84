// The service's OTel metrics. Most are observed from the live counters the service keeps anyway
// (ServiceStats in consumers/, read here through the structural `ServiceCounters` type so the
// import direction stays otel ← consumers): nothing extra happens per message, the numbers are
// read when a reader collects. The per-record instruments (event-to-result latency, scores,
// verdicts, re-scores) are fed once per acknowledged record, through `observeRecord`, which is
// where a re-score on feedback is told apart from a first score (docs/feedback.md, re-scoring).
// Instruments come from a Meter; with `metrics.getMeter()` and no SDK they are no-ops.
import type { Attributes, BatchObservableCallback, Histogram, Meter, Observable } from '@opentelemetry/api';
import { registerBatchTierMetrics } from './batch-tier-metrics.ts';
import type { BatchTierCounters } from './batch-tier-metrics.ts';
import { partitionAttributes } from './partition-attributes.ts';
import { latencyStages } from '../src/kit/contracts/record-latency.ts';
import type { LatencyStage, RecordLatency } from '../src/kit/contracts/record-latency.ts';
import { recordLabels } from './record-labels.ts';
import type { RecordLabels } from './record-labels.ts';
import { registerRescoreMetric } from './rescore-metric.ts';
import type { RescoreRecordFields } from './rescore-metric.ts';
import type { ScoredRecordFields } from './score-metric.ts';
import { registerScoreMetric } from './score-metric.ts';
import { registerVerdictMetric } from './verdict-metric.ts';
import type { JudgedBinding, VerdictRecordFields } from './verdict-metric.ts';

/** What the instruments read; ServiceStats has this shape. */
export type ServiceCounters = {
  readonly consumed: number;
  /** Run events whose propagated trace was not sampled. */
  readonly unsampledTraces: number;
  readonly deadLettersByCode: ReadonlyMap<string, number>;
  readonly skipsByReason: ReadonlyMap<string, number>;
  readonly budgetExhaustedByBudget: ReadonlyMap<string, number>;
  /** Bindings with `escalate`: their pairs by scorer and the tier that decided (escalated, sampled, not_escalated). */
  readonly escalations: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly byScorer: ReadonlyMap<string, { scored: number; notScorable: number; failed: number }>;
  readonly inFlight: number;
  readonly pausedPartitions: ReadonlySet<string>;
  /** Keyed `topic[partition]`. */
  readonly lagByPartition: ReadonlyMap<string, number>;
  /** Retry tiers: pairs deferred to them, attempts made from them, pairs failed for good; pairs waiting per `topic[partition]`. */
  readonly retriesDeferred: number;
  readonly retriesAttempted: number;
  readonly retriesExhausted: number;
  readonly retryWaitingByPartition: ReadonlyMap<string, number>;
  /** Re-score requests on feedback by what became of them (docs/feedback.md, re-scoring). */
  readonly rescores: ReadonlyMap<string, number>;
  /** Records over maxRecordBytes cut to fit; records the broker refused (replaced or dropped); records that could not be written at all. */
  readonly recordsTruncated: number;
  readonly recordsRefused: number;
  readonly recordsDropped: number;
  /** Thread scoring (docs/threads.md): counters, and each claimed by-thread partition's state, read when observed. */
  readonly threads: {
    readonly rekeyed: number;
    readonly restores: number;
    readonly restoredRecords: number;
    readonly restoreMs: number;
    readonly lastRestoreMs: number;
    readonly closesByReason: ReadonlyMap<string, number>;
    readonly byPartition: ReadonlyMap<string, () => { threads: number; openThreads: number; heldTurns: number; bytes: number }>;
  };
  /** The batch tier (docs/spend-and-replay.md): counters, and each claimed batch-tier partition's waits (otel/batch-tier-metrics.ts). */
  readonly batch: BatchTierCounters;
};

/** The fields of an acknowledged score record the per-record instruments read. */
export type ObservedRecordFields = ScoredRecordFields &
  VerdictRecordFields & {
    rescore?: RescoreRecordFields['rescore'] | undefined;
    /** Present on a thread scorer's record (docs/threads.md). */
    thread?: object | undefined;
    /** Where the record's time went before it was handed to its output (src/kit/contracts/record-latency.ts). */
    latency?: RecordLatency | undefined;
  };

export type ServiceMetrics = {
  /**
   * One score record acknowledged, with the time from its run event's timestamp (none when there
   * is no run event to time from: a thread close). A re-score goes to `scorestream.rescore.records`
   * only; a first score to the latency histogram, and — a run's — to the score histogram
   * (score-metric.ts) and the verdict counter (verdict-metric.ts); a first score's latency stages
   * and its produce (`produceMs`: handed to its output → accepted) to the stage histogram.
   */
  observeRecord(record: ObservedRecordFields, latencyMs: number | undefined, produceMs?: number): void;
  /** Stops observing (the service stopped); the histogram stays usable but unobserved gauges vanish. */
  unregister(): void;
};

export type ServiceMetricsOptions = {
  /** The bindings that declare `pass`: their records are counted by verdict. */
  judged?: readonly JudgedBinding[];
  /** The labeller of agents and tenants, shared with the judge spend metrics (judge-spend-metrics.ts); default a labeller of their own. */
  labels?: RecordLabels;
};

export function registerServiceMetrics(meter: Meter, counters: ServiceCounters, options: ServiceMetricsOptions = {}): ServiceMetrics {
  const consumed = meter.createObservableCounter('scorestream.runs.consumed', { description: 'Run messages consumed (including skipped and dead-lettered ones)', unit: '{run}' });
  const unsampled = meter.createObservableCounter('scorestream.runs.trace_unsampled', {
    description: "Run events whose propagated trace context was not sampled (scored unless traceSampling is 'follow', then skipped as trace_not_sampled)",
    unit: '{run}',
  });
  const records = meter.createObservableCounter('scorestream.records', { description: 'Score records published, by scorer and status', unit: '{record}' });
  const skips = meter.createObservableCounter('scorestream.skips', { description: 'Runs or scorer bindings skipped, by reason', unit: '{skip}' });
  const budgetSkips = meter.createObservableCounter('scorestream.budget.exhausted', { description: '(run, scorer) pairs skipped because a judge budget was exhausted, by budget', unit: '{skip}' });
  const escalations = meter.createObservableCounter('scorestream.escalations', { description: "Pairs of a binding with escalate, by the tier that decided: escalated (the run's earlier scores called for it), sampled (its sample did), not_escalated (skipped)", unit: '{pair}' });
  const deadLetters = meter.createObservableCounter('scorestream.dead_letters', { description: 'Messages sent to the dead-letter topic, by reason', unit: '{message}' });
  const inFlight = meter.createObservableUpDownCounter('scorestream.runs.in_flight', { description: 'Runs being scored right now', unit: '{run}' });
  const paused = meter.createObservableUpDownCounter('scorestream.partitions.paused', { description: 'Partitions paused because every run slot is busy', unit: '{partition}' });
  const lag = meter.createObservableGauge('scorestream.consumer.lag', { description: 'Messages behind the high watermark, per partition (from the latest fetch)', unit: '{message}' });
  const retries = meter.createObservableCounter('scorestream.retries', {
    description: 'Pairs that failed transiently, by what happened: deferred to a retry tier, attempted again from one, exhausted (failed for good after retries.maxAgeMs)',
    unit: '{pair}',
  });
  const retryWaiting = meter.createObservableGauge('scorestream.retries.waiting', { description: 'Pairs waiting on the retry tiers, per partition (from the latest fetch or due check)', unit: '{pair}' });
  const rescores = meter.createObservableCounter('scorestream.rescores', {
    description: 'Re-score requests of the feedback join, by what became of them: admitted, not_enabled (no rescoreOn for the reason), binding_not_found, run_unavailable',
    unit: '{request}',
  });
  const oversized = meter.createObservableCounter('scorestream.records.oversized', {
    description: 'Records that did not fit as built: truncated (shed to fit maxRecordBytes), refused (by the broker, written smaller), dropped (not writable at all)',
    unit: '{record}',
  });
  const threadsOpen = meter.createObservableGauge('scorestream.threads.open', { description: 'Threads with turns waiting to be scored, per claimed by-thread partition', unit: '{thread}' });
  const threadsHeld = meter.createObservableGauge('scorestream.threads.held_turns', { description: 'Turns held by the thread state, per claimed by-thread partition', unit: '{turn}' });
  const threadsBytes = meter.createObservableGauge('scorestream.threads.state_bytes', { description: 'Bytes of turn text held by the thread state, per claimed by-thread partition (bounded by threads.maxStateBytes)', unit: 'By' });
  const threadCloses = meter.createObservableCounter('scorestream.threads.closes', { description: 'Thread closes per binding, by why (idle, ended, max_turns, max_age, max_bytes, overflow): each is a thread score or a decision', unit: '{close}' });
  const threadRestores = meter.createObservableCounter('scorestream.threads.restores', { description: 'By-thread partitions whose state was restored from the changelog, and the changelog records read', unit: '{restore}' });
  const threadRestoreTime = meter.createObservableCounter('scorestream.threads.restore_time', { description: 'Time from claiming a by-thread partition to its state restored from the changelog, summed over restores (divide by scorestream.threads.restores{unit=partition} for the mean)', unit: 's' });
  const lastRestore = meter.createObservableGauge('scorestream.threads.last_restore.duration', { description: "The latest by-thread partition restore's time from claim to restored", unit: 's' });
  const threadsRekeyed = meter.createObservableCounter('scorestream.threads.rekeyed', { description: 'Turns and end events re-keyed to the by-thread topic', unit: '{message}' });
  const latency: Histogram = meter.createHistogram('scorestream.event_to_result.duration', {
    description: "Time from the run event's timestamp until its score record was acknowledged",
    unit: 's',
    advice: { explicitBucketBoundaries: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300] },
  });
  const stages: Histogram = meter.createHistogram('scorestream.record.stage.duration', {
    description: "Where a score record's time went, per stage (kafka, runSlot, assembly, threadWait, retryWait, dispatch, scoring, judge, produce): one record's stages sum to its event-to-result time, give or take rounding",
    unit: 's',
    advice: { explicitBucketBoundaries: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600] },
  });
  // Up to eight observations a record: their attribute sets made once per (stage, scorer).
  const stageAttributes = new Map<string, Map<LatencyStage, Attributes>>();
  const attributesOf = (stage: LatencyStage, scorerId: string) => {
    let byStage = stageAttributes.get(scorerId);
    if (byStage === undefined) stageAttributes.set(scorerId, (byStage = new Map()));
    let attributes = byStage.get(stage);
    if (attributes === undefined) byStage.set(stage, (attributes = { 'scorestream.latency.stage': stage, 'scorestream.scorer.id': scorerId }));
    return attributes;
  };
  const recordStages = (record: ObservedRecordFields & { scorerId: string }, produceMs: number | undefined) => {
    if (record.latency !== undefined) for (const [stage, ms] of latencyStages(record.latency)) stages.record(ms / 1000, attributesOf(stage, record.scorerId));
    if (produceMs !== undefined) stages.record(Math.max(0, produceMs) / 1000, attributesOf('produce', record.scorerId));
  };

  // The SDK keeps exporting the last value of an attribute set that is no longer observed, so a
  // partition this instance lost in a rebalance is reported as 0 rather than with a stale lag
  // (summed over instances, the lag stays right).
  const lagReported = new Set<string>();
  const observe: BatchObservableCallback = (result) => {
    result.observe(consumed, counters.consumed);
    result.observe(unsampled, counters.unsampledTraces);
    for (const [scorerId, tally] of counters.byScorer) {
      result.observe(records, tally.scored, { 'scorestream.scorer.id': scorerId, 'scorestream.status': 'scored' });
      result.observe(records, tally.notScorable, { 'scorestream.scorer.id': scorerId, 'scorestream.status': 'not_scorable' });
      result.observe(records, tally.failed, { 'scorestream.scorer.id': scorerId, 'scorestream.status': 'failed' });
    }
    for (const [reason, count] of counters.skipsByReason) result.observe(skips, count, { 'scorestream.skip.reason': reason });
    for (const [budget, count] of counters.budgetExhaustedByBudget) result.observe(budgetSkips, count, { 'scorestream.budget.name': budget });
    for (const [scorerId, byTier] of counters.escalations) {
      for (const [tier, count] of byTier) result.observe(escalations, count, { 'scorestream.scorer.id': scorerId, 'scorestream.escalation.tier': tier });
    }
    for (const [reason, count] of counters.deadLettersByCode) result.observe(deadLetters, count, { 'scorestream.dead_letter.reason': reason });
    result.observe(inFlight, counters.inFlight);
    result.observe(paused, counters.pausedPartitions.size);
    for (const [key, messages] of counters.lagByPartition) {
      result.observe(lag, messages, partitionAttributes(key));
      lagReported.add(key);
    }
    for (const key of lagReported) if (!counters.lagByPartition.has(key)) result.observe(lag, 0, partitionAttributes(key));
    result.observe(retries, counters.retriesDeferred, { 'scorestream.retry.outcome': 'deferred' });
    result.observe(retries, counters.retriesAttempted, { 'scorestream.retry.outcome': 'attempted' });
    result.observe(retries, counters.retriesExhausted, { 'scorestream.retry.outcome': 'exhausted' });
    for (const [key, waiting] of counters.retryWaitingByPartition) {
      result.observe(retryWaiting, waiting, partitionAttributes(key));
      lagReported.add(`retry:${key}`);
    }
    for (const key of lagReported) {
      if (key.startsWith('retry:') && !counters.retryWaitingByPartition.has(key.slice(6))) result.observe(retryWaiting, 0, partitionAttributes(key.slice(6)));
    }
    for (const [outcome, count] of counters.rescores) result.observe(rescores, count, { 'scorestream.rescore.outcome': outcome });
    result.observe(oversized, counters.recordsTruncated, { 'scorestream.record.outcome': 'truncated' });
    result.observe(oversized, counters.recordsRefused, { 'scorestream.record.outcome': 'refused' });
    result.observe(oversized, counters.recordsDropped, { 'scorestream.record.outcome': 'dropped' });
    const { threads } = counters;
    for (const [key, read] of threads.byPartition) {
      const state = read();
      const where = partitionAttributes(key);
      result.observe(threadsOpen, state.openThreads, where);
      result.observe(threadsHeld, state.heldTurns, where);
      result.observe(threadsBytes, state.bytes, where);
      lagReported.add(`thread:${key}`);
    }
    for (const key of lagReported) {
      if (!key.startsWith('thread:') || threads.byPartition.has(key.slice(7))) continue;
      for (const gauge of [threadsOpen, threadsHeld, threadsBytes]) result.observe(gauge, 0, partitionAttributes(key.slice(7)));
    }
    for (const [reason, count] of threads.closesByReason) result.observe(threadCloses, count, { 'scorestream.thread.closed_by': reason });
    result.observe(threadRestores, threads.restores, { 'scorestream.restore.unit': 'partition' });
    result.observe(threadRestores, threads.restoredRecords, { 'scorestream.restore.unit': 'record' });
    result.observe(threadRestoreTime, threads.restoreMs / 1000);
    if (threads.restores > 0) result.observe(lastRestore, threads.lastRestoreMs / 1000);
    result.observe(threadsRekeyed, threads.rekeyed);
  };
  const labels = options.labels ?? recordLabels();
  const scores = registerScoreMetric(meter, labels);
  const verdicts = registerVerdictMetric(meter, options.judged ?? [], labels);
  const rescored = registerRescoreMetric(meter, labels);
  const observables: Observable[] = [consumed, unsampled, records, skips, budgetSkips, escalations, deadLetters, inFlight, paused, lag, retries, retryWaiting, rescores, oversized, threadsOpen, threadsHeld, threadsBytes, threadCloses, threadRestores, threadRestoreTime, lastRestore, threadsRekeyed];
  meter.addBatchObservableCallback(observe, observables);
  const batchTier = registerBatchTierMetrics(meter, counters.batch);

  return {
    observeRecord(record, latencyMs, produceMs) {
      // A re-score is not one more score: only disputed runs get one, so counted with the first
      // scores it would count its run twice and pull the pass rates the rules and SLOs read
      // towards the disputed runs. Nor is its run event's age a latency of the pipeline.
      if (record.rescore !== undefined) {
        rescored.record({ ...record, rescore: record.rescore });
        return;
      }
      if (latencyMs !== undefined) latency.record(Math.max(0, latencyMs) / 1000, { 'scorestream.scorer.id': record.scorerId, 'scorestream.status': record.status });
      recordStages(record, produceMs);
      // A thread score is about a conversation, not a run, and a scorer may be bound at both
      // levels under one id and version: the per-run score and verdict series stay runs' only.
      if (record.thread !== undefined) return;
      scores.record(record);
      verdicts.record(record);
    },
    unregister() {
      meter.removeBatchObservableCallback(observe, observables);
      batchTier.unregister();
      verdicts.unregister();
    },
  };
}
