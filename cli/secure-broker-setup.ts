// What `scorestream kafka start --secure` does once its secured broker answers: the default topics
// exist and each role's user holds exactly its ACLs (kafka/acl-roles.ts, docs/security.md), so
// the service, the producer SDK, tail, the dashboard, the feedback join, the monitor and a replay can connect as they would to a
// managed cluster. The service's grants include the thread topics (the example config binds thread
// scorers), which are created here too: the service holds no CREATE. Idempotent: topics that exist are kept, ACLs granted again change nothing.
// Returns the lines telling the user how to connect — paths and user names, never a password.
import { ADMIN_USER, CLIENT_CERTIFICATE_NAME, securityMaterialsFile } from '../local/kafka/index.ts';
import type { SecurityMaterials } from '../local/kafka/index.ts';
import { roleGrants } from '../kafka/acl-roles.ts';
import type { AclGrant } from '../kafka/acl-roles.ts';
import { topicSpecsOf } from '../kafka/ensure-topics.ts';
import { createKafkaEdge } from '../kafka/kafka-edge.ts';
import { topicsSchema } from '../src/engine/config/config-schema.ts';
import { DEFAULTS, DEMO_DECISIONS_TOPIC } from '../src/engine/config/defaults.ts';
import { topologyOf } from '../src/engine/topology/topology.ts';
import type { Topology } from '../src/engine/topology/topology.ts';

/**
 * The topology of the default names with every feature on — decisions, the default retry tiers,
 * thread scorers, re-scores on feedback — so a config with `rescoreOn` or `level: 'thread'` runs
 * against the secured broker as it is.
 */
export function secureTopology(): Topology {
  return topologyOf({
    topics: topicsSchema.parse({ decisions: DEMO_DECISIONS_TOPIC }),
    retries: { enabled: true, delaysMs: DEFAULTS.retryDelaysMs },
    threads: true,
    rescore: true,
  });
}

export function secureRoleGrants(topology: Topology = secureTopology()): Array<{ principal: string; grants: AclGrant[] }> {
  return [
    { principal: 'User:scorestream', grants: roleGrants(topology, 'service', { groupId: DEFAULTS.groupId, delivery: 'exactly-once' }) },
    { principal: 'User:producer', grants: roleGrants(topology, 'producer') },
    { principal: `User:${CLIENT_CERTIFICATE_NAME}`, grants: roleGrants(topology, 'producer') },
    { principal: 'User:tail', grants: roleGrants(topology, 'tail') },
    { principal: 'User:dashboard', grants: roleGrants(topology, 'dashboard') },
    { principal: 'User:agreement', grants: roleGrants(topology, 'agreement') },
    { principal: 'User:monitor', grants: roleGrants(topology, 'monitor') },
    { principal: 'User:replay', grants: roleGrants(topology, 'replay', { groupId: DEFAULTS.groupId, delivery: 'at-least-once' }) },
  ];
}

export async function setUpSecureRoles(options: { brokers: string[]; mtlsBrokers: string[]; directory: string; materials: SecurityMaterials }): Promise<string[]> {
  // As the broker's admin, over SASL_SSL with its CA: the one user that may create topics and grant ACLs.
  const admin = { ssl: { caFile: options.materials.caCertificate }, sasl: { mechanism: 'scram-sha-512' as const, username: ADMIN_USER, password: options.materials.users[ADMIN_USER] ?? '' } };
  const edge = createKafkaEdge({ clientId: 'scorestream-secure-setup', brokers: options.brokers, ...admin });
  // Every topic of the table: no role but the secured broker's admin holds CREATE.
  const topology = secureTopology();
  try {
    await edge.admin.createTopics(topicSpecsOf(topology, topology.entries));
    for (const { principal, grants } of secureRoleGrants(topology)) await edge.admin.createAcls(principal, grants);
  } finally {
    await edge.close();
  }
  const { materials } = options;
  return [
    `topics ${topology.entries.map((entry) => entry.name).join(', ')}; users scorestream, producer, tail, dashboard, agreement, monitor, replay hold the ACLs of docs/security.md`,
    `passwords (and admin's, for setup only): ${securityMaterialsFile(options.directory)}`,
    `the service: KAFKA_BROKERS=${options.brokers.join(',')} KAFKA_SSL_CA_FILE=${materials.caCertificate} KAFKA_SASL_MECHANISM=scram-sha-512 KAFKA_SASL_USERNAME=scorestream KAFKA_SASL_PASSWORD=<users.scorestream of that file>`,
    `mutual TLS (as User:${CLIENT_CERTIFICATE_NAME}, the producer's ACLs): KAFKA_BROKERS=${options.mtlsBrokers.join(',')} KAFKA_SSL_CA_FILE=${materials.caCertificate} KAFKA_SSL_CERT_FILE=${materials.clientCertificate} KAFKA_SSL_KEY_FILE=${materials.clientKey}`,
  ];
}
