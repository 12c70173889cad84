// The project's ACL grants (acl-roles.ts: resource, name, pattern, operations) as the entries of
// @platformatic/kafka's `admin.createAcls({ creations })`: the same table that toKafkajsAcls
// turns into kafkajs' entries, in the library's enums.
import { AclOperations, AclPermissionTypes, ResourcePatternTypes, ResourceTypes } from '@platformatic/kafka';
import type { Acl } from '@platformatic/kafka';
import { aclEntriesOf } from './acl-roles.ts';
import type { AclCodes, AclGrant } from './acl-roles.ts';

const codes = {
  resource: { topic: ResourceTypes.TOPIC, group: ResourceTypes.GROUP, cluster: ResourceTypes.CLUSTER, 'transactional-id': ResourceTypes.TRANSACTIONAL_ID },
  pattern: { literal: ResourcePatternTypes.LITERAL, prefixed: ResourcePatternTypes.PREFIXED },
  operation: { Read: AclOperations.READ, Write: AclOperations.WRITE, Create: AclOperations.CREATE, Delete: AclOperations.DELETE, Describe: AclOperations.DESCRIBE },
  allow: AclPermissionTypes.ALLOW,
} as const satisfies AclCodes<Acl['resourceType'], Acl['resourcePatternType'], Acl['operation'], Acl['permissionType']>;

/** One ALLOW entry per operation of each grant, for `principal` (e.g. 'User:svc') from any host. */
export function toPlatformaticAcls(principal: string, grants: readonly AclGrant[]): Acl[] {
  return aclEntriesOf(principal, grants, codes);
}
