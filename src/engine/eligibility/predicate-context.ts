// What a filter predicate is evaluated against: the context of a run, and the roots a predicate's
// paths may start with. The predicate language itself is predicate-schema.ts.

/**
 * The roots a path may start with: Mastra's seven, plus `metadata` (tenantId, environment, tags:
 * what live-traffic filters select on), `runId` and `traceId`. Input and output are deliberately
 * not addressable: a filter decides from context before anything is scored.
 */
export const PREDICATE_ROOTS = [
  'requestContext',
  'entity',
  'entityType',
  'source',
  'threadId',
  'resourceId',
  'projectId',
  'metadata',
  'runId',
  'traceId',
] as const;

export type PredicateRoot = (typeof PREDICATE_ROOTS)[number];

/**
 * What a predicate sees. `requestContext` is the flattened snapshot (snapshotRequestContext), so
 * `requestContext.user.tier` finds the flat key 'user.tier' first, then nested objects.
 */
export type PredicateContext = {
  requestContext?: Record<string, unknown>;
  /** e.g. `{ id, name }` of the agent or workflow. */
  entity?: Record<string, unknown>;
  /** 'AGENT' | 'WORKFLOW' in Mastra's live path. */
  entityType?: string;
  /** 'LIVE' in Mastra's live path. */
  source?: string;
  threadId?: string;
  resourceId?: string;
  projectId?: string;
  /** Run metadata: tenantId, environment, tags, free-form keys. */
  metadata?: Record<string, unknown>;
  runId?: string;
  traceId?: string;
};
