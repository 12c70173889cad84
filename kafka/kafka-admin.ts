// The Kafka administration the service and its tools need, on @platformatic/kafka's Admin (the
// one client, docs/architecture.md): the cluster, topics and their offsets, topic creation
// (admin-create-topics.ts), consumer groups as the pre-flight and a replay see them, and ACLs
// from the project's grant table (platformatic-acls.ts). Requests that read partitions are
// retried while leaders settle (platformatic-leaders-settle.ts); everything else reports the
// broker's answer as the library throws it — kafka-access-error.ts reads its refusals.
import { Admin, FetchIsolationLevels, ListOffsetTimestamps } from '@platformatic/kafka';
import type { AclGrant } from './acl-roles.ts';
import { createMissingTopics, partitionCountOf } from './admin-create-topics.ts';
import type { TopicSpec } from './ensure-topics.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import { toPlatformaticAcls } from './platformatic-acls.ts';
import { hasPlatformaticErrorId } from './platformatic-errors.ts';
import { whilePlatformaticLeadersSettle } from './platformatic-leaders-settle.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';
import type { LeaderWait } from './while-leaders-settle.ts';

export type KafkaAdminOptions = {
  /** How long partition leaders not yet known are waited for (default KAFKA_DEFAULTS.topics.leaderWaitMs). */
  leaderWaitMs?: number;
  /** The client's retries of a failed request (default the library's; the library retries a connection's handshake as often inside each). */
  retries?: number;
  /** How long one request may wait for its answer (default the library's 30 s): a tool that must answer soon gives up sooner. */
  requestTimeoutMs?: number;
};

export type ClusterDescription = { clusterId: string; controllerId: number; brokers: Array<{ nodeId: number; host: string; port: number }> };
export type PartitionOffsets = { partition: number; low: bigint; high: bigint };
export type PartitionOffset = { partition: number; offset: bigint };
export type GroupDescription = { groupId: string; state: string; protocolType: string; memberIds: string[] };

export type KafkaAdmin = {
  describeCluster(): Promise<ClusterDescription>;
  /** The topics, internal ones (__consumer_offsets, __transaction_state) left out. */
  listTopics(): Promise<string[]>;
  /** Each partition's first offset and its end: the last stable offset, as a read_committed reader sees it (kafkajs' fetchTopicOffsets' `high`). */
  partitionOffsets(topic: string): Promise<PartitionOffsets[]>;
  /** Each partition's first offset at or after `timestampMs`; its end where no record is that late (as kafkajs' fetchTopicOffsetsByTimestamp). */
  offsetsForTime(topic: string, timestampMs: number): Promise<PartitionOffset[]>;
  /** undefined when the topic does not exist. */
  partitionCount(topic: string): Promise<number | undefined>;
  /** Creates the missing topics, waits for their leaders; resolves with those it created. */
  createTopics(specs: readonly TopicSpec[], wait?: LeaderWait): Promise<string[]>;
  /** Deletes those that exist; resolves once the controller deleted them (the metadata may list them a moment longer). */
  deleteTopics(names: readonly string[]): Promise<void>;
  /** Deletes the groups; one already gone is fine. Rejects for a group that still has members (NON_EMPTY_GROUP). */
  deleteGroups(groupIds: readonly string[]): Promise<void>;
  /** Finds the group's coordinator and describes the group: rejects with the broker's refusal (GROUP_AUTHORIZATION_FAILED) for a principal without DESCRIBE on it. A group that does not exist reads as state 'Dead'. */
  describeGroup(groupId: string): Promise<GroupDescription>;
  /** The group's committed offset per partition of `topic`; undefined where it committed none. */
  committedOffsets(groupId: string, topic: string): Promise<Array<{ partition: number; offset: bigint | undefined }>>;
  /** Commits these offsets for the group (a replay seeds its group's start so); the group must have no members. */
  setCommittedOffsets(groupId: string, topic: string, offsets: ReadonlyArray<{ partition: number; offset: bigint }>): Promise<void>;
  /** Grants `principal` (e.g. 'User:svc') the grants, from any host. */
  createAcls(principal: string, grants: readonly AclGrant[]): Promise<void>;
  close(): Promise<void>;
};

