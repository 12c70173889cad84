// Kafka helpers for integration tests: the run's broker (from test/setup/kafka.global.ts), unique
// topic and group names, a topic per test that is deleted when the test finishes (created only
// once the broker's metadata shows its leaders), a quiet kafkajs client, a reader that collects
// messages from the beginning of a topic, and a consumer group as its coordinator sees it.
import { randomBytes } from 'node:crypto';
import type { ITopicConfig, Kafka } from 'kafkajs';
import { inject, onTestFinished } from 'vitest';
import { quietKafka } from '../../local/kafka/index.ts';
import { createTopicsWithLeaders as createTopicsWithLeadersOn } from '../../kafka/create-topics-with-leaders.ts';
import { createKafkaEdge } from '../../kafka/kafka-edge.ts';
import type { KafkaEdge } from '../../kafka/kafka-edge.ts';

/** The integration broker's bootstrap addresses; throws outside the `integration` project. */
export function testBrokers(): string[] {
  const brokers = inject('kafkaBrokers');
  if (!Array.isArray(brokers) || brokers.length === 0) {
    throw new Error(
      'No Kafka broker was provided to this test: Kafka tests belong in test/integration/ and run in the `integration` vitest project, whose globalSetup (test/setup/kafka.global.ts) starts one.',
    );
  }
  return brokers;
}

/** `prefix` plus a time-and-random suffix, using only characters valid in topic and group names. */
export function uniqueName(prefix: string): string {
  const safePrefix = prefix.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 180);
  return `${safePrefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

export function uniqueGroupId(prefix = 'test-group'): string {
  return uniqueName(prefix);
}

/**
 * A kafkajs client on the test broker that logs nothing: kafkajs logs every retried error at ERROR
 * level, and real failures reach the test as rejections anyway. KAFKAJS_LOG_LEVEL=error (or info,
 * debug) brings its logs back when debugging.
 */
export function testKafka(clientId = 'scorestream-test'): Kafka {
  return quietKafka({ clientId, brokers: testBrokers() });
}

/**
 * Creates a unique topic (or the one `name`d; waiting until every partition has a leader) and
 * deletes it when the current test finishes. Call it inside a test, not in beforeAll.
 */
export async function useTopic(options: { prefix?: string; name?: string; partitions?: number; config?: Record<string, string> } = {}): Promise<string> {
  const topic = options.name ?? uniqueName(options.prefix ?? 'test');
  const kafka = testKafka('scorestream-test-admin');
  onTestFinished(async () => {
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.deleteTopics({ topics: [topic], timeout: 10_000 });
    } catch (error) {
      // A topic left behind is harmless (unique name); say so instead of failing the test.
      console.warn(`useTopic: could not delete ${topic}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await admin.disconnect();
    }
  });
  await createTopicsWithLeaders(kafka, [
    {
      topic,
      numPartitions: options.partitions ?? 1,
      replicationFactor: 1,
      configEntries: Object.entries(options.config ?? {}).map(([name, value]) => ({ name, value })),
    },
  ]);
  return topic;
}

/** Creates topics and waits for their leaders (kafka/create-topics-with-leaders.ts), with a client of its own. */
export async function createTopicsWithLeaders(kafka: Kafka, topics: ITopicConfig[], timeoutMs = 30_000): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await createTopicsWithLeadersOn(admin, topics, { timeoutMs });
  } finally {
    await admin.disconnect();
  }
}

export type ReadMessage = {
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
};

/**
 * Consumes `topic` from the beginning (in its own consumer group unless `groupId` is given) until
 * `count` messages arrived, in arrival order; rejects after `timeoutMs` (default 30 s) saying how
 * many it got.
 */
export async function readMessages(topic: string, options: { count: number; timeoutMs?: number; groupId?: string }): Promise<ReadMessage[]> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const consumer = testKafka('scorestream-test-reader').consumer({ groupId: options.groupId ?? uniqueGroupId('read-messages'), maxWaitTimeInMs: 100 });
  const received: ReadMessage[] = [];
  // A rebalance while reading (a busy broker, files running side by side) re-delivers what was not
  // committed yet: count each (partition, offset) once, or duplicates fill the count.
  const seen = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`readMessages(${topic}): got ${received.length} of ${options.count} messages within ${timeoutMs} ms`)),
        timeoutMs,
      );
      if (options.count <= 0) resolve();
      consumer
        .run({
          eachMessage: async ({ partition, message }) => {
            if (received.length >= options.count || seen.has(`${partition}:${message.offset}`)) return;
            seen.add(`${partition}:${message.offset}`);
            received.push({ partition, offset: message.offset, key: message.key, value: message.value, headers: { ...message.headers } });
            if (received.length >= options.count) resolve();
          },
        })
        .catch(reject);
    });
    return received;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
  }
}

/** What the group coordinator knows of a consumer group now: its state and its members' ids. */
export async function describeGroup(groupId: string): Promise<{ state: string; memberIds: string[] }> {
  const admin = testKafka('scorestream-test-admin').admin();
  await admin.connect();
  try {
    const { groups } = await admin.describeGroups([groupId]);
    const group = groups.find((candidate) => candidate.groupId === groupId);
    return { state: group?.state ?? 'Dead', memberIds: (group?.members ?? []).map((member) => member.memberId) };
  } finally {
    await admin.disconnect();
  }
}

/** A Kafka edge (kafka/kafka-edge.ts) on the test broker, closed when the current test finishes. */
export function testEdge(clientId = 'scorestream-test-edge'): KafkaEdge {
  const edge = createKafkaEdge({ clientId, brokers: testBrokers() });
  onTestFinished(() => edge.close());
  return edge;
}
