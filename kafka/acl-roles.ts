// The least-privilege ACLs of each Scorestream role on a cluster whose authorizer denies by
// default, as data: docs/security.md prints them as kafka-acls.sh commands (renderKafkaAcls), the
// secured integration tests grant exactly these and nothing more (toKafkajsAcls), and the
// pre-flight's messages point at them. The topic grants are the topology's (src/engine/topology/): each
// entry says which roles read or write it and why; what is added here is what is not a topic — the
// consumer groups of the service and of a replay (every other role reads group-less) and their
// transactional ids. DESCRIBE is not listed where READ or WRITE
// implies it. Topic creation is not part of any role: create the topics ahead (or grant CREATE
// while they do not exist, see `creationGrants`).
import type { DeliveryMode } from '../src/engine/config/config-types.ts';
import type { Role } from '../src/engine/topology/topic-entry.ts';
import { createdBy, topicsOf } from '../src/engine/topology/topology.ts';
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

/** The service's and a replay's group and delivery (the other roles need neither). */
export type RoleGrantOptions = { groupId?: string; delivery?: DeliveryMode };

const group = (name: string, pattern: AclGrant['pattern'], operations: AclOperation[], why: string): AclGrant => ({ resource: 'group', name, pattern, operations, why });

/**
 * The groups `role` joins: the service its consumer group, a replay the groups of its replays. Every
 * other role reads group-less (kafka/read-range.ts) and needs no group at all.
 */
function groupGrants(role: Role, groupId: string): AclGrant[] {
  if (role === 'service') return [group(groupId, 'literal', ['Read'], 'join its consumer group and commit offsets')];
  if (role === 'replay') return [group(`${groupId}.`, 'prefixed', ['Read'], 'one consumer group per replay, <group>.<replay id>')];
  return [];
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
  return [...topics, ...groupGrants(role, groupId), ...transactionalGrants(role, groupId, options.delivery ?? 'at-least-once')];
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

/** A client's codes for the parts of an ACL entry (kafkajs: the protocol's numbers; @platformatic/kafka: its enums of them). */
export type AclCodes<Resource, Pattern, Operation, Permission> = {
  readonly resource: Readonly<Record<AclGrant['resource'], Resource>>;
  readonly pattern: Readonly<Record<AclGrant['pattern'], Pattern>>;
  readonly operation: Readonly<Record<AclOperation, Operation>>;
  readonly allow: Permission;
};

/** One ALLOW entry per operation of each grant, for `principal` (e.g. 'User:svc') from any host, in a client's codes. */
export function aclEntriesOf<Resource, Pattern, Operation, Permission>(principal: string, grants: readonly AclGrant[], codes: AclCodes<Resource, Pattern, Operation, Permission>) {
  return grants.flatMap((grant) =>
    grant.operations.map((operation) => ({
      resourceType: codes.resource[grant.resource],
      // Kafka names the one cluster resource so.
      resourceName: grant.resource === 'cluster' ? 'kafka-cluster' : grant.name,
      resourcePatternType: codes.pattern[grant.pattern],
      principal,
      host: '*',
      operation: codes.operation[operation],
      permissionType: codes.allow,
    })),
  );
}

// kafkajs' ACL enums (ResourceType, PatternType, Operation, PermissionType), by their protocol values.
const kafkajsCodes: AclCodes<number, number, number, number> = {
  resource: { topic: 2, group: 3, cluster: 4, 'transactional-id': 5 },
  pattern: { literal: 3, prefixed: 4 },
  operation: { Read: 3, Write: 4, Create: 5, Delete: 6, Describe: 8 },
  allow: 3,
};

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
  return aclEntriesOf(principal, grants, kafkajsCodes);
}
