// The group consumer on @platformatic/kafka (kafka/platformatic-consumer.ts) against the real
// broker: batches per partition from the group's commit, back-pressure (a partition is fetched
// again only once its handler is done), a pause held by a handler and redelivery from the first
// unresolved message, a seek that makes the batch under way stale, a second member joining (each
// partition with one member, reading from the commits), a permanent pause, and a stop.
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchControl, ConsumedBatch, GroupConsumer, GroupConsumerEvents } from '../../../kafka/kafka-transport.ts';
import { platformaticGroupConsumer } from '../../../kafka/platformatic-consumer.ts';
import { eventually, produce, testConnection } from '../../helpers/group-less-reads.ts';
import { describeGroup, uniqueGroupId, useTopic } from '../../helpers/kafka.ts';

type Seen = { member: string; partition: number; offsets: number[]; values: string[] };
type Handler = (batch: ConsumedBatch, control: BatchControl) => Promise<void>;

const started: GroupConsumer[] = [];
afterEach(async () => {
  await Promise.allSettled(started.splice(0).map((consumer) => consumer.disconnect()));
});

/** A member of `groupId` reading `topic`, recording every batch it is handed; `handle` decides what it resolves (all, by default). */
async function member(name: string, groupId: string, topic: string, seen: Seen[], options: { handle?: Handler; events?: GroupConsumerEvents; fromBeginning?: boolean } = {}): Promise<GroupConsumer> {
  const consumer = platformaticGroupConsumer({
    connection: testConnection(`consumer-${name}`),
    groupId,
    sessionTimeoutMs: 10_000,
    heartbeatIntervalMs: 500,
    maxBytesPerPartition: 1_048_576,
    retries: 3,
    fetchMaxWaitMs: 100,
    events: options.events ?? {},
  });
  started.push(consumer);
  await consumer.run({
    topics: [topic],
    fromBeginning: options.fromBeginning ?? true,
    partitionsConsumedConcurrently: 4,
    eachBatch: async (batch, control) => {
      seen.push({ member: name, partition: batch.partition, offsets: batch.messages.map((message) => Number(message.offset)), values: batch.messages.map((message) => message.value?.toString() ?? '') });
      if (options.handle !== undefined) return options.handle(batch, control);
      for (const message of batch.messages) control.resolveOffset(message.offset);
    },
  });
  return consumer;
}

const valuesOf = (seen: readonly Seen[], partition?: number) => seen.filter((batch) => partition === undefined || batch.partition === partition).flatMap((batch) => batch.values);

