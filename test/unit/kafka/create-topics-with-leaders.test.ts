// createTopicsWithLeaders: creation is not done until the metadata shows every partition's leader,
// and a metadata that does not know the new topic yet (a busy KRaft broker) is waited out, not fatal.
import { KafkaJSProtocolError } from 'kafkajs';
import type { Admin } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { createTopicsWithLeaders } from '../../../kafka/create-topics-with-leaders.ts';

type Answer = Error | { leaders: number[] };

/** An admin whose fetchTopicMetadata answers from a script, one entry per call (the last repeats). */
function scriptedAdmin(answers: Answer[]) {
  const created: unknown[] = [];
  let polls = 0;
  const admin = {
    createTopics: async (options: unknown) => {
      created.push(options);
      return true;
    },
    fetchTopicMetadata: async ({ topics }: { topics: string[] }) => {
      const answer = answers[Math.min(polls, answers.length - 1)]!;
      polls += 1;
      if (answer instanceof Error) throw answer;
      return { topics: topics.map((name) => ({ name, partitions: answer.leaders.map((leader, partitionId) => ({ partitionId, leader })) })) };
    },
  };
  return { admin: admin as unknown as Admin, created, polls: () => polls };
}

// Built as kafkajs builds it from a protocol error (its typings take only the message).
const notHostedYet = () =>
  new KafkaJSProtocolError({ message: 'This server does not host this topic-partition', type: 'UNKNOWN_TOPIC_OR_PARTITION', code: 3, retriable: true } as unknown as Error);

describe('createTopicsWithLeaders', () => {
  it('waits through an unknown topic and leaderless partitions until every partition has a leader', async () => {
    const { admin, created, polls } = scriptedAdmin([notHostedYet(), { leaders: [1, -1] }, { leaders: [1, 1] }]);
    const slept: number[] = [];
    await createTopicsWithLeaders(admin, [{ topic: 'runs', numPartitions: 2 }], { sleep: async (ms) => void slept.push(ms) });
    expect(created).toEqual([{ topics: [{ topic: 'runs', numPartitions: 2 }], timeout: 30_000, waitForLeaders: false }]);
    expect(polls()).toBe(3);
    expect(slept).toEqual([100, 100]);
  });

  it('takes the partitions the broker made, whatever their count (its default, or a topic that existed)', async () => {
    const { admin, polls } = scriptedAdmin([{ leaders: [1, 1, 1] }]);
    await createTopicsWithLeaders(admin, [{ topic: 'runs' }], { sleep: async () => {} });
    expect(polls()).toBe(1);
  });

  it('gives up after its timeout, naming the topic and the last metadata error', async () => {
    const { admin } = scriptedAdmin([notHostedYet()]);
    let clock = 0;
    const wait = { timeoutMs: 1_000, now: () => clock, sleep: async (ms: number) => void (clock += ms) };
    await expect(createTopicsWithLeaders(admin, [{ topic: 'scores' }], wait)).rejects.toThrow(/scores but shows no leader .* after 1000 ms \(This server does not host this topic-partition\)/);
  });

  it('does not wait out an error that is not about leaders', async () => {
    const { admin, polls } = scriptedAdmin([new Error('SASL authentication failed')]);
    await expect(createTopicsWithLeaders(admin, [{ topic: 'scores' }], { sleep: async () => {} })).rejects.toThrow('SASL authentication failed');
    expect(polls()).toBe(1);
  });
});
