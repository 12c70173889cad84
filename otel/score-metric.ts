// The `scorestream.score` histogram: the distribution of scores per scorer, agent and tenant, for
// Prometheus and Grafana (dashboard/grafana/scorestream.json). Only `scored` records are scores;
// `not_scorable` and `failed` are counted by `scorestream.records`, never recorded here as a value.
// Cardinality is bounded: scorers come from the config; agents and tenants are each the first
// `maxAgents` / `maxTenants` distinct ids this process saw, later ones share the label `other`;
// a run without a tenant is `none`.
import type { Histogram, Meter } from '@opentelemetry/api';

/** Buckets of 0.1 over [0, 1]: the score range of the bundled scorers (scores are not clamped; others land in +Inf). */
export const SCORE_BUCKET_BOUNDARIES = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];
export const DEFAULT_MAX_AGENTS = 50;
export const DEFAULT_MAX_TENANTS = 50;
/** The label of every agent or tenant id past the bound (and of a record without an agent). */
export const OTHER_LABEL = 'other';
/** The tenant label of a run whose metadata names no tenant. */
export const NO_TENANT = 'none';

/** The fields of a score record it reads (structural, so otel/ does not import the contracts' full type). */
export type ScoredRecordFields = { scorerId: string; status: string; score?: number; entity?: { id: string }; metadata?: { tenantId?: string } };

export type ScoreMetric = { record(record: ScoredRecordFields): void };

/** The first `max` distinct values keep their own label; the rest share `other`. */
function boundedLabel(max: number, missing: string): (value: string | undefined) => string {
  const seen = new Set<string>();
  return (value) => {
    if (value === undefined) return missing;
    if (seen.has(value)) return value;
    if (seen.size >= max) return OTHER_LABEL;
    seen.add(value);
    return value;
  };
}

export function registerScoreMetric(meter: Meter, options: { maxAgents?: number; maxTenants?: number } = {}): ScoreMetric {
  const histogram: Histogram = meter.createHistogram('scorestream.score', {
    description: 'Scores of scored records, by scorer, agent and tenant (not_scorable and failed records are counted by scorestream.records, never as scores)',
    unit: '1',
    advice: { explicitBucketBoundaries: SCORE_BUCKET_BOUNDARIES },
  });
  const agentLabel = boundedLabel(options.maxAgents ?? DEFAULT_MAX_AGENTS, OTHER_LABEL);
  const tenantLabel = boundedLabel(options.maxTenants ?? DEFAULT_MAX_TENANTS, NO_TENANT);
  return {
    record(record) {
      if (record.status !== 'scored' || typeof record.score !== 'number' || !Number.isFinite(record.score)) return;
      const tenant = record.metadata?.tenantId;
      histogram.record(record.score, {
        'scorestream.scorer.id': record.scorerId,
        'scorestream.agent.id': agentLabel(record.entity?.id),
        'scorestream.tenant.id': tenantLabel(typeof tenant === 'string' && tenant !== '' ? tenant : undefined),
      });
    },
  };
}
