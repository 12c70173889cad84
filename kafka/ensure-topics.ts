// The topics a role creates when they are missing (the topology's `creates`, src/engine/topology/),
// as the specs the edge's admin creates them from (KafkaAdmin.createTopics), so a first start
// works on a fresh cluster. The runs topic is the agents' to create (its partition count is their
// scaling choice); it is created only when asked (the demo and tests).
import type { TopicEntry } from '../src/engine/topology/topic-entry.ts';
import { topicName } from '../src/engine/topology/topology.ts';
import type { Topology } from '../src/engine/topology/topology.ts';

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
