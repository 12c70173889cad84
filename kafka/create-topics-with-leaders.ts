// Creates topics and waits until the broker's metadata shows a leader for each of their
// partitions, so the first produce to a new topic does not fail. Not kafkajs' own
// `waitForLeaders`: that gives up at once when the metadata, which on a busy KRaft broker lags the
// controller by a moment, does not know the new topic yet ("This server does not host this
// topic-partition") — seen by `demo` and the tests on a loaded 2-core machine.
import type { Admin, ITopicConfig } from 'kafkajs';
import { setTimeout as delay } from 'node:timers/promises';
import { isLeaderNotYetKnown } from './while-leaders-settle.ts';
import type { LeaderWait } from './while-leaders-settle.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';

/** `admin` must be connected. Throws, naming the topics, when leaders are still missing after `timeoutMs` (default 30 s). */
export async function createTopicsWithLeaders(admin: Admin, topics: ITopicConfig[], wait: LeaderWait = {}): Promise<void> {
  const timeoutMs = wait.timeoutMs ?? KAFKA_DEFAULTS.topics.leaderWaitMs;
  const now = wait.now ?? Date.now;
  const sleep = wait.sleep ?? delay;
  await admin.createTopics({ topics, timeout: timeoutMs, waitForLeaders: false });
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

async function topicsWithoutLeaders(admin: Admin, topics: ITopicConfig[]): Promise<{ missing: string[]; error?: string }> {
  const names = topics.map((topic) => topic.topic);
  try {
    const metadata = await admin.fetchTopicMetadata({ topics: names });
    // Any partition count: the broker's default applies when none was asked for, and a topic that
    // already existed keeps its own (createTopics leaves it as it is).
    const ready = (config: ITopicConfig) => {
      const partitions = metadata.topics.find((candidate) => candidate.name === config.topic)?.partitions ?? [];
      return partitions.length > 0 && partitions.every((partition) => partition.leader >= 0);
    };
    return { missing: topics.filter((config) => !ready(config)).map((config) => config.topic) };
  } catch (error) {
    // A topic the metadata does not know yet fails at once; one without leaders after kafkajs' retries.
    if (isLeaderNotYetKnown(error)) return { missing: names, error: (error as Error).message };
    throw error;
  }
}
