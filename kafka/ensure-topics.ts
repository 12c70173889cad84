// Creates the service's output topics when they are missing, so a first start works on a fresh
// cluster. The runs topic is the agents' to create (its partition count is their scaling choice);
// it is created only when asked (the demo and tests).
import type { Kafka } from 'kafkajs';
import { createTopicsWithLeaders } from './create-topics-with-leaders.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';

/**
 * A topic to have; `config`: its topic configs when it is created (say `cleanup.policy: compact`);
 * `partitionsLike`: as many partitions as that existing topic has (a repartition topic and its
 * changelog mirror the runs topic's).
 */
export type TopicSpec = { topic: string; numPartitions?: number; partitionsLike?: string; config?: Record<string, string> };

export async function ensureTopics(kafka: Kafka, topics: TopicSpec[]): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter(({ topic }) => !existing.has(topic));
    if (missing.length === 0) return [];
    const likes = [...new Set(missing.flatMap(({ partitionsLike }) => (partitionsLike !== undefined && existing.has(partitionsLike) ? [partitionsLike] : [])))];
    const counts = new Map(likes.length === 0 ? [] : (await admin.fetchTopicMetadata({ topics: likes })).topics.map((meta) => [meta.name, meta.partitions.length] as const));
    await createTopicsWithLeaders(
      admin,
      missing.map(({ topic, numPartitions, partitionsLike, config }) => ({
        topic,
        numPartitions: numPartitions ?? (partitionsLike === undefined ? undefined : counts.get(partitionsLike)) ?? KAFKA_DEFAULTS.topics.partitions,
        ...(config === undefined ? {} : { configEntries: Object.entries(config).map(([name, value]) => ({ name, value })) }),
      })),
    );
    return missing.map(({ topic }) => topic);
  } catch (error) {
    // Another instance may have created it between list and create.
    if ((error as { type?: string }).type === 'TOPIC_ALREADY_EXISTS') return [];
    throw error;
  } finally {
    await admin.disconnect();
  }
}
