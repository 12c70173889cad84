// The one table of every topic a deployment touches (docs/architecture.md, the topology): input,
// internal and output, each with its name rule, key rule, partition rule, cleanup policy, the roles
// that read or write it (with the ACL operations and why) and the service task that consumes it.
// Everything that names topics is derived from it: the service's subscriptions and their routing
// to tasks (consumers/scoring-consumer.ts), topic creation (kafka/ensure-topics.ts callers), the
// pre-flight (kafka/service-access.ts), the ACL table (kafka/acl-roles.ts, printed in
// docs/security.md), the secured local broker (`kafka start --secure`) and the dashboard's readers.
// A new topic is one entry here plus the task that consumes it.
import type { z } from 'zod';
import type { topicsSchema } from '../config/config-schema.ts';
import { batchTierEntries } from './batch-topics.ts';
import { retryTiers } from './retry-tiers.ts';
import { threadTopicsFor } from './thread-topics.ts';
import type { Role, TaskKind, TopicEntry, TopicId } from './topic-entry.ts';

/** Every topic name a deployment sets (config `topics`, defaults applied: topicsSchema, src/engine/config/config-schema.ts). */
export type TopicNames = Readonly<z.output<typeof topicsSchema>>;

/** What decides which topics exist: the names, and the features that add topics. */
export type TopologySettings = {
  readonly topics: TopicNames;
  /** The retry tiers, while retries are on (docs/delivery.md). */
  readonly retries: { readonly enabled: boolean; readonly delaysMs: readonly number[] };
  /** A thread scorer is bound (docs/threads.md): the three thread topics. */
  readonly threads: boolean;
  /** A binding's judge mode is 'batch': the batch tier's two topics (batch-topics.ts). */
  readonly batch?: boolean;
  /** A binding re-scores on feedback (`rescoreOn`): the service reads the rescore topic. */
  readonly rescore: boolean;
  /** The feedback join asks for re-scores (default true; `scorestream agreement --no-rescore`). */
  readonly rescoreRequests?: boolean;
};

export type Topology = {
  readonly entries: readonly TopicEntry[];
  readonly names: TopicNames;
};

/** The feedback join's dead letters: `{feedback}-dlq`. */
export const feedbackDeadLetterTopic = (feedback: string): string => `${feedback}-dlq`;

const read = (why: string, creates = false) => ({ operations: ['Read'] as const, why, creates });
const write = (why: string, creates = true) => ({ operations: ['Write'] as const, why, creates });
const readWrite = (why: string, creates = true) => ({ operations: ['Read', 'Write'] as const, why, creates });

/** The run-keyed records of the service (scores, decisions): one per pair under compaction, placed with their run. */
const PAIR_KEY = 'scoreId, placed by runId (a thread record: its own id, placed by the thread key) — recordKeyOf';

export function topologyOf(settings: TopologySettings): Topology {
  const { topics } = settings;
  const entries: TopicEntry[] = [...scoringEntries(topics), ...retryTierEntries(settings), ...(settings.batch === true ? batchTierEntries(topics.retry) : []), ...rescoreEntries(settings), ...(settings.threads ? threadEntries(topics) : []), ...roleEntries(topics)];
  return { entries, names: topics };
}

/** The runs, and what the service writes about them: results, dead letters, decisions. */
function scoringEntries(topics: TopicNames): TopicEntry[] {
  return [
    {
      id: 'runs',
      name: topics.runs,
      kind: 'input',
      key: 'runId (the producer SDK; an OTLP message: the Collector’s key)',
      partitions: { rule: 'agents' },
      cleanup: 'delete',
      access: { service: read('consume the runs'), replay: read('consume the runs'), producer: write('publish agent runs', false) },
      task: 'runs',
    },
    {
      id: 'results',
      name: topics.results,
      kind: 'output',
      key: PAIR_KEY,
      partitions: { rule: 'default' },
      cleanup: 'delete',
      access: {
        service: write('publish score records'),
        replay: write('publish score records'),
        tail: read('read score records'),
        dashboard: read('read score records'),
        agreement: read('read score records', true),
        monitor: read('read score records'),
      },
      view: 'look-back',
    },
    { id: 'dead-letters', name: topics.deadLetter, kind: 'output', key: 'the key its message came with', partitions: { rule: 'default' }, cleanup: 'delete', access: { service: write('publish dead letters'), replay: write('publish dead letters') } },
    ...(topics.decisions === undefined
      ? []
      : [
          {
            id: 'decisions',
            name: topics.decisions,
            kind: 'output',
            key: PAIR_KEY,
            partitions: { rule: 'default' },
            cleanup: 'delete',
            access: { service: write('publish decision records'), replay: write('publish decision records'), dashboard: read('read decision records (skip reasons)') },
            view: 'look-back',
          } satisfies TopicEntry,
        ]),
  ];
}

