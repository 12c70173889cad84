// A secured broker of a test file's own (local/kafka/secure-broker.ts: TLS with a private CA,
// SCRAM/PLAIN users, mutual TLS, deny-by-default ACLs), and what tests do with it as the admin:
// create topics, grant exactly a role's ACLs (kafka/acl-roles.ts), read a topic.
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll } from 'vitest';
import { quietKafka } from '../../local/kafka/index.ts';
import { startSecureEphemeralBroker } from '../../local/kafka/secure-broker.ts';
import type { SecureBrokerHandle } from '../../local/kafka/secure-broker.ts';
import { createTopicsWithLeaders } from '../../kafka/create-topics-with-leaders.ts';
import { toKafkajsAcls } from '../../kafka/acl-roles.ts';
import type { AclGrant } from '../../kafka/acl-roles.ts';

/** Starts a secured broker with `users` before the file's tests and stops it after them. */
export function useSecureBroker(users: readonly string[]): () => SecureBrokerHandle {
  let broker: SecureBrokerHandle | undefined;
  beforeAll(async () => {
    const started = Date.now();
    broker = await startSecureEphemeralBroker({ users });
    console.error(`[kafka] secured broker ${broker.brokers.join(',')} (mTLS ${broker.mtlsBrokers.join(',')}) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 180_000);
  afterAll(async () => {
    await broker?.stop();
  });
  return () => {
    if (broker === undefined) throw new Error('the secured broker did not start');
    return broker;
  };
}

export function adminKafka(broker: SecureBrokerHandle): Kafka {
  return quietKafka({ clientId: 'scorestream-test-secure-admin', brokers: broker.brokers, ...broker.adminSecurity });
}

export async function createTopicsAsAdmin(broker: SecureBrokerHandle, topics: readonly string[], partitions = 1): Promise<void> {
  const admin = adminKafka(broker).admin();
  await admin.connect();
  try {
    await createTopicsWithLeaders(admin, topics.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1 })), { timeoutMs: 30_000 });
  } finally {
    await admin.disconnect();
  }
}

/** Grants `principal` (e.g. 'User:svc') exactly `grants`. */
export async function grantAcls(broker: SecureBrokerHandle, principal: string, grants: readonly AclGrant[]): Promise<void> {
  const admin = adminKafka(broker).admin();
  await admin.connect();
  try {
    await admin.createAcls({ acl: toKafkajsAcls(principal, grants) as never });
  } finally {
    await admin.disconnect();
  }
}

/** Takes back from `principal` exactly `grants` (as granted by grantAcls). */
export async function revokeAcls(broker: SecureBrokerHandle, principal: string, grants: readonly AclGrant[]): Promise<void> {
  const admin = adminKafka(broker).admin();
  await admin.connect();
  try {
    await admin.deleteAcls({ filters: toKafkajsAcls(principal, grants) as never });
  } finally {
    await admin.disconnect();
  }
}
