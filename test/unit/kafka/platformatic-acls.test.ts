// The project's ACL grants as @platformatic/kafka's createAcls entries (kafka/platformatic-acls.ts):
// the same protocol values kafkajs' entries carry (toKafkajsAcls), one entry per operation.
import { describe, expect, it } from 'vitest';
import { toKafkajsAcls } from '../../../kafka/acl-roles.ts';
import type { AclGrant } from '../../../kafka/acl-roles.ts';
import { toPlatformaticAcls } from '../../../kafka/platformatic-acls.ts';

const grants: AclGrant[] = [
  { resource: 'topic', name: 'runs', pattern: 'literal', operations: ['Read', 'Describe'], why: 'read' },
  { resource: 'group', name: 'scorestream.', pattern: 'prefixed', operations: ['Read', 'Delete'], why: 'groups' },
  { resource: 'transactional-id', name: 'scorestream-', pattern: 'prefixed', operations: ['Write'], why: 'exactly-once' },
  { resource: 'cluster', name: 'ignored', pattern: 'literal', operations: ['Create'], why: 'create topics' },
];

describe('toPlatformaticAcls', () => {
  it('gives one ALLOW entry per operation, from any host, with the protocol values kafkajs sends', () => {
    const entries = toPlatformaticAcls('User:svc', grants);
    expect(entries).toHaveLength(6);
    expect(entries).toEqual(toKafkajsAcls('User:svc', grants));
    expect(entries[0]).toEqual({ resourceType: 2, resourceName: 'runs', resourcePatternType: 3, principal: 'User:svc', host: '*', operation: 3, permissionType: 3 });
    expect(entries.at(-1)).toMatchObject({ resourceType: 4, resourceName: 'kafka-cluster', operation: 5 });
  });
});
