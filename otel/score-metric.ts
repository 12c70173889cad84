// The `scorestream.score` histogram: the distribution of scores per scorer and agent, for
// Prometheus and Grafana (dashboard/grafana/scorestream.json). Only `scored` records are scores;
// `not_scorable` and `failed` are counted by `scorestream.records`, never recorded here as a value.
// Cardinality is bounded: scorers come from the config, and agents are the first `maxAgents`
// distinct ids this process saw; later ones share the agent `other`.
import type { Histogram, Meter } from '@opentelemetry/api';

/** Buckets of 0.1 over [0, 1]: the score range of the bundled scorers (scores are not clamped; others land in +Inf). */
export const SCORE_BUCKET_BOUNDARIES = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
export const DEFAULT_MAX_AGENTS = 50;
export const OTHER_AGENT = 'other';

/** The fields of a score record it reads (structural, so otel/ does not import the contracts' full type). */
export type ScoredRecordFields = { scorerId: string; status: string; score?: number; entity?: { id: string } };

export type ScoreMetric = { record(record: ScoredRecordFields): void };

export function registerScoreMetric(meter: Meter, options: { maxAgents?: number } = {}): ScoreMetric {
  const maxAgents = options.maxAgents ?? DEFAULT_MAX_AGENTS;
  const histogram: Histogram = meter.createHistogram('scorestream.score', {
    description: 'Scores of scored records, by scorer and agent (not_scorable and failed records are counted by scorestream.records, never as scores)',
    unit: '1',
    advice: { explicitBucketBoundaries: SCORE_BUCKET_BOUNDARIES },
  });
  const agents = new Set<string>();
  const agentLabel = (id: string | undefined): string => {
    if (id === undefined) return OTHER_AGENT;
    if (agents.has(id)) return id;
    if (agents.size >= maxAgents) return OTHER_AGENT;
    agents.add(id);
    return id;
  };
  return {
    record(record) {
      if (record.status !== 'scored' || typeof record.score !== 'number' || !Number.isFinite(record.score)) return;
      histogram.record(record.score, { 'scorestream.scorer.id': record.scorerId, 'scorestream.agent.id': agentLabel(record.entity?.id) });
    },
  };
}
