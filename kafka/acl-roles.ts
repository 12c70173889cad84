// The least-privilege ACLs of each Scorestream role on a cluster whose authorizer denies by
// default, as data: docs/security.md prints them as kafka-acls.sh commands (renderKafkaAcls), the
// secured integration tests grant exactly these and nothing more (toKafkajsAcls), and the
// pre-flight's messages point at them. DESCRIBE is not listed where READ or WRITE implies it.
// Topic creation is not part of any role: create the topics ahead (or grant CREATE while they do
// not exist, see `creation`).
import type { ThreadTopics } from '../src/config/thread-topics.ts';
import { transactionalIdPrefix } from './transactional-kafka.ts';

export type AclOperation = 'Read' | 'Write' | 'Describe' | 'Create' | 'Delete';
export type AclGrant = {
  resource: 'topic' | 'group' | 'transactional-id' | 'cluster';
  name: string;
  pattern: 'literal' | 'prefixed';
  operations: AclOperation[];
  /** Why the role needs it (a comment line in the docs). */
  why: string;
};

/** The dashboard's consumer groups (`scorestream-dashboard-<host>-<hex>`, dashboard/kafka-reader.ts) share this prefix. */
export const DASHBOARD_GROUP_PREFIX = 'scorestream-dashboard';

/** The feedback join's consumer groups (`scorestream-agreement-<hex>`, `scorestream-agreement-rebuild-<hex>`; service/topic-reader.ts) share this prefix. */
export const AGREEMENT_GROUP_PREFIX = 'scorestream-agreement';

/** The monitor's consumer groups (`scorestream-monitor-<host>-<hex>`, service/monitor/topic-reader.ts) share this prefix. */
export const MONITOR_GROUP_PREFIX = 'scorestream-monitor';
/** The throwaway consumer groups that read back a by-thread partition's state (kafka/read-changelog-partition.ts). */
export function threadRestoreGroupPrefix(groupId: string): string {
  return `${groupId}.thread-restore-`;
}

/** The throwaway consumer groups that read a run event back for a re-score on feedback (kafka/fetch-run-message.ts). */
export function runFetchGroupPrefix(groupId: string): string {
  return `${groupId}.run-fetch-`;
}

/** tail's throwaway consumer groups (`scorestream-tail-<uuid>`) share this prefix. */
export const TAIL_GROUP_PREFIX = 'scorestream-tail-';

export type ServiceAclOptions = {
  /**
   * `retryTiers`: the retry tier topics, when retries are on (the service's default; a replay has none; src/config/retry-tiers.ts).
   * `rescore`: the rescore topic, when a binding re-scores on feedback (`rescoreOn`; src/config/rescore-topic.ts).
   */
  topics: {
    runs: string;
    results: string;
    deadLetter: string;
    decisions?: string | undefined;
    retryTiers?: readonly string[] | undefined;
    rescore?: string | undefined;
    replays?: string | undefined;
    threads?: ThreadTopics | undefined;
  };
  groupId: string;
  delivery: 'at-least-once' | 'exactly-once';
};

const topic = (name: string, operations: AclOperation[], why: string): AclGrant => ({ resource: 'topic', name, pattern: 'literal', operations, why });

/** The scoring service: reads runs, writes results, dead letters and decisions; exactly-once adds its transactional ids. */
export function serviceAcls(options: ServiceAclOptions): AclGrant[] {
  const { topics } = options;
  const grants = [
    topic(topics.runs, ['Read'], 'consume the runs'),
    topic(topics.results, ['Write'], 'publish score records'),
    topic(topics.deadLetter, ['Write'], 'publish dead letters'),
    ...(topics.decisions === undefined ? [] : [topic(topics.decisions, ['Write'], 'publish decision records')]),
    ...(topics.retryTiers ?? []).map((tier) => topic(tier, ['Read', 'Write'], 'defer transiently failed pairs to this retry tier, and read them back when due (retries)')),
    { resource: 'group', name: options.groupId, pattern: 'literal', operations: ['Read'], why: 'join its consumer group and commit offsets' } satisfies AclGrant,
    ...(topics.threads === undefined
      ? []
      : [
          topic(topics.threads.byThread, ['Read', 'Write'], 'thread scorers: re-key each turn by its thread, and read the turns back per thread'),
          topic(topics.threads.state, ['Read', 'Write'], 'thread scorers: write the thread state changelog, and read it back to restore a partition'),
          topic(topics.threads.latestScores, ['Write'], 'thread scorers: the latest-score view, each thread’s latest score per scorer'),
          { resource: 'group', name: threadRestoreGroupPrefix(options.groupId), pattern: 'prefixed', operations: ['Read', 'Delete'], why: 'thread scorers: the throwaway groups that restore a partition’s thread state, deleted when done' } satisfies AclGrant,
        ]),
    ...(topics.rescore === undefined
      ? []
      : [
          topic(topics.rescore, ['Read'], 're-scores on feedback: read the feedback join’s requests'),
          { resource: 'group', name: runFetchGroupPrefix(options.groupId), pattern: 'prefixed', operations: ['Read', 'Delete'], why: 're-scores on feedback: the throwaway groups that read a run event back from the runs topic, deleted when done' } satisfies AclGrant,
        ]),
  ];
  if (options.delivery === 'exactly-once') {
    grants.push({
      resource: 'transactional-id',
      name: transactionalIdPrefix(options.groupId),
      pattern: 'prefixed',
      operations: ['Write', 'Describe'],
      why: 'exactly-once: one transactional producer per input partition, ids <group>-<topic>-<partition>',
    });
  }
  return grants;
}

