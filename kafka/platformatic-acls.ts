// The project's ACL grants (acl-roles.ts: resource, name, pattern, operations) as the entries of
// @platformatic/kafka's `admin.createAcls({ creations })`: the same table that toKafkajsAcls
// turns into kafkajs' entries, in the library's enums.
import { AclOperations, AclPermissionTypes, ResourcePatternTypes, ResourceTypes } from '@platformatic/kafka';
import type { Acl } from '@platformatic/kafka';
import type { AclGrant, AclOperation } from './acl-roles.ts';

const resourceTypes = {
  topic: ResourceTypes.TOPIC,
  group: ResourceTypes.GROUP,
  cluster: ResourceTypes.CLUSTER,
  'transactional-id': ResourceTypes.TRANSACTIONAL_ID,
} as const satisfies Record<AclGrant['resource'], Acl['resourceType']>;

const patternTypes = { literal: ResourcePatternTypes.LITERAL, prefixed: ResourcePatternTypes.PREFIXED } as const satisfies Record<AclGrant['pattern'], Acl['resourcePatternType']>;

const operations = {
  Read: AclOperations.READ,
  Write: AclOperations.WRITE,
  Create: AclOperations.CREATE,
  Delete: AclOperations.DELETE,
  Describe: AclOperations.DESCRIBE,
} as const satisfies Record<AclOperation, Acl['operation']>;

/** One ALLOW entry per operation of each grant, for `principal` (e.g. 'User:svc') from any host. */
export function toPlatformaticAcls(principal: string, grants: readonly AclGrant[]): Acl[] {
  return grants.flatMap((grant) =>
    grant.operations.map((operation) => ({
      resourceType: resourceTypes[grant.resource],
      // Kafka names the one cluster resource so.
      resourceName: grant.resource === 'cluster' ? 'kafka-cluster' : grant.name,
      resourcePatternType: patternTypes[grant.pattern],
      principal,
      host: '*',
      operation: operations[operation],
      permissionType: AclPermissionTypes.ALLOW,
    })),
  );
}