/** One retry tier per distinct delay, while retries are on (retry-tiers.ts). */
function retryTierEntries(settings: TopologySettings): TopicEntry[] {
  return retryTiers({ topics: settings.topics, retries: settings.retries }).map(
(tier): TopicEntry => ({
        id: 'retry-tier',
        name: tier.topic,
        kind: 'internal',
        key: 'the pair’s scoreId, placed by runId — recordKeyFor',
        partitions: { rule: 'default' },
        cleanup: 'delete',
        access: { service: readWrite('defer transiently failed pairs to this retry tier, and read them back when due (retries)') },
        task: 'retry',
        delayMs: tier.delayMs,
      }),
    );
}

/** The rescore topic: the service reads it with a binding's `rescoreOn`, the feedback join writes it unless told not to. */
function rescoreEntries(settings: TopologySettings): TopicEntry[] {
  const { topics } = settings;
  const rescoreRequests = settings.rescoreRequests ?? true;
  if (!settings.rescore && !rescoreRequests) return [];
  return [
          {
            id: 'rescore',
            name: topics.rescore,
            kind: 'internal',
            key: 'the re-score’s id, placed by runId — recordKeyFor',
            partitions: { rule: 'like', topic: 'runs' },
            cleanup: 'delete',
            access: {
              ...(settings.rescore ? { service: read('re-scores on feedback: read the feedback join’s requests', true) } : {}),
              ...(rescoreRequests ? { agreement: write('ask the service for re-scores on feedback') } : {}),
            },
            ...(settings.rescore ? { task: 'rescore' } : {}),
          } satisfies TopicEntry,
  ];
}

/** With a thread scorer bound: the repartitioned turns, their state's changelog and the latest-score view (thread-topics.ts). */
function threadEntries(topics: TopicNames): TopicEntry[] {
  const threads = threadTopicsFor(topics.runs);
  return [
          {
            id: 'by-thread',
            name: threads.byThread,
            kind: 'internal',
            key: 'the thread key — threadKeyFor',
            partitions: { rule: 'like', topic: 'runs' },
            cleanup: 'delete',
            access: { service: readWrite('thread scorers: re-key each turn by its thread, and read the turns back per thread') },
            task: 'thread',
          } satisfies TopicEntry,
          {
            id: 'thread-state',
            name: threads.state,
            kind: 'internal',
            key: 't:<thread key> and its turns’ keys, partition n of by-thread’s state on partition n — threadRecordKey',
            partitions: { rule: 'like', topic: 'runs' },
            cleanup: 'compact',
            access: { service: readWrite('thread scorers: write the thread state changelog, and read it back to restore a partition') },
          } satisfies TopicEntry,
          {
            id: 'thread-scores',
            name: threads.latestScores,
            kind: 'output',
            key: '(thread, scorer, scorer version), placed by the thread key — threadScoreViewKeyFor',
            partitions: { rule: 'like', topic: 'results' },
            cleanup: 'compact',
            access: { service: write('thread scorers: the latest-score view, each thread’s latest score per scorer'), dashboard: read("read each thread's latest scores (the threads view)") },
            view: 'whole',
          } satisfies TopicEntry,
  ];
}