/** The producer SDK (`createRunPublisher`, `scorestream produce`): writes runs (its idempotent producer needs nothing more on Kafka 3+). */
export function producerAcls(options: { runsTopic: string }): AclGrant[] {
  return [topic(options.runsTopic, ['Write'], 'publish agent runs')];
}

/** `scorestream tail`: reads the results with a throwaway group under a fixed prefix. */
export function tailAcls(options: { resultsTopic: string }): AclGrant[] {
  return [
    topic(options.resultsTopic, ['Read'], 'read score records'),
    { resource: 'group', name: TAIL_GROUP_PREFIX, pattern: 'prefixed', operations: ['Read'], why: 'its throwaway consumer groups' },
  ];
}

/** The dashboard: reads results, decisions, (its feedback view) agreements and (its threads view) the latest-score view with its own group(s) under a prefix; writes nothing. */
export function dashboardAcls(options: { resultsTopic: string; decisionsTopic: string; agreementsTopic?: string | undefined; latestScoresTopic?: string | undefined; groupPrefix?: string }): AclGrant[] {
  return [
    topic(options.resultsTopic, ['Read'], 'read score records'),
    topic(options.decisionsTopic, ['Read'], 'read decision records (skip reasons)'),
    ...(options.agreementsTopic === undefined ? [] : [topic(options.agreementsTopic, ['Read'], 'read agreement records (the feedback view)')]),
    ...(options.latestScoresTopic === undefined ? [] : [topic(options.latestScoresTopic, ['Read'], "read each thread's latest scores (the threads view)")]),
    { resource: 'group', name: options.groupPrefix ?? DASHBOARD_GROUP_PREFIX, pattern: 'prefixed', operations: ['Read'], why: 'its own consumer group' },
  ];
}

/**
 * `scorestream agreement`, the feedback join (service/agreement-join.ts): reads the feedback and the
 * results, reads back and writes the agreements (its ledger is rebuilt from them at start),
 * dead-letters bad feedback and asks for re-scores, with throwaway groups it deletes when it stops.
 */
export function agreementAcls(options: { feedbackTopic: string; resultsTopic: string; agreementsTopic: string; deadLetterTopic: string; rescoreTopic?: string | undefined }): AclGrant[] {
  return [
    topic(options.feedbackTopic, ['Read'], 'read feedback'),
    topic(options.resultsTopic, ['Read'], 'read score records'),
    topic(options.agreementsTopic, ['Read', 'Write'], 'publish agreement pairs and windows, and read them back at start (what was already measured)'),
    topic(options.deadLetterTopic, ['Write'], 'dead-letter feedback that is not a FeedbackRecord v1'),
    ...(options.rescoreTopic === undefined ? [] : [topic(options.rescoreTopic, ['Write'], 'ask the service for re-scores on feedback')]),
    { resource: 'group', name: AGREEMENT_GROUP_PREFIX, pattern: 'prefixed', operations: ['Read', 'Delete'], why: 'its throwaway consumer groups, deleted when it stops' },
  ];
}

/** `scorestream monitor`: reads the results, reads back and writes the alerts, with throwaway groups it deletes when it stops. */
export function monitorAcls(options: { resultsTopic: string; alertsTopic: string }): AclGrant[] {
  return [
    topic(options.resultsTopic, ['Read'], 'read score records'),
    topic(options.alertsTopic, ['Read', 'Write'], 'publish breach and recovered notices, and read them back at start (its monitors\' state)'),
    { resource: 'group', name: MONITOR_GROUP_PREFIX, pattern: 'prefixed', operations: ['Read', 'Delete'], why: 'its throwaway consumer groups, deleted when it stops' },
  ];
}