function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('platformatic group consumer', () => {
  it('hands over batches of one partition each, in offset order, from the group’s commit, with the high watermark', async () => {
    const topic = await useTopic({ prefix: 'consumer-commit', partitions: 2 });
    await produce(topic, ['a0', 'b0', 'a1', 'b1', 'a2'].map((value) => ({ partition: value.startsWith('a') ? 0 : 1, value })));
    const groupId = uniqueGroupId('consumer-commit');
    const first: Seen[] = [];
    const batches: ConsumedBatch[] = [];
    const consumer = await member('first', groupId, topic, first, {
      handle: async (batch, control) => {
        batches.push(batch);
        for (const message of batch.messages) control.resolveOffset(message.offset);
      },
    });
    await eventually('every message', () => valuesOf(first).length === 5);
    expect(valuesOf(first, 0)).toEqual(['a0', 'a1', 'a2']);
    expect(valuesOf(first, 1)).toEqual(['b0', 'b1']);
    expect(batches.find((batch) => batch.partition === 0)?.highWatermark).toBe('3');
    // Commit partition 0 up to a1 only, and partition 1 whole: a new member reads a2 and nothing of partition 1.
    await consumer.commitOffsets([{ topic, partition: 0, offset: '2' }, { topic, partition: 1, offset: '2' }]);
    await consumer.disconnect();
    const second: Seen[] = [];
    await member('second', groupId, topic, second);
    await produce(topic, [{ partition: 1, value: 'b2' }]);
    await eventually('the uncommitted and the new message', () => valuesOf(second).length === 2);
    expect(valuesOf(second, 0)).toEqual(['a2']);
    expect(valuesOf(second, 1)).toEqual(['b2']);
  });

  it('starts a partition without a commit at its end when fromBeginning is false', async () => {
    const topic = await useTopic({ prefix: 'consumer-latest' });
    await produce(topic, [{ value: 'old' }]);
    const seen: Seen[] = [];
    const joined: Array<Record<string, number[] | undefined>> = [];
    await member('latest', uniqueGroupId('consumer-latest'), topic, seen, { fromBeginning: false, events: { joined: (assignment) => joined.push(assignment) } });
    await eventually('the join', () => joined.length === 1);
    expect(joined[0]).toEqual({ [topic]: [0] });
    await produce(topic, [{ value: 'new' }]);
    await eventually('the new message', () => valuesOf(seen).length === 1);
    expect(valuesOf(seen)).toEqual(['new']);
  });

  it('fetches a partition again only once its handler is done, while the others go on', async () => {
    const topic = await useTopic({ prefix: 'consumer-backpressure', partitions: 2 });
    await produce(topic, [{ partition: 0, value: 'slow-0' }, { partition: 1, value: 'fast-0' }]);
    const held = gate();
    const seen: Seen[] = [];
    await member('backpressure', uniqueGroupId('consumer-backpressure'), topic, seen, {
      handle: async (batch, control) => {
        if (batch.partition === 0) await held.promise;
        for (const message of batch.messages) control.resolveOffset(message.offset);
      },
    });
    try {
      await eventually('both first batches', () => seen.length === 2);
      await produce(topic, [{ partition: 0, value: 'slow-1' }, { partition: 1, value: 'fast-1' }]);
      await eventually('the free partition’s next message', () => valuesOf(seen, 1).length === 2);
      // The held partition was not fetched again meanwhile: its handler still holds slow-0.
      expect(valuesOf(seen, 0)).toEqual(['slow-0']);
    } finally {
      held.open();
    }
    await eventually('the held partition’s next message', () => valuesOf(seen, 0).length === 2);
    expect(valuesOf(seen, 0)).toEqual(['slow-0', 'slow-1']);
  });

  it('holds a partition its handler paused, and delivers it again from the first unresolved message once resumed', async () => {
    const topic = await useTopic({ prefix: 'consumer-pause' });
    await produce(topic, ['m0', 'm1', 'm2'].map((value) => ({ value })));
    let resume: (() => void) | undefined;
    const seen: Seen[] = [];
    await member('pause', uniqueGroupId('consumer-pause'), topic, seen, {
      handle: async (batch, control) => {
        if (resume === undefined) {
          // The first batch: take m0, leave the rest for later (a retry not yet due).
          control.resolveOffset(batch.messages[0]!.offset);
          resume = control.pause();
          return;
        }
        for (const message of batch.messages) control.resolveOffset(message.offset);
      },
    });
    await eventually('the first batch', () => resume !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(seen).toHaveLength(1);
    resume!();
    await eventually('the redelivery', () => seen.length === 2);
    expect(seen[0]!.values).toEqual(['m0', 'm1', 'm2']);
    expect(seen[1]!.values).toEqual(['m1', 'm2']);
  });

  it('on a seek, fetches the partition from there and marks the batch under way stale', async () => {
    const topic = await useTopic({ prefix: 'consumer-seek' });
    await produce(topic, ['s0', 's1', 's2', 's3'].map((value) => ({ value })));
    const held = gate();
    const stale: boolean[] = [];
    const seen: Seen[] = [];
    const consumer = await member('seek', uniqueGroupId('consumer-seek'), topic, seen, {
      handle: async (batch, control) => {
        if (seen.length === 1) await held.promise;
        stale.push(control.isStale());
        for (const message of batch.messages) control.resolveOffset(message.offset);
      },
    });
    await eventually('the first batch', () => seen.length === 1);
    consumer.seek({ topic, partition: 0, offset: '2' });
    held.open();
    await eventually('the batch from the sought offset', () => seen.length === 2);
    expect(stale).toEqual([true, false]);
    expect(seen[1]!.offsets).toEqual([2, 3]);
  });

  it('shares the partitions with a second member, each read from the group’s commits after the rebalance', async () => {
    const topic = await useTopic({ prefix: 'consumer-rebalance', partitions: 4 });
    await produce(topic, [0, 1, 2, 3].map((partition) => ({ partition, value: `before-${partition}` })));
    const groupId = uniqueGroupId('consumer-rebalance');
    const seen: Seen[] = [];
    const assignments = new Map<string, number[]>();
    let rebalances = 0;
    const eventsOf = (name: string): GroupConsumerEvents => ({ joined: (assignment) => assignments.set(name, assignment[topic] ?? []), rebalancing: () => (rebalances += 1) });
    const first = await member('one', groupId, topic, seen, {
      events: eventsOf('one'),
      handle: async (batch, control) => {
        for (const message of batch.messages) control.resolveOffset(message.offset);
        await first.commitOffsets([{ topic, partition: batch.partition, offset: String(Number(batch.messages.at(-1)!.offset) + 1) }]);
      },
    });
    await eventually('the first messages', () => valuesOf(seen).length === 4);
    await member('two', groupId, topic, seen, { events: eventsOf('two') });
    await eventually('both members assigned', () => (assignments.get('one')?.length ?? 0) + (assignments.get('two')?.length ?? 0) === 4 && assignments.size === 2 && (assignments.get('two')?.length ?? 0) > 0);
    expect(rebalances).toBeGreaterThan(0);
    expect([...assignments.get('one')!, ...assignments.get('two')!].sort()).toEqual([0, 1, 2, 3]);
    expect((await describeGroup(groupId)).memberIds).toHaveLength(2);
    await produce(topic, [0, 1, 2, 3].map((partition) => ({ partition, value: `after-${partition}` })));
    await eventually('the messages written after the rebalance', () => valuesOf(seen).filter((value) => value.startsWith('after')).length === 4);
    // Nothing committed was read again, and each later message went to the member that owns its partition.
    expect(valuesOf(seen).filter((value) => value.startsWith('before')).sort()).toEqual(['before-0', 'before-1', 'before-2', 'before-3']);
    for (const batch of seen.filter((entry) => entry.values.some((value) => value.startsWith('after')))) {
      expect(assignments.get(batch.member)).toContain(batch.partition);
    }
  });

  it('drops the pauses of the assignment before on a join: a partition held by a handler that never resumes is read again after a rebalance', async () => {
    // Two partitions, both held; a second member of the group joins for the same topic. The
    // library's round-robin assignor deals a topic's partitions over every member of the group
    // (whatever each subscribed to), so with two members each keeps exactly one partition: the
    // holder's is one it held before the rebalance, and it must be read again from the commit.
    const topic = await useTopic({ prefix: 'consumer-hold-rebalance', partitions: 2 });
    await produce(topic, [{ partition: 0, value: 'held' }, { partition: 1, value: 'held' }]);
    const groupId = uniqueGroupId('consumer-hold-rebalance');
    const seen: Seen[] = [];
    let joins = 0;
    await member('holder', groupId, topic, seen, {
      events: { joined: () => (joins += 1) },
      // Takes nothing and pauses its partition without ever resuming it.
      handle: async (_batch, control) => void control.pause(),
    });
    await eventually('the first batch of each partition', () => seen.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(seen).toHaveLength(2);
    await member('other', groupId, topic, []);
    await eventually('the re-join', () => joins >= 2);
    await eventually('the held message read again', () => seen.length >= 3);
    expect(seen[2]!.values).toEqual(['held']);
  });

  it('no longer fetches a topic paused for good, and stops delivering on disconnect', async () => {
    const topic = await useTopic({ prefix: 'consumer-stop', partitions: 2 });
    const seen: Seen[] = [];
    const consumer = await member('stop', uniqueGroupId('consumer-stop'), topic, seen);
    await produce(topic, [{ partition: 0, value: 'first' }]);
    await eventually('the first message', () => seen.length === 1);
    consumer.pause([{ topic, partitions: [1] }]);
    await produce(topic, [{ partition: 1, value: 'paused' }, { partition: 0, value: 'second' }]);
    await eventually('the second message', () => seen.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(valuesOf(seen)).toEqual(['first', 'second']);
    await consumer.disconnect();
    await produce(topic, [{ partition: 0, value: 'after-stop' }]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(valuesOf(seen)).toEqual(['first', 'second']);
  });
});
