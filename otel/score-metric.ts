// The `scorestream.score` histogram: the distribution of scores per scorer, agent and tenant, for
// Prometheus and Grafana (dashboard/grafana/scorestream.json). Only `scored` records are scores;
// `not_scorable` and `failed` are counted by `scorestream.records`, never recorded here as a value.
// Which records reach it at all (first scores of runs, not re-scores) is service-metrics.ts' call.
// Cardinality is bounded: scorers come from the config; agents and tenants are labelled by the
// shared, bounded labeller (record-labels.ts).
import type { Histogram, Meter } from '@opentelemetry/api';
import { recordLabels } from './record-labels.ts';
import type { LabelledRecordFields, RecordLabels } from './record-labels.ts';

/** Buckets of 0.1 over [0, 1]: the score range of the bundled scorers (scores are not clamped; others land in +Inf). */
export const SCORE_BUCKET_BOUNDARIES = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/** The fields of a score record it reads (structural, so otel/ does not import the contracts' full type). */
export type ScoredRecordFields = LabelledRecordFields & { scorerId: string; status: string; score?: number };

export type ScoreMetric = { record(record: ScoredRecordFields): void };

export function registerScoreMetric(meter: Meter, labels: RecordLabels = recordLabels()): ScoreMetric {
  const histogram: Histogram = meter.createHistogram('scorestream.score', {
    description: 'Scores of scored records, by scorer, agent and tenant (not_scorable and failed records are counted by scorestream.records, never as scores; re-scores on feedback by scorestream.rescore.records)',
    unit: '1',
    advice: { explicitBucketBoundaries: SCORE_BUCKET_BOUNDARIES },
  });
  return {
    record(record) {
      if (record.status !== 'scored' || typeof record.score !== 'number' || !Number.isFinite(record.score)) return;
      histogram.record(record.score, { 'scorestream.scorer.id': record.scorerId, ...labels(record) });
    },
  };
}
