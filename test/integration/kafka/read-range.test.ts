// readRange (kafka/read-range.ts) against the real broker: where a read starts (the beginning, a
// time, offsets given) and ends (where each partition stood at start, or never), read_committed
// across fetches (an aborted transaction whose marker comes in a later fetch), tails of markers
// only, a compacted topic, back-pressure, stop, a start retention deleted meanwhile, and errors.
import { describe, expect, it } from 'vitest';
import { KafkaReadError } from '../../../kafka/kafka-read-error.ts';
import { collectRange, compactedTopic, deleteRecordsBefore, eventually, produce, testConnection, watchFetches, writeTransactions } from '../../helpers/group-less-reads.ts';
import { describeGroup, useTopic } from '../../helpers/kafka.ts';

const texts = (collected: { partition: number; value: string | null }[]) => collected.map(({ partition, value }) => `${partition}:${value}`).sort();

/** A promise and what settles it, for a handler held until the test lets it go (in a finally: stop() waits for a held handler). */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('readRange', () => {
  it('reads every partition from the beginning to where it stood, with keys and headers, without joining a group', async () => {
    const topic = await useTopic({ prefix: 'range-beginning', partitions: 3 });
    await produce(topic, [0, 1, 2, 0, 1, 0].map((partition, index) => ({ partition, key: `k${index}`, value: `v${index}`, headers: { trace: `t${index}` } })));
    const connection = testConnection('range-beginning');
    const { read, collected } = collectRange(connection, { topics: [topic], from: 'beginning', until: 'end-at-start' });
    await read.caughtUp;
    await read.done;
    expect(texts(collected)).toEqual(['0:v0', '0:v3', '0:v5', '1:v1', '1:v4', '2:v2']);
    const first = collected.find(({ value }) => value === 'v3');
    expect(first).toEqual({ topic, partition: 0, offset: '1', key: 'k3', value: 'v3', headers: { trace: 't3' } });
    // Offsets in order within a partition.
    expect(collected.filter(({ partition }) => partition === 0).map(({ offset }) => offset)).toEqual(['0', '1', '2']);
    expect((await describeGroup(`${connection.clientId}.group-less-reads`)).state).toBe('Dead');
  });

  it('finishes at once on empty partitions', async () => {
    const topic = await useTopic({ prefix: 'range-empty', partitions: 2 });
    const { read, collected } = collectRange(testConnection(), { topics: [topic], from: 'beginning', until: 'end-at-start' });
    await read.caughtUp;
    await read.done;
    expect(collected).toEqual([]);
  });

  it('ends each partition where it stood when the read started, not at what was written since', async () => {
    const topic = await useTopic({ prefix: 'range-end-at-start' });
    for (const value of ['a', 'b', 'c']) await produce(topic, [{ value }]);
    const held = gate();
    let calls = 0;
    const { read, collected } = collectRange(testConnection(), {
      topics: [topic],
      from: 'beginning',
      until: 'end-at-start',
      maxBytesPerPartition: 1,
      onBatch: async () => {
        calls += 1;
        if (calls === 1) await held.promise;
      },
    });
    try {
      await eventually('the first batch', () => calls === 1);
      await produce(topic, [{ value: 'late-1' }, { value: 'late-2' }]);
    } finally {
      held.open();
    }
    await read.done;
    expect(collected.map(({ value }) => value)).toEqual(['a', 'b', 'c']);
  });

  it('follows the partitions live after catching up, until stopped', async () => {
    const topic = await useTopic({ prefix: 'range-follow', partitions: 2 });
    await produce(topic, [{ partition: 0, value: 'before' }]);
    const { read, collected } = collectRange(testConnection(), { topics: [topic], from: 'beginning', until: 'follow' });
    await read.caughtUp;
    await produce(topic, [{ partition: 1, value: 'after-1' }, { partition: 0, value: 'after-2' }]);
    await eventually('the records written after catching up', () => collected.length === 3);
    await read.stop();
    await read.done;
    expect(texts(collected)).toEqual(['0:after-2', '0:before', '1:after-1']);
  });

  it('starts each partition at the first record at or after a time, at its end where none is that late', async () => {
    const topic = await useTopic({ prefix: 'range-time', partitions: 2 });
    const now = Date.now();
    const at = (ms: number) => String(ms);
    await produce(topic, [
      { partition: 0, value: 'old-0', timestamp: at(now - 3_600_000) },
      { partition: 0, value: 'new-0', timestamp: at(now) },
      { partition: 1, value: 'old-1', timestamp: at(now - 3_600_000) },
    ]);
    const { read, collected } = collectRange(testConnection(), { topics: [topic], from: { timestampMs: now - 1_800_000 }, until: 'end-at-start' });
    await read.done;
    expect(texts(collected)).toEqual(['0:new-0']);
    expect(collected[0]?.offset).toBe('1');
  });

  it('starts the partitions listed at the offsets given', async () => {
    const topic = await useTopic({ prefix: 'range-offsets', partitions: 3 });
    await produce(topic, ['a', 'b', 'c', 'd'].flatMap((value) => [0, 1, 2].map((partition) => ({ partition, value: `${partition}${value}` }))));
    const { read, collected } = collectRange(testConnection(), {
      partitions: [{ topic, partition: 0 }, { topic, partition: 2 }],
      from: { offsets: [{ topic, partition: 0, offset: 2n }, { topic, partition: 2, offset: 3n }] },
      until: 'end-at-start',
    });
    await read.done;
    expect(texts(collected)).toEqual(['0:0c', '0:0d', '2:2d']);
  });

  it('never delivers an aborted transaction, also when its ABORT marker comes in a later fetch; shows committed ones', async () => {
    const topic = await useTopic({ prefix: 'range-aborted' });
    await writeTransactions(topic, [
      { outcome: 'commit', messages: [{ value: 'c1' }] },
      { outcome: 'abort', messages: [{ value: 'a1' }, { value: 'a2' }] },
      { outcome: 'commit', messages: [{ value: 'c2' }] },
    ]);
    await produce(topic, [{ value: 'plain' }]);
    const connection = testConnection('range-aborted');
    const fetches = watchFetches(connection.clientId);
    // One record batch per fetch: c1 (0), marker (1), a1 a2 (2-3), marker (4), c2 (5), marker (6), plain (7).
    const { read, collected } = collectRange(connection, { topics: [topic], from: 'beginning', until: 'end-at-start', maxBytesPerPartition: 1 });
    await read.done;
    expect(collected.map(({ value }) => value)).toEqual(['c1', 'c2', 'plain']);
    // The aborted batch was fetched on its own, before the fetch that brought its marker.
    const offsets = fetches.flatMap(({ partitions }) => partitions.map(({ fetchOffset }) => fetchOffset));
    expect(offsets).toContain(2n);
    expect(offsets).toContain(4n);

    const uncommitted = collectRange(testConnection(), { topics: [topic], from: 'beginning', until: 'end-at-start', maxBytesPerPartition: 1, isolation: 'read_uncommitted' });
    await uncommitted.read.done;
    expect(uncommitted.collected.map(({ value }) => value)).toEqual(['c1', 'a1', 'a2', 'c2', 'plain']);
  });

  it('finishes partitions whose remaining records are transaction markers and aborted ones only', async () => {
    const topic = await useTopic({ prefix: 'range-markers', partitions: 2 });
    await produce(topic, [{ partition: 0, value: 'plain' }]);
    await writeTransactions(topic, [
      { outcome: 'abort', messages: [{ partition: 0, value: 'aborted' }] },
      { outcome: 'commit', messages: [{ partition: 1, value: 'committed' }] },
    ]);
    for (const maxBytesPerPartition of [1, 1_048_576]) {
      const { read, collected } = collectRange(testConnection(), { topics: [topic], from: 'beginning', until: 'end-at-start', maxBytesPerPartition });
      await read.done;
      expect(texts(collected)).toEqual(['0:plain', '1:committed']);
    }
  });

  it('reads a compacted partition to its end across the gaps compaction left', async () => {
    const topic = await compactedTopic('range-compacted');
    for (const maxBytesPerPartition of [1, 1_048_576]) {
      const { read, collected } = collectRange(testConnection(), { topics: [topic], from: 'beginning', until: 'end-at-start', maxBytesPerPartition });
      await read.done;
      expect(collected.map(({ offset, key, value }) => `${offset}:${key}=${value}`)).toEqual(['2:a=2', '3:b=null', '4:c=1']);
    }
  });

  it('does not fetch a partition again while its handler holds its messages (back-pressure), and fetches the others', async () => {
    const topic = await useTopic({ prefix: 'range-backpressure', partitions: 2 });
    for (const value of ['a', 'b', 'c']) await produce(topic, [{ partition: 0, value: `0${value}` }, { partition: 1, value: `1${value}` }]);
    const connection = testConnection('range-backpressure');
    const fetches = watchFetches(connection.clientId);
    const held = gate();
    let heldFrom: number | undefined;
    const { read, collected } = collectRange(connection, {
      topics: [topic],
      from: 'beginning',
      until: 'end-at-start',
      maxBytesPerPartition: 1,
      onBatch: async (_topic, partition) => {
        if (partition !== 0 || heldFrom !== undefined) return;
        heldFrom = fetches.length;
        await held.promise;
      },
    });
    try {
      await eventually('partition 1 read to its end', () => collected.filter(({ partition }) => partition === 1).length === 3);
      const whileHeld = fetches.slice(heldFrom);
      expect(whileHeld.length).toBeGreaterThan(0);
      expect(whileHeld.flatMap(({ partitions }) => partitions.map(({ partition }) => partition))).not.toContain(0);
      expect(collected.filter(({ partition }) => partition === 0).map(({ value }) => value)).toEqual(['0a']);
    } finally {
      held.open();
    }
    await read.done;
    expect(texts(collected)).toEqual(['0:0a', '0:0b', '0:0c', '1:1a', '1:1b', '1:1c']);
  });

  it('stops mid-read: no handler runs after stop, done resolves, caughtUp rejects', async () => {
    const topic = await useTopic({ prefix: 'range-stop' });
    for (let index = 0; index < 8; index += 1) await produce(topic, [{ value: `v${index}` }]);
    let stopping: Promise<void> | undefined;
    let callsAfterStop = 0;
    const { read, collected } = collectRange(testConnection(), {
      topics: [topic],
      from: 'beginning',
      until: 'end-at-start',
      maxBytesPerPartition: 1,
      onBatch: () => {
        if (stopping !== undefined) callsAfterStop += 1;
        if (collected.length === 2) stopping = read.stop();
      },
    });
    await eventually('the read to be stopped', () => stopping !== undefined);
    await stopping;
    await read.done;
    await expect(read.caughtUp).rejects.toThrow(/stopped before it caught up/);
    expect(callsAfterStop).toBe(0);
    expect(collected.map(({ value }) => value)).toEqual(['v0', 'v1']);
  });

  it('restarts at the partition’s new start when retention deleted the next offset, and says so', async () => {
    const topic = await useTopic({ prefix: 'range-out-of-range' });
    for (let index = 0; index < 6; index += 1) await produce(topic, [{ value: `v${index}` }]);
    const warnings: string[] = [];
    const held = gate();
    const { read, collected } = collectRange(testConnection(), {
      topics: [topic],
      from: 'beginning',
      until: 'end-at-start',
      maxBytesPerPartition: 1,
      onWarning: (message) => warnings.push(message),
      onBatch: () => (collected.length === 1 ? held.promise : undefined),
    });
    try {
      await eventually('the first batch', () => collected.length === 1);
      await deleteRecordsBefore(topic, 0, 4);
    } finally {
      held.open();
    }
    await read.done;
    expect(collected.map(({ offset }) => offset)).toEqual(['0', '4', '5']);
    expect(warnings).toEqual([`offset 1 of ${topic}[0] is no longer on the topic (retention deleted it): reading on from 4, where the partition now starts`]);
  });

  it('moves a given start below the partition’s start up to it, and says so', async () => {
    const topic = await useTopic({ prefix: 'range-start-deleted' });
    await produce(topic, ['a', 'b', 'c'].map((value) => ({ value })));
    await deleteRecordsBefore(topic, 0, 2);
    const warnings: string[] = [];
    const { read, collected } = collectRange(testConnection(), { topics: [topic], from: { offsets: [{ topic, partition: 0, offset: 0n }] }, until: 'end-at-start', onWarning: (message) => warnings.push(message) });
    await read.done;
    expect(collected.map(({ value }) => value)).toEqual(['c']);
    expect(warnings).toEqual([`offset 0 of ${topic}[0] is no longer on the topic (retention deleted it): reading from 2, where the partition now starts`]);
  });

  it('rejects, naming what it could not read, for a topic or a partition that does not exist and for a handler that throws', async () => {
    const topic = await useTopic({ prefix: 'range-errors' });
    await produce(topic, [{ value: 'a' }]);
    const missing = collectRange(testConnection(), { topics: [`${topic}-missing`], from: 'beginning', until: 'end-at-start', leaderWaitMs: 1_000 });
    await expect(missing.read.done).rejects.toThrow(new RegExp(`could not start reading ${topic}-missing: .*Unknown topic`));
    await expect(missing.read.caughtUp).rejects.toBeInstanceOf(KafkaReadError);

    const noPartition = collectRange(testConnection(), { partitions: [{ topic, partition: 4 }], from: 'beginning', until: 'end-at-start' });
    await expect(noPartition.read.done).rejects.toThrow(`the topic '${topic}' has no partition 4 (it has 1)`);

    const throwing = collectRange(testConnection(), { topics: [topic], from: 'beginning', until: 'follow', onBatch: () => Promise.reject(new Error('the state store is full')) });
    await expect(throwing.read.done).rejects.toThrow(`the handler of ${topic}[0] failed on offsets 0–0: the state store is full`);
  });
});
