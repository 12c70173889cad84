// The shape of one row of the topology (topology.ts): a topic the deployment touches, what its
// records are keyed and partitioned by, how it is cleaned up, which roles read or write it (and
// why: the ACL table prints the reason), which of them create it when it is missing, and which of
// the service's tasks consumes it. Pure data: kafka/ creates topics and grants ACLs from it,
// consumers/ subscribes and routes by it, the dashboard reads by it.

/** Every process that touches Kafka, by what it does (docs/security.md grants each its own principal). */
export const ROLES = ['service', 'replay', 'producer', 'tail', 'dashboard', 'agreement', 'monitor'] as const;
export type Role = (typeof ROLES)[number];

export type TopicOperation = 'Read' | 'Write';

/** The service's tasks, one per kind of input it consumes (consumers/). */
export const TASK_KINDS = ['runs', 'retry', 'rescore', 'thread', 'batch'] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

/** What a topic is for; a retry tier is one topic per delay, all with this id. */
export type TopicId =
  | 'runs'
  | 'results'
  | 'dead-letters'
  | 'decisions'
  | 'retry-tier'
  | 'batch-tier'
  | 'batch-state'
  | 'rescore'
  | 'by-thread'
  | 'thread-state'
  | 'thread-scores'
  | 'replays'
  | 'feedback'
  | 'feedback-dead-letters'
  | 'agreements'
  | 'alerts';

/**
 * How many partitions a topic is created with:
 *   agents   the agents' choice, their scaling unit (the runs topic; created only for the demo and tests)
 *   default  KAFKA_DEFAULTS.topics.partitions
 *   one      a single partition (notices and replay ranges: few, and read whole)
 *   like     as many as another topic: partition n of one mirrors partition n of the other
 */
export type PartitionRule = { readonly rule: 'agents' } | { readonly rule: 'default' } | { readonly rule: 'one' } | { readonly rule: 'like'; readonly topic: TopicId };

export type RoleAccess = {
  readonly operations: readonly TopicOperation[];
  /** Why the role needs it: the comment line of its ACL in docs/security.md. */
  readonly why: string;
  /** The role creates the topic when it is missing (it then needs CREATE until it exists). */
  readonly creates: boolean;
};

export type TopicEntry = {
  readonly id: TopicId;
  readonly name: string;
  /** input: agents and people write it; internal: the service's own working state; output: what readers read. */
  readonly kind: 'input' | 'internal' | 'output';
  /** What a record's key is and what places it, naming the function that computes it (src/kit/contracts/record-key.ts). */
  readonly key: string;
  readonly partitions: PartitionRule;
  readonly cleanup: 'delete' | 'compact';
  readonly access: { readonly [R in Role]?: RoleAccess };
  /** The service task that consumes it, when the service reads it. */
  readonly task?: TaskKind;
  /** A retry tier's delay. */
  readonly delayMs?: number;
  /** Where a reader that rebuilds a view starts: at its look-back, or at the beginning (a compacted view, notices). */
  readonly view?: 'look-back' | 'whole';
};
