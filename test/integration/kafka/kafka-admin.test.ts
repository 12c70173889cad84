// createKafkaAdmin (kafka/kafka-admin.ts) against real brokers: the cluster and its topics,
// topic creation (partitions like another topic, a compacted one, leaders shown, a second call
// creating nothing), offsets and offsets by time, consumer groups as the pre-flight and a replay
// read them, and — on a secured broker of its own — ACLs granted from the project's grant table
// and a refusal to describe a group the principal has no ACL on.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createKafkaAdmin } from '../../../kafka/kafka-admin.ts';
import type { KafkaAdmin } from '../../../kafka/kafka-admin.ts';
import type { PlatformaticConnection } from '../../../kafka/platformatic-options.ts';
import { hasPlatformaticErrorId } from '../../../kafka/platformatic-errors.ts';
import { deleteRecordsBefore, eventually, produce, testConnection } from '../../helpers/group-less-reads.ts';
import { testKafka, uniqueGroupId, uniqueName, useTopic } from '../../helpers/kafka.ts';
import { useSecureBroker } from '../../helpers/secure-broker.ts';

function adminFor(connection: PlatformaticConnection = testConnection('kafka-admin')): KafkaAdmin {
  const admin = createKafkaAdmin(connection);
  onTestFinished(() => admin.close());
  return admin;
}

describe('createKafkaAdmin', () => {
  it('describes the cluster and lists its topics, internal ones left out', async () => {
    const topic = await useTopic({ prefix: 'admin-list' });
    const admin = adminFor();
    const cluster = await admin.describeCluster();
    expect(cluster.clusterId).toMatch(/\S/);
    expect(cluster.brokers.length).toBeGreaterThan(0);
    expect(cluster.brokers.map(({ nodeId }) => nodeId)).toContain(cluster.controllerId);
    const topics = await admin.listTopics();
    expect(topics).toContain(topic);
    expect(topics.filter((name) => name.startsWith('__'))).toEqual([]);
  });

  it('creates missing topics — partitions like another, compacted — with leaders, and nothing on a second call', async () => {
    const existing = await useTopic({ prefix: 'admin-existing', partitions: 2 });
    const [runs, mirror, changelog] = ['admin-runs', 'admin-mirror', 'admin-changelog'].map((prefix) => uniqueName(prefix));
    const admin = adminFor();
    onTestFinished(() => admin.deleteTopics([runs!, mirror!, changelog!]));
    const specs = [
      { topic: mirror!, partitionsLike: runs! },
      { topic: runs!, numPartitions: 3 },
      { topic: changelog!, partitionsLike: existing, config: { 'cleanup.policy': 'compact' } },
      { topic: existing, numPartitions: 5 },
    ];
    expect((await admin.createTopics(specs)).sort()).toEqual([runs!, mirror!, changelog!].sort());
    expect(await admin.partitionCount(runs!)).toBe(3);
    expect(await admin.partitionCount(mirror!)).toBe(3);
    expect(await admin.partitionCount(changelog!)).toBe(2);
    expect(await admin.partitionCount(existing)).toBe(2);
    expect(await admin.partitionCount(uniqueName('admin-none'))).toBeUndefined();
    const kafkajs = testKafka().admin();
    await kafkajs.connect();
    try {
      const configs = await kafkajs.describeConfigs({ resources: [{ type: 2, name: changelog!, configNames: ['cleanup.policy'] }], includeSynonyms: false });
      expect(configs.resources[0]?.configEntries[0]?.configValue).toBe('compact');
    } finally {
      await kafkajs.disconnect();
    }
    // Leaders are there: the first produce to each partition succeeds.
    await produce(mirror!, [0, 1, 2].map((partition) => ({ partition, value: 'first' })));
    expect(await admin.createTopics(specs)).toEqual([]);
  });

  it('gives each partition’s start and end, and the offsets for a time (the end where no record is that late)', async () => {
    const topic = await useTopic({ prefix: 'admin-offsets', partitions: 2 });
    const now = Date.now();
    await produce(topic, [
      { partition: 0, value: 'old', timestamp: String(now - 3_600_000) },
      { partition: 0, value: 'old', timestamp: String(now - 3_600_000) },
      { partition: 0, value: 'new', timestamp: String(now) },
      { partition: 1, value: 'old', timestamp: String(now - 3_600_000) },
    ]);
    await deleteRecordsBefore(topic, 0, 1);
    const admin = adminFor();
    expect(await admin.partitionOffsets(topic)).toEqual([
      { partition: 0, low: 1n, high: 3n },
      { partition: 1, low: 0n, high: 1n },
    ]);
    expect(await admin.offsetsForTime(topic, now - 1_800_000)).toEqual([
      { partition: 0, offset: 2n },
      { partition: 1, offset: 1n },
    ]);
    expect(await admin.offsetsForTime(topic, 0)).toEqual([
      { partition: 0, offset: 1n },
      { partition: 1, offset: 0n },
    ]);
  });

  it('reads, describes and deletes a consumer group; a group or topic already gone is fine', async () => {
    const topic = await useTopic({ prefix: 'admin-groups', partitions: 2 });
    await produce(topic, [{ partition: 0, value: 'a' }, { partition: 0, value: 'b' }]);
    const groupId = uniqueGroupId('admin-groups');
    const kafkajs = testKafka().admin();
    await kafkajs.connect();
    try {
      await kafkajs.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '2' }] });
    } finally {
      await kafkajs.disconnect();
    }
    const admin = adminFor();
    expect(await admin.committedOffsets(groupId, topic)).toEqual([
      { partition: 0, offset: 2n },
      { partition: 1, offset: undefined },
    ]);
    expect(await admin.describeGroup(groupId)).toEqual({ groupId, state: 'Empty', protocolType: 'consumer', memberIds: [] });
    await admin.deleteGroups([groupId]);
    expect((await admin.describeGroup(groupId)).state).toBe('Dead');
    await admin.deleteGroups([groupId]);
    await admin.deleteTopics([topic, uniqueName('admin-never-created')]);
    await eventually(`${topic} to leave the metadata`, async () => !(await admin.listTopics()).includes(topic), 10_000);
  });
});