/**
 * A replay (`scorestream replay`): the service's topics, the replays topic where each replay fixes
 * its range (service/replay-state.ts), and the consumer groups of its replays, named
 * `<group>.<replay id>` (service/replay-range.ts, replayGroupId; the throwaway groups of a dry run
 * and of reading the replays topic too, which are deleted when done: DELETE on the same prefix);
 * with exactly-once delivery, the transactional ids of those groups.
 */
export function replayAcls(options: ServiceAclOptions): AclGrant[] {
  const groupPrefix = `${options.groupId}.`;
  // A replay reads no retry tier, no re-score request and no thread (service/replay.ts): the live service owns them.
  const service = serviceAcls({ ...options, topics: { ...options.topics, retryTiers: undefined, rescore: undefined, threads: undefined }, delivery: 'at-least-once' }).filter((grant) => grant.resource !== 'group');
  const grants: AclGrant[] = [
    ...service,
    ...(options.topics.replays === undefined ? [] : [topic(options.topics.replays, ['Read', 'Write'], 'record the range a replay fixed when it started, and read it back when it continues')]),
    { resource: 'group', name: groupPrefix, pattern: 'prefixed', operations: ['Read'], why: 'one consumer group per replay, <group>.<replay id>' },
    // Without it the dry run still reports, but warns and leaves its group behind (GROUP_AUTHORIZATION_FAILED on DeleteGroups).
    { resource: 'group', name: groupPrefix, pattern: 'prefixed', operations: ['Delete'], why: 'a dry run deletes its throwaway group, <group>.<replay id>.dry-run-<hex>' },
  ];
  if (options.delivery === 'exactly-once') {
    grants.push({ resource: 'transactional-id', name: groupPrefix, pattern: 'prefixed', operations: ['Write', 'Describe'], why: 'exactly-once: the transactional ids of the replay groups' });
  }
  return grants;
}

/** Optional: CREATE on the output topics, for a service that creates them on first start. */
export function creationAcls(topics: readonly string[]): AclGrant[] {
  return topics.map((name) => topic(name, ['Create'], 'create the topic on first start (not needed once it exists)'));
}

const resourceFlag: Record<AclGrant['resource'], string> = { topic: '--topic', group: '--group', 'transactional-id': '--transactional-id', cluster: '--cluster' };

/**
 * kafka-acls.sh commands granting `grants` to `principal` (e.g. 'User:scorestream'), each after a
 * comment saying why. `$ADMIN` stands for the admin connection, e.g.
 * `--bootstrap-server "$BOOTSTRAP" --command-config admin.properties`.
 */
export function renderKafkaAcls(principal: string, grants: readonly AclGrant[]): string[] {
  return grants.flatMap((grant) => {
    const operations = grant.operations.map((operation) => `--operation ${operation}`).join(' ');
    const resource = grant.resource === 'cluster' ? '--cluster' : `${resourceFlag[grant.resource]} '${grant.name}'`;
    const pattern = grant.pattern === 'prefixed' ? ' --resource-pattern-type prefixed' : '';
    return [`# ${grant.why}`, `kafka-acls.sh $ADMIN --add --allow-principal '${principal}' ${operations} ${resource}${pattern}`];
  });
}

// kafkajs' ACL enums (ResourceType, PatternType, Operation, PermissionType), by their protocol values.
const resourceTypes: Record<AclGrant['resource'], number> = { topic: 2, group: 3, cluster: 4, 'transactional-id': 5 };
const patternTypes: Record<AclGrant['pattern'], number> = { literal: 3, prefixed: 4 };
const operationCodes: Record<AclOperation, number> = { Read: 3, Write: 4, Create: 5, Delete: 6, Describe: 8 };
const ALLOW = 3;

export type KafkajsAcl = {
  resourceType: number;
  resourceName: string;
  resourcePatternType: number;
  principal: string;
  host: string;
  operation: number;
  permissionType: number;
};

/** The same grants as the entries of kafkajs' `admin.createAcls({ acl })`. */
export function toKafkajsAcls(principal: string, grants: readonly AclGrant[]): KafkajsAcl[] {
  return grants.flatMap((grant) =>
    grant.operations.map((operation) => ({
      resourceType: resourceTypes[grant.resource],
      resourceName: grant.resource === 'cluster' ? 'kafka-cluster' : grant.name,
      resourcePatternType: patternTypes[grant.pattern],
      principal,
      host: '*',
      operation: operationCodes[operation],
      permissionType: ALLOW,
    })),
  );
}