export function createKafkaAdmin(connection: PlatformaticConnection, options: KafkaAdminOptions = {}): KafkaAdmin {
  const admin = new Admin({
    ...connection,
    retryDelay: KAFKA_DEFAULTS.platformatic.retryDelayMs,
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    ...(options.requestTimeoutMs === undefined ? {} : { requestTimeout: options.requestTimeoutMs }),
  });
  const wait = options.leaderWaitMs === undefined ? {} : { timeoutMs: options.leaderWaitMs };
  const settle = <T>(request: () => Promise<T>) => whilePlatformaticLeadersSettle(request, wait);

  const partitionsOf = async (topic: string) => {
    const metadata = await settle(() => admin.metadata({ topics: [topic], forceUpdate: true }));
    return Array.from({ length: metadata.topics.get(topic)?.partitionsCount ?? 0 }, (_, partition) => partition);
  };
  /** Offsets of every partition at `timestamp` (or EARLIEST / LATEST), by partition. */
  const listOffsets = async (topic: string, partitions: number[], timestamp: bigint) => {
    const listed = await settle(() =>
      admin.listOffsets({ topics: [{ name: topic, partitions: partitions.map((partitionIndex) => ({ partitionIndex, timestamp })) }], isolationLevel: FetchIsolationLevels.READ_COMMITTED }),
    );
    return new Map(listed.filter(({ name }) => name === topic).flatMap(({ partitions: answers }) => answers.map(({ partitionIndex, offset }) => [partitionIndex, offset] as const)));
  };
  const endsOf = (topic: string, partitions: number[]) => listOffsets(topic, partitions, ListOffsetTimestamps.LATEST);

  return {
    async describeCluster() {
      const metadata = await admin.metadata({ topics: [], forceUpdate: true });
      return { clusterId: metadata.id, controllerId: metadata.controllerId, brokers: [...metadata.brokers].map(([nodeId, { host, port }]) => ({ nodeId, host, port })) };
    },
    listTopics: () => admin.listTopics(),
    async partitionOffsets(topic) {
      const partitions = await partitionsOf(topic);
      const [lows, highs] = await Promise.all([listOffsets(topic, partitions, ListOffsetTimestamps.EARLIEST), endsOf(topic, partitions)]);
      return partitions.map((partition) => ({ partition, low: lows.get(partition) ?? 0n, high: highs.get(partition) ?? 0n }));
    },
    async offsetsForTime(topic, timestampMs) {
      const partitions = await partitionsOf(topic);
      const [atTime, ends] = await Promise.all([listOffsets(topic, partitions, BigInt(Math.trunc(timestampMs))), endsOf(topic, partitions)]);
      return partitions.map((partition) => {
        const offset = atTime.get(partition);
        return { partition, offset: offset === undefined || offset < 0n ? (ends.get(partition) ?? 0n) : offset };
      });
    },
    partitionCount: (topic) => settle(() => partitionCountOf(admin, topic)),
    createTopics: (specs, leaderWait) => createMissingTopics(admin, specs, leaderWait ?? wait),
    async deleteTopics(names) {
      const existing = new Set(await admin.listTopics());
      const topics = names.filter((name) => existing.has(name));
      if (topics.length > 0) await admin.deleteTopics({ topics });
    },
    async deleteGroups(groupIds) {
      if (groupIds.length === 0) return;
      try {
        await admin.deleteGroups({ groups: [...groupIds] });
      } catch (error) {
        // Deleting a group that is gone leaves what was asked for.
        if (!hasPlatformaticErrorId(error, 'GROUP_ID_NOT_FOUND') || hasPlatformaticErrorId(error, 'NON_EMPTY_GROUP')) throw error;
      }
    },
    async describeGroup(groupId) {
      const group = (await admin.describeGroups({ groups: [groupId] })).get(groupId);
      return { groupId, state: group?.state ?? 'Dead', protocolType: group?.protocolType ?? '', memberIds: [...(group?.members.keys() ?? [])] };
    },
    async committedOffsets(groupId, topic) {
      const partitions = await partitionsOf(topic);
      const [group] = await admin.listConsumerGroupOffsets({ groups: [{ groupId, topics: [{ name: topic, partitionIndexes: partitions }] }] });
      const committed = new Map((group?.topics ?? []).filter(({ name }) => name === topic).flatMap(({ partitions: answers }) => answers.map(({ partitionIndex, committedOffset }) => [partitionIndex, committedOffset] as const)));
      return partitions.map((partition) => {
        const offset = committed.get(partition);
        return { partition, offset: offset === undefined || offset < 0n ? undefined : offset };
      });
    },
    async setCommittedOffsets(groupId, topic, offsets) {
      if (offsets.length === 0) return;
      await admin.alterConsumerGroupOffsets({ groupId, topics: [{ name: topic, partitionOffsets: offsets.map(({ partition, offset }) => ({ partition, offset })) }] });
    },
    async createAcls(principal, grants) {
      const creations = toPlatformaticAcls(principal, grants);
      if (creations.length > 0) await admin.createAcls({ creations });
    },
    close: () => admin.close(),
  };
}