/** The other roles' own topics: a replay's ranges, the feedback join's, the monitor's notices. */
function roleEntries(topics: TopicNames): TopicEntry[] {
  return [
    {
      id: 'replays',
      name: topics.replays,
      kind: 'internal',
      key: 'the replay id',
      partitions: { rule: 'one' },
      cleanup: 'compact',
      access: { replay: readWrite('record the range a replay fixed when it started, and read it back when it continues') },
    },
    { id: 'feedback', name: topics.feedback, kind: 'input', key: 'what it is about: the run id, or the thread key — feedbackKeyFor', partitions: { rule: 'default' }, cleanup: 'delete', access: { agreement: read('read feedback', true) } },
    {
      id: 'feedback-dead-letters',
      name: feedbackDeadLetterTopic(topics.feedback),
      kind: 'output',
      key: 'the key its feedback came with',
      partitions: { rule: 'default' },
      cleanup: 'delete',
      access: { agreement: write('dead-letter feedback that is not a FeedbackRecord v1') },
    },
    {
      id: 'agreements',
      name: topics.agreements,
      kind: 'output',
      key: 'the pair’s agreementId, or the window’s (scorer, version, start) — agreementRecordKey',
      partitions: { rule: 'default' },
      cleanup: 'compact',
      access: { agreement: readWrite('publish agreement pairs and windows, and read them back at start (what was already measured)'), dashboard: read('read agreement records (the feedback view)') },
      view: 'look-back',
    },
    {
      id: 'alerts',
      name: topics.alerts,
      kind: 'output',
      key: 'the monitor’s name — alertKeyFor',
      partitions: { rule: 'one' },
      cleanup: 'delete',
      access: { monitor: readWrite("publish breach and recovered notices, and read them back at start (its monitors' state)"), dashboard: read('read the monitors’ notices (the alerts view)') },
      view: 'whole',
    },
  ];
}

/** The topics `role` reads or writes, in table order. */
export function topicsOf(topology: Topology, role: Role): TopicEntry[] {
  return topology.entries.filter((entry) => entry.access[role] !== undefined);
}

/** The topics `role` consumes as tasks (the service, a replay): its subscriptions, each with its task. */
export function subscriptionsOf(topology: Topology, role: Role): Array<{ topic: string; task: TaskKind }> {
  return topicsOf(topology, role).flatMap((entry) => (entry.task !== undefined && entry.access[role]!.operations.includes('Read') ? [{ topic: entry.name, task: entry.task }] : []));
}

/** The topics `role` creates when they are missing. */
export function createdBy(topology: Topology, role: Role): TopicEntry[] {
  return topicsOf(topology, role).filter((entry) => entry.access[role]!.creates);
}

/** The one entry of `id` (the first retry tier for 'retry-tier'), or undefined when the deployment has none. */
export function entryOf(topology: Topology, id: TopicId): TopicEntry | undefined {
  return topology.entries.find((entry) => entry.id === id);
}

/** The name of the topic `id`; throws when the deployment has none (a caller that asks knows it must exist). */
export function topicName(topology: Topology, id: TopicId): string {
  const entry = entryOf(topology, id);
  if (entry === undefined) throw new TypeError(`this deployment has no '${id}' topic (src/engine/topology/topology.ts)`);
  return entry.name;
}

/** The retry tier of a delay: its topic. */
export function retryTierOf(topology: Topology, delayMs: number): string {
  const tier = topology.entries.find((entry) => entry.id === 'retry-tier' && entry.delayMs === delayMs);
  if (tier === undefined) throw new TypeError(`no retry tier of ${delayMs} ms in this deployment (retries.delaysMs)`);
  return tier.name;
}

/** The part of a resolved config the topology reads. */
export type TopologyConfig = {
  readonly topics: TopicNames;
  readonly retries: { readonly enabled: boolean; readonly delaysMs: readonly number[] };
  readonly threadScorers: readonly unknown[];
  readonly scorers: ReadonlyArray<{ readonly rescoreOn?: readonly string[] | undefined; readonly judge?: { readonly mode: string } | undefined }>;
};

const ofConfig = new WeakMap<TopologyConfig, Topology>();

/** The topology of a resolved config (immutable once resolved, so made once): its names, retries, thread scorers and re-scores. */
export function topologyOfConfig(config: TopologyConfig): Topology {
  let topology = ofConfig.get(config);
  if (topology === undefined) {
    topology = topologyOf({
      topics: config.topics,
      retries: config.retries,
      threads: config.threadScorers.length > 0,
      rescore: config.scorers.some((binding) => binding.rescoreOn !== undefined),
      batch: config.scorers.some((binding) => binding.judge?.mode === 'batch'),
    });
    ofConfig.set(config, topology);
  }
  return topology;
}
