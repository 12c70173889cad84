// Creates missing topics with @platformatic/kafka's Admin and waits until the broker's metadata
// shows a leader for each of their partitions, so that the first produce to a new topic does not
// fail — what ensure-topics.ts and create-topics-with-leaders.ts do on kafkajs, with the same
// TopicSpec: a partition count taken from another topic (a repartition topic and its changelog
// mirror the runs topic), topic configs (say `cleanup.policy: compact`). One created meanwhile by
// someone else (TOPIC_ALREADY_EXISTS) is waited for as well, but not reported as created.
import type { Admin } from '@platformatic/kafka';
import { setTimeout as delay } from 'node:timers/promises';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import { hasPlatformaticErrorId, isRetriablePlatformaticError, describePlatformaticError } from './platformatic-errors.ts';
import type { TopicSpec } from './ensure-topics.ts';
import type { LeaderWait } from './while-leaders-settle.ts';

/**
 * Resolves with the topics it created (not those that existed). A topic `partitionsLike` another
 * one created here is created after it. Throws, naming the topics, when leaders are still missing
 * after `wait.timeoutMs`.
 */
export async function createMissingTopics(admin: Admin, specs: readonly TopicSpec[], wait: LeaderWait = {}): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = specs.filter(({ topic }) => !existing.has(topic));
  // Mirrors after what they mirror: a partition count can be read only off a topic that exists.
  const waitsFor = (spec: TopicSpec) => spec.partitionsLike !== undefined && !existing.has(spec.partitionsLike) && missing.some(({ topic }) => topic === spec.partitionsLike);
  const created: string[] = [];
  for (const pass of [missing.filter((spec) => !waitsFor(spec)), missing.filter(waitsFor)]) {
    if (pass.length === 0) continue;
    const likes = [...new Set(pass.flatMap(({ partitionsLike }) => (partitionsLike === undefined ? [] : [partitionsLike])))];
    const counts = new Map<string, number>();
    for (const like of likes) {
      const count = await partitionCountOf(admin, like);
      if (count !== undefined) counts.set(like, count);
    }
    const countOf = (spec: TopicSpec) => spec.numPartitions ?? (spec.partitionsLike === undefined ? undefined : counts.get(spec.partitionsLike)) ?? KAFKA_DEFAULTS.topics.partitions;
    // One request per topic: the library's configs apply to every topic of a request.
    const outcomes = await Promise.all(pass.map((spec) => createOne(admin, spec, countOf(spec))));
    await waitForLeaders(admin, pass.map(({ topic }) => topic), wait);
    created.push(...outcomes.filter((topic): topic is string => topic !== undefined));
  }
  return created;
}

/** The topic's name when this call created it; undefined when another instance did meanwhile. */
async function createOne(admin: Admin, spec: TopicSpec, partitions: number): Promise<string | undefined> {
  try {
    await admin.createTopics({ topics: [{ topic: spec.topic, partitions }], configs: Object.entries(spec.config ?? {}).map(([name, value]) => ({ name, value })) });
    return spec.topic;
  } catch (error) {
    if (hasPlatformaticErrorId(error, 'TOPIC_ALREADY_EXISTS')) return undefined;
    throw error;
  }
}

/** How many partitions `topic` has; undefined when it does not exist (listed first: the library's answer for an unknown topic says nothing retriable). */
export async function partitionCountOf(admin: Admin, topic: string): Promise<number | undefined> {
  if (!(await admin.listTopics()).includes(topic)) return undefined;
  return (await admin.metadata({ topics: [topic], forceUpdate: true })).topics.get(topic)?.partitionsCount;
}

/** Polls the metadata until every partition of `topics` has a leader; throws after `wait.timeoutMs` naming those still without. */
export async function waitForLeaders(admin: Admin, topics: readonly string[], wait: LeaderWait = {}): Promise<void> {
  const timeoutMs = wait.timeoutMs ?? KAFKA_DEFAULTS.topics.leaderWaitMs;
  const now = wait.now ?? Date.now;
  const sleep = wait.sleep ?? delay;
  const deadline = now() + timeoutMs;
  for (;;) {
    const { missing, error } = await topicsWithoutLeaders(admin, topics);
    if (missing.length === 0) return;
    if (now() > deadline) {
      throw new Error(`Kafka created ${missing.join(', ')} but shows no leader for every partition after ${timeoutMs} ms${error === undefined ? '' : ` (${error})`}; check the broker's health (\`scorestream kafka status\`)`);
    }
    await sleep(KAFKA_DEFAULTS.topics.leaderPollMs);
  }
}

async function topicsWithoutLeaders(admin: Admin, topics: readonly string[]): Promise<{ missing: string[]; error?: string }> {
  // Listed first: the library answers a topic its metadata does not know yet with an error that
  // says nothing retriable, whereas a listing simply leaves it out.
  const listed = new Set(await admin.listTopics());
  const known = topics.filter((topic) => listed.has(topic));
  const unknown = topics.filter((topic) => !listed.has(topic));
  if (known.length === 0) return { missing: unknown };
  try {
    const metadata = await admin.metadata({ topics: known, forceUpdate: true, retries: 0 });
    // Any partition count: a topic that already existed keeps its own.
    const ready = (topic: string) => {
      const partitions = metadata.topics.get(topic)?.partitions ?? [];
      return partitions.length > 0 && partitions.every((partition) => partition !== undefined && partition.leader >= 0);
    };
    return { missing: [...unknown, ...known.filter((topic) => !ready(topic))] };
  } catch (error) {
    // A partition without a leader yet fails the whole metadata request (LEADER_NOT_AVAILABLE).
    if (isRetriablePlatformaticError(error)) return { missing: topics.slice(), error: describePlatformaticError(error) };
    throw error;
  }
}