describe('createKafkaAdmin on a secured broker', () => {
  const secured = useSecureBroker(['svc']);
  const connectionAs = (user: string): PlatformaticConnection => {
    const broker = secured();
    const sasl = user === 'admin' ? broker.adminSecurity.sasl : broker.sasl(user);
    if (sasl === undefined || !('username' in sasl) || !('password' in sasl)) throw new Error(`no SASL password for ${user}`);
    return { clientId: uniqueName(`admin-${user}`), bootstrapBrokers: broker.brokers, tls: { ca: broker.caPem }, sasl: { mechanism: 'SCRAM-SHA-512', username: sasl.username, password: String(sasl.password) } };
  };

  it('grants ACLs from the grant table, and a group without one is refused by name', async () => {
    const admin = adminFor(connectionAs('admin'));
    const topic = uniqueName('admin-acl');
    await admin.createTopics([{ topic, numPartitions: 1 }]);
    const service = adminFor(connectionAs('svc'));
    expect(await service.listTopics()).not.toContain(topic);
    await admin.createAcls('User:svc', [
      { resource: 'topic', name: topic, pattern: 'literal', operations: ['Describe'], why: 'see the topic' },
      { resource: 'group', name: 'svc-allowed.', pattern: 'prefixed', operations: ['Describe'], why: 'describe its groups' },
    ]);
    await eventually('the ACL to reach the authorizer', async () => (await service.listTopics()).includes(topic));
    expect((await service.describeGroup('svc-allowed.one')).state).toBe('Dead');
    const refused = await service.describeGroup('svc-denied').then(() => undefined, (error: unknown) => error);
    expect(hasPlatformaticErrorId(refused, 'GROUP_AUTHORIZATION_FAILED')).toBe(true);
  });
});
