// The JSON predicate DSL for scorer `filter`s (SCORER_SPEC.md §5.4): the shapes, the operators,
// and the context a predicate is evaluated against. JSON-only on purpose, so filters can live in
// config files and be validated when a scorer is registered.

export type Literal = string | number | boolean | null;

/** A value: read from the context by path (`a.b` or `${a.b}`), or given literally. */
export type Ref = { path: string } | { literal: Literal };

export type ComparisonOperator = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte';

export type Predicate =
  | { op: ComparisonOperator; left: Ref; right: Ref }
  /** `set` must be non-empty. */
  | { op: 'in' | 'notIn'; value: Ref; set: Literal[] }
  | { op: 'exists' | 'notExists'; path: string }
  | { op: 'truthy' | 'falsy'; value: Ref }
  /**
   * Scorestream addition: true iff `value` resolves to an array holding `item` (===), e.g.
   * `{ op: 'contains', value: { path: 'metadata.tags' }, item: 'beta' }`. MISSING or a non-array
   * gives false. (`eq`/`in` compare with ===, so an array-valued path never equals a literal.)
   */
  | { op: 'contains'; value: Ref; item: Literal }
  /** `args` must be non-empty. */
  | { op: 'and' | 'or'; args: Predicate[] }
  | { op: 'not'; arg: Predicate };

export type PredicateOperator = Predicate['op'];

export const PREDICATE_OPERATORS: readonly PredicateOperator[] = [
  'eq',
  'ne',
  'lt',
  'lte',
  'gt',
  'gte',
  'in',
  'notIn',
  'exists',
  'notExists',
  'truthy',
  'falsy',
  'contains',
  'and',
  'or',
  'not',
];

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

export type PredicateOptions = {
  /** Allowed path roots (default PREDICATE_ROOTS). */
  roots?: readonly string[];
  /** Who the filter belongs to, for error messages, e.g. "scorer 'toxicity'". */
  name?: string;
};
