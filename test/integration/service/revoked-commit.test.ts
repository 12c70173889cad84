// Why the sinks end every claim when the group is re-joined: neither kafkajs nor the broker
// checks that a committed partition is still the member's. After a rebalance moved a partition
// away, its former owner can still commit it (with the new generation) and overwrite the new
// owner's progress. Pins that fact for the installed kafkajs and broker.
import { describe, expect, it, vi } from 'vitest';
import { testKafka, uniqueGroupId, useTopic } from '../../helpers/kafka.ts';
import { committedOffsets } from './delivery-helpers.ts';

describe('commits of a revoked partition', () => {
  it('are accepted from the former owner after it re-joined with another assignment', async () => {
    const topic = await useTopic({ prefix: 'revoked-commit', partitions: 2 });
    const groupId = uniqueGroupId('revoked-commit');
    const kafka = testKafka('scorestream-test-revoked-commit');
    const assignments: Array<Record<string, number[]>> = [];
    const first = kafka.consumer({ groupId, heartbeatInterval: 500, maxWaitTimeInMs: 100 });
    const second = kafka.consumer({ groupId, heartbeatInterval: 500, maxWaitTimeInMs: 100 });
    first.on(first.events.GROUP_JOIN, (event) => assignments.push(event.payload.memberAssignment));
    try {
      await first.connect();
      await first.subscribe({ topics: [topic] });
      await first.run({ autoCommit: false, eachMessage: async () => undefined });
      await expect.poll(() => assignments.length, { timeout: 20_000 }).toBe(1);
      await second.connect();
      await second.subscribe({ topics: [topic] });
      await second.run({ autoCommit: false, eachMessage: async () => undefined });
      await expect.poll(() => assignments.length, { timeout: 30_000 }).toBe(2);
      const owned = assignments[1]![topic] ?? [];
      expect(owned).toHaveLength(1);
      const revoked = owned[0] === 0 ? 1 : 0;

      // kafkajs drops a commit without a word while its runner is starting, which a consumer
      // restarted after a failed rebalance still is when its GROUP_JOIN event comes; so commit
      // until kafkajs reports the broker's answer. A refusal would throw, and fail the test.
      const answered: number[] = [];
      first.on(first.events.COMMIT_OFFSETS, ({ payload }) => answered.push(...payload.topics.flatMap((entry) => entry.partitions.map((partition) => partition.partition))));
      await vi.waitFor(
        async () => {
          await first.commitOffsets([{ topic, partition: revoked, offset: '7' }]);
          expect(answered).toContain(revoked);
        },
        { timeout: 10_000, interval: 200 },
      );
      expect((await committedOffsets(groupId, topic)).get(revoked)).toBe(7);
    } finally {
      await Promise.all([first.disconnect(), second.disconnect()]);
    }
  });
});
