// The least-privilege ACLs of each Scorestream role on a cluster whose authorizer denies by
// default, as data: docs/security.md prints them as kafka-acls.sh commands (renderKafkaAcls), the
// secured integration tests grant exactly these and nothing more (toKafkajsAcls), and the
// pre-flight's messages point at them. The topic grants are the topology's (src/engine/topology/): each
// entry says which roles read or write it and why; what is added here is what is not a topic — a
// role's consumer groups and its transactional ids. DESCRIBE is not listed where READ or WRITE
// implies it. Topic creation is not part of any role: create the topics ahead (or grant CREATE
// while they do not exist, see `creationGrants`).
import type { DeliveryMode } from '../src/engine/config/config-types.ts';
import type { Role } from '../src/engine/topology/topic-entry.ts';
import { createdBy, entryOf, topicsOf } from '../src/engine/topology/topology.ts';
import type { Topology } from '../src/engine/topology/topology.ts';
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

/** The service's and a replay's group and delivery (the other roles need neither). */
export type RoleGrantOptions = { groupId?: string; delivery?: DeliveryMode };

const group = (name: string, pattern: AclGrant['pattern'], operations: AclOperation[], why: string): AclGrant => ({ resource: 'group', name, pattern, operations, why });

/** The groups `role` joins or reads through, by prefix where they are many. */
function groupGrants(topology: Topology, role: Role, groupId: string): AclGrant[] {
  switch (role) {
    case 'service': {
      const threads = entryOf(topology, 'by-thread') !== undefined;
      const rescores = entryOf(topology, 'rescore')?.access.service !== undefined;
      return [
        group(groupId, 'literal', ['Read'], 'join its consumer group and commit offsets'),
        ...(threads ? [group(threadRestoreGroupPrefix(groupId), 'prefixed', ['Read', 'Delete'], 'thread scorers: the throwaway groups that restore a partition’s thread state, deleted when done')] : []),
        ...(rescores ? [group(runFetchGroupPrefix(groupId), 'prefixed', ['Read', 'Delete'], 're-scores on feedback: the throwaway groups that read a run event back from the runs topic, deleted when done')] : []),
      ];
    }
    case 'replay':
      return [
        group(`${groupId}.`, 'prefixed', ['Read'], 'one consumer group per replay, <group>.<replay id>'),
        // Without it the dry run still reports, but warns and leaves its group behind (GROUP_AUTHORIZATION_FAILED on DeleteGroups).
        group(`${groupId}.`, 'prefixed', ['Delete'], 'a dry run deletes its throwaway group, <group>.<replay id>.dry-run-<hex>'),
      ];
    case 'tail':
      return [group(TAIL_GROUP_PREFIX, 'prefixed', ['Read'], 'its throwaway consumer groups')];
    case 'dashboard':
      return [group(DASHBOARD_GROUP_PREFIX, 'prefixed', ['Read'], 'its own consumer group')];
    case 'agreement':
      return [group(AGREEMENT_GROUP_PREFIX, 'prefixed', ['Read', 'Delete'], 'its throwaway consumer groups, deleted when it stops')];
    case 'monitor':
      return [group(MONITOR_GROUP_PREFIX, 'prefixed', ['Read', 'Delete'], 'its throwaway consumer groups, deleted when it stops')];
    case 'producer':
      return [];
  }
}

/** Exactly-once: the transactional ids of the service (one per input partition) or of a replay's groups. */
function transactionalGrants(role: Role, groupId: string, delivery: DeliveryMode): AclGrant[] {
  if (delivery !== 'exactly-once') return [];
  if (role === 'service') return [{ resource: 'transactional-id', name: transactionalIdPrefix(groupId), pattern: 'prefixed', operations: ['Write', 'Describe'], why: 'exactly-once: one transactional producer per input partition, ids <group>-<topic>-<partition>' }];
  if (role === 'replay') return [{ resource: 'transactional-id', name: `${groupId}.`, pattern: 'prefixed', operations: ['Write', 'Describe'], why: 'exactly-once: the transactional ids of the replay groups' }];
  return [];
}

/**
 * Everything `role` needs on a cluster that denies by default: its topics as the topology says
 * (table order), then its groups, then (exactly-once) its transactional ids.
 */
export function roleGrants(topology: Topology, role: Role, options: RoleGrantOptions = {}): AclGrant[] {
  const groupId = options.groupId ?? 'scorestream';
  const topics = topicsOf(topology, role).map((entry): AclGrant => {
    const access = entry.access[role]!;
    return { resource: 'topic', name: entry.name, pattern: 'literal', operations: [...access.operations], why: access.why };
  });
  return [...topics, ...groupGrants(topology, role, groupId), ...transactionalGrants(role, groupId, options.delivery ?? 'at-least-once')];
}

/** Optional: CREATE on the topics `role` creates when they are missing, for its first start. */
export function creationGrants(topology: Topology, role: Role): AclGrant[] {
  return createdBy(topology, role).map((entry) => ({ resource: 'topic', name: entry.name, pattern: 'literal', operations: ['Create'], why: 'create the topic on first start (not needed once it exists)' }));
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
