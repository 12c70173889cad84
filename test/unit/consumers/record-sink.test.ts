// The at-least-once sink against a fake consumer and publisher: what is committed (the
// contiguous finished prefix, once), when run slots are freed, and that work of an ended
// assignment is counted as stale and never committed.
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { createAtLeastOnceSink } from '../../../consumers/record-sink.ts';
import { ServiceStats } from '../../../consumers/service-stats.ts';
import type { RecordPublisher } from '../../../producers/record-publisher.ts';

type Offsets = Array<{ topic: string; partition: number; offset: string }>;

function setup(options: { commitFails?: boolean } = {}) {
  const commits: Offsets[] = [];
  const consumer = {
    commitOffsets: vi.fn(async (offsets: Offsets) => {
      if (options.commitFails) throw new Error('The group is rebalancing');
      commits.push(offsets);
    }),
  };
  const publisher: RecordPublisher = { publish: vi.fn(async () => undefined), flush: vi.fn(async () => undefined), pendingRecords: 0 };
  const stats = new ServiceStats();
  const sink = createAtLeastOnceSink({ consumer, publisher, stats, logger: pino({ level: 'silent' }) });
  return { sink, consumer, publisher, stats, commits };
}

describe('at-least-once sink', () => {
  it('publishes through the shared publisher and commits only the contiguous finished prefix, once', async () => {
    const { sink, publisher, commits } = setup();
    const claim = await sink.claim('runs', 0);
    const release = vi.fn();
    const tickets = ['5', '6', '7'].map((offset) => claim.open(offset, release));
    expect(tickets[0]!.output).toBe(publisher);
    tickets[1]!.finished();
    expect(release).toHaveBeenCalledTimes(1); // the slot frees as soon as the message is done
    await sink.commit();
    expect(commits).toEqual([]); // 5 still running
    tickets[0]!.finished();
    await sink.commit();
    await sink.commit();
    expect(commits).toEqual([[{ topic: 'runs', partition: 0, offset: '7' }]]);
  });

  it('keeps one claim per partition within an assignment, and a new one after it ended', async () => {
    const { sink } = setup();
    const first = await sink.claim('runs', 1);
    expect(await sink.claim('runs', 1)).toBe(first);
    expect(first.active).toBe(true);
    sink.assignmentEnded();
    expect(first.active).toBe(false);
    const second = await sink.claim('runs', 1);
    expect(second).not.toBe(first);
    expect(second.active).toBe(true);
  });

  it('never commits work that finishes after its assignment ended, and counts it as stale', async () => {
    const { sink, stats, commits } = setup();
    const claim = await sink.claim('runs', 0);
    const release = vi.fn();
    const ticket = claim.open('3', release);
    sink.assignmentEnded();
    ticket.finished();
    expect(release).toHaveBeenCalledTimes(1);
    expect(stats.staleCompletions).toBe(1);
    await sink.commit();
    expect(commits).toEqual([]);
  });

  it('an abandoned message frees its slot but holds the prefix back', async () => {
    const { sink, commits } = setup();
    const claim = await sink.claim('runs', 0);
    const release = vi.fn();
    const [first, second] = ['0', '1'].map((offset) => claim.open(offset, release));
    first!.abandoned();
    second!.finished();
    second!.finished(); // settling twice changes nothing
    expect(release).toHaveBeenCalledTimes(2);
    await sink.commit();
    expect(commits).toEqual([]);
  });

  it('a failed commit is not taken as done: the next commit sends the same offsets', async () => {
    const failing = setup({ commitFails: true });
    const claim = await failing.sink.claim('runs', 0);
    claim.open('0', () => undefined).finished();
    await failing.sink.commit();
    await failing.sink.commit();
    expect(failing.consumer.commitOffsets).toHaveBeenCalledTimes(2);
    expect(failing.consumer.commitOffsets).toHaveBeenLastCalledWith([{ topic: 'runs', partition: 0, offset: '1' }]);
  });

  it('close flushes the publisher, then commits what finished', async () => {
    const { sink, publisher, consumer } = setup();
    const claim = await sink.claim('runs', 2);
    claim.open('9', () => undefined).finished();
    await sink.close();
    expect(publisher.flush).toHaveBeenCalledTimes(1);
    expect(consumer.commitOffsets).toHaveBeenCalledWith([{ topic: 'runs', partition: 2, offset: '10' }]);
  });
});
