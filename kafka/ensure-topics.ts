// Creates the topics a role creates when they are missing (the topology's `creates`,
// src/engine/topology/), so a first start works on a fresh cluster. The runs topic is the agents' to
// create (its partition count is their scaling choice); it is created only when asked (the demo
// and tests).
import type { Kafka } from 'kafkajs';
import type { TopicEntry } from '../src/engine/topology/topic-entry.ts';
import { topicName } from '../src/engine/topology/topology.ts';
import type { Topology } from '../src/engine/topology/topology.ts';
import { createTopicsWithLeaders } from './create-topics-with-leaders.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';

/**
 * A topic to have; `config`: its topic configs when it is created (say `cleanup.policy: compact`);
 * `partitionsLike`: as many partitions as that topic has (a repartition topic and its changelog
 * mirror the runs topic's).
 */
export type TopicSpec = { topic: string; numPartitions?: number; partitionsLike?: string; config?: Record<string, string> };

/** How the topology's entries are created: their partition rule and cleanup policy as topic specs. */
export function topicSpecsOf(topology: Topology, entries: readonly TopicEntry[]): TopicSpec[] {
  return entries.map((entry) => {
    const { partitions } = entry;
    return {
      topic: entry.name,
      ...(partitions.rule === 'one' ? { numPartitions: 1 } : {}),
      ...(partitions.rule === 'like' ? { partitionsLike: topicName(topology, partitions.topic) } : {}),
      ...(entry.cleanup === 'compact' ? { config: { 'cleanup.policy': 'compact' } } : {}),
    };
  });
}

/** Creates the missing ones (a topic `partitionsLike` another one created here after it); resolves with their names. */
export async function ensureTopics(kafka: Kafka, topics: TopicSpec[]): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter(({ topic }) => !existing.has(topic));
    if (missing.length === 0) return [];
    const created: string[] = [];
    // Mirrors after what they mirror: a partition count can be read only off a topic that exists.
    const waitsFor = (spec: TopicSpec) => spec.partitionsLike !== undefined && !existing.has(spec.partitionsLike) && missing.some(({ topic }) => topic === spec.partitionsLike);
    for (const pass of [missing.filter((spec) => !waitsFor(spec)), missing.filter(waitsFor)]) {
      if (pass.length === 0) continue;
      // A topic mirrored that does not exist (the feedback join creates the rescore topic where no runs topic is) leaves the default count.
      const likes = [...new Set(pass.flatMap(({ partitionsLike }) => (partitionsLike === undefined || !(existing.has(partitionsLike) || created.includes(partitionsLike)) ? [] : [partitionsLike])))];
      const counts = new Map(likes.length === 0 ? [] : (await admin.fetchTopicMetadata({ topics: likes })).topics.map((meta) => [meta.name, meta.partitions.length] as const));
      await createTopicsWithLeaders(
        admin,
        pass.map(({ topic, numPartitions, partitionsLike, config }) => ({
          topic,
          numPartitions: numPartitions ?? (partitionsLike === undefined ? undefined : counts.get(partitionsLike)) ?? KAFKA_DEFAULTS.topics.partitions,
          ...(config === undefined ? {} : { configEntries: Object.entries(config).map(([name, value]) => ({ name, value })) }),
        })),
      );
      created.push(...pass.map(({ topic }) => topic));
    }
    return created;
  } catch (error) {
    // Another instance may have created it between list and create.
    if ((error as { type?: string }).type === 'TOPIC_ALREADY_EXISTS') return [];
    throw error;
  } finally {
    await admin.disconnect();
  }
}
