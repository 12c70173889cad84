// A secured broker of a test file's own (local/kafka/secure-broker.ts: TLS with a private CA,
// SCRAM/PLAIN users, mutual TLS, deny-by-default ACLs), and what tests do with it as the admin:
// create topics, grant exactly a role's ACLs (kafka/acl-roles.ts), read a topic.
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll } from 'vitest';
import { quietKafka } from '../../local/kafka/index.ts';
import { readAll } from './read-all.ts';
import { testRun } from './runs.ts';
import { createRunPublisher } from '../../producers/run-publisher.ts';
import { startSecureEphemeralBroker } from '../../local/kafka/secure-broker.ts';
import type { SecureBrokerHandle, StartSecureBrokerOptions } from '../../local/kafka/secure-broker.ts';
import { createTopicsWithLeaders } from '../../kafka/create-topics-with-leaders.ts';
import { roleGrants, toKafkajsAcls } from '../../kafka/acl-roles.ts';
import type { AclGrant, RoleGrantOptions } from '../../kafka/acl-roles.ts';
import { DEFAULTS } from '../../src/engine/config/defaults.ts';
import type { Role } from '../../src/engine/topology/topic-entry.ts';
import { topologyOf } from '../../src/engine/topology/topology.ts';
import type { TopicNames, Topology } from '../../src/engine/topology/topology.ts';

/** Starts a secured broker with `users` before the file's tests and stops it after them. */
export function useSecureBroker(users: readonly string[], options: Pick<StartSecureBrokerOptions, 'oauth'> = {}): () => SecureBrokerHandle {
  let broker: SecureBrokerHandle | undefined;
  beforeAll(async () => {
    const started = Date.now();
    broker = await startSecureEphemeralBroker({ users, ...options });
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

/** A test's topic names and the features that add topics; what is not named gets a name no test uses. */
export type TestTopology = {
  topics: Partial<TopicNames> & { runs: string };
  /** The default retry tiers `{runs}-retry-<delay>` (retries are on by default). */
  retries?: boolean;
  threads?: boolean;
  /** A binding re-scores on feedback (the service reads `{runs}-rescore`). */
  rescore?: boolean;
  /** The feedback join asks for re-scores (default true). */
  rescoreRequests?: boolean;
};

/** The topology (src/engine/topology/) of a test's names and features. */
export function testTopology(test: TestTopology): Topology {
  const { runs } = test.topics;
  return topologyOf({
    topics: {
      results: `${runs}-unused-results`,
      deadLetter: `${runs}-unused-dlq`,
      retry: `${runs}-retry`,
      alerts: `${runs}-unused-alerts`,
      rescore: `${runs}-rescore`,
      replays: `${runs}-replays`,
      feedback: `${runs}-unused-feedback`,
      agreements: `${runs}-unused-agreements`,
      ...test.topics,
    },
    retries: { enabled: test.retries ?? false, delaysMs: DEFAULTS.retryDelaysMs },
    threads: test.threads ?? false,
    rescore: test.rescore ?? false,
    ...(test.rescoreRequests === undefined ? {} : { rescoreRequests: test.rescoreRequests }),
  });
}

/** What `role` is granted (kafka/acl-roles.ts) for a test's names and features. */
export function testRoleGrants(role: Role, test: TestTopology, options: RoleGrantOptions = {}): AclGrant[] {
  return roleGrants(testTopology(test), role, options);
}

/** A topic's records as the admin reads them, once there are `count` (or after a minute, whatever there is). */
export async function waitForRecords(broker: SecureBrokerHandle, topic: string, count: number, isolation: 'read_committed' | 'read_uncommitted'): Promise<Array<Record<string, unknown>>> {
  const kafka = adminKafka(broker);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const records = await readAll(topic, { isolation, kafka });
    if (records.length >= count || Date.now() > deadline) return records;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Runs published by the producer SDK as the `producer` user, over SASL/PLAIN (a principal of its own). */
export async function publishRunsAsProducer(broker: SecureBrokerHandle, topic: string, runIds: readonly string[]): Promise<void> {
  const publisher = createRunPublisher({ brokers: broker.brokers, topic, ssl: { ca: [broker.caPem] }, sasl: broker.sasl('producer', 'plain') as never });
  try {
    await publisher.publish(runIds.map((runId) => testRun({ runId })));
  } finally {
    await publisher.close();
  }
}
