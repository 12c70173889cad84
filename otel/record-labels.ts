// The scorer, agent and tenant labels of a record's metrics. Agents and tenants are bounded
// (bounded-label.ts): the first `maxAgents` / `maxTenants` distinct ids keep their name, later
// ones share `other`; a record without an agent is `other`, a run without a tenant `none`.
// One labeller is shared by every per-record instrument of the service (the score histogram, the
// verdict counter, the re-score counter; service-metrics.ts), so an agent has the same label in
// each of them and a query that puts them side by side never finds it named in one and `other` in
// another.
import { boundedLabel, OTHER_LABEL } from './bounded-label.ts';

export const DEFAULT_MAX_AGENTS = 50;
export const DEFAULT_MAX_TENANTS = 50;
/** The tenant label of a run whose metadata names no tenant. */
export const NO_TENANT = 'none';

/** The fields of a record the labels come from (structural, so otel/ does not import the contracts' full type). */
export type LabelledRecordFields = { entity?: { id: string } | undefined; metadata?: { tenantId?: string | undefined } | undefined };

export type RecordLabels = ((record: LabelledRecordFields) => { 'scorestream.agent.id': string; 'scorestream.tenant.id': string }) & {
  /** A tenant's label alone (the judge spend metrics, judge-spend-metrics.ts): no agent label worked out for it. */
  tenant(tenantId: string | undefined): string;
};

export function recordLabels(options: { maxAgents?: number; maxTenants?: number } = {}): RecordLabels {
  const agentLabel = boundedLabel(options.maxAgents ?? DEFAULT_MAX_AGENTS, OTHER_LABEL);
  const tenantLabel = boundedLabel(options.maxTenants ?? DEFAULT_MAX_TENANTS, NO_TENANT);
  const tenant = (tenantId: string | undefined) => tenantLabel(typeof tenantId === 'string' && tenantId !== '' ? tenantId : undefined);
  const labels = (record: LabelledRecordFields) => ({ 'scorestream.agent.id': agentLabel(record.entity?.id), 'scorestream.tenant.id': tenant(record.metadata?.tenantId) });
  return Object.assign(labels, { tenant });
}

/** A binding's labels: its scorer id, and its version when it has one (no empty version label). */
export function scorerLabels(scorerId: string, version: string | undefined): Record<string, string> {
  return version === undefined ? { 'scorestream.scorer.id': scorerId } : { 'scorestream.scorer.id': scorerId, 'scorestream.scorer.version': version };
}
