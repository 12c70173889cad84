// fetchAt (kafka/fetch-at.ts) against the real broker: a message read back by its position with
// one fetch request and no group, and every answer of kafka/fetch-run-message.ts for a position
// that holds none — no such partition, deleted by retention, never written (also inside a
// transaction still open), compacted away, a transaction marker, an aborted transaction's record.
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFetchAt } from '../../../kafka/fetch-at.ts';
import type { MessageReader } from '../../../kafka/fetch-at.ts';
import { KafkaReadError } from '../../../kafka/kafka-read-error.ts';
import type { PlatformaticConnection } from '../../../kafka/platformatic-options.ts';
import { compactedTopic, deleteRecordsBefore, produce, testConnection, watchFetches, writeTransactions } from '../../helpers/group-less-reads.ts';
import { describeGroup, testKafka, uniqueName, useTopic } from '../../helpers/kafka.ts';

function reader(connection: PlatformaticConnection = testConnection('fetch-at'), options: Parameters<typeof createFetchAt>[1] = {}): MessageReader {
  const created = createFetchAt(connection, options);
  onTestFinished(() => created.close());
  return created;
}

describe('fetchAt', () => {
  it('reads a message back by its position, with one fetch request per read and no group', async () => {
    const topic = await useTopic({ prefix: 'fetch-at-found', partitions: 2 });
    await produce(topic, [
      { partition: 1, key: 'run-1', value: 'first', headers: { traceparent: 'tp', tag: ['a', 'b'] } },
      { partition: 1, key: null, value: 'second', timestamp: '1700000000000' },
    ]);
    const connection = testConnection('fetch-at-found');
    const fetches = watchFetches(connection.clientId);
    const messages = reader(connection);
    const first = await messages.fetchAt({ topic, partition: 1, offset: '0' });
    expect(first.found).toBe(true);
    if (!first.found) return;
    expect(first.message).toMatchObject({ key: Buffer.from('run-1'), value: Buffer.from('first'), offset: '0', headers: { traceparent: Buffer.from('tp'), tag: [Buffer.from('a'), Buffer.from('b')] } });
    expect(await messages.fetchAt({ topic, partition: 1, offset: 1n })).toEqual({ found: true, message: { key: null, value: Buffer.from('second'), offset: '1', timestamp: '1700000000000' } });
    // Reads side by side on one reader share its connections (its fetches to a broker take turns).
    const again = await Promise.all(Array.from({ length: 5 }, (_, index) => messages.fetchAt({ topic, partition: 1, offset: BigInt(index % 2) })));
    expect(again.map((result) => (result.found ? result.message.value?.toString() : result.detail))).toEqual(['first', 'second', 'first', 'second', 'first']);
    expect(fetches).toHaveLength(7);
    expect((await describeGroup(`${connection.clientId}.group-less-reads`)).state).toBe('Dead');
  });

  it('reads a message of a committed transaction, and finds none at an aborted one’s record or at a marker', async () => {
    const topic = await useTopic({ prefix: 'fetch-at-transactions' });
    // committed (0), its marker (1), aborted (2), its marker (3), committed (4), its marker (5)
    await writeTransactions(topic, [
      { outcome: 'commit', messages: [{ value: 'c1' }] },
      { outcome: 'abort', messages: [{ value: 'a1' }] },
      { outcome: 'commit', messages: [{ value: 'c2' }] },
    ]);
    const messages = reader();
    const found = await messages.fetchAt({ topic, partition: 0, offset: '4' });
    expect(found.found && found.message.value?.toString()).toBe('c2');
    for (const offset of ['1', '2', '3']) {
      expect(await messages.fetchAt({ topic, partition: 0, offset })).toEqual({ found: false, detail: `offset ${offset} of ${topic}[0] holds no message any more (compacted, or a transaction marker)` });
    }
    const uncommitted = reader(testConnection(), { isolation: 'read_uncommitted' });
    const aborted = await uncommitted.fetchAt({ topic, partition: 0, offset: '2' });
    expect(aborted.found && aborted.message.value?.toString()).toBe('a1');
  });

  it('says a position was never written at or past the end, and inside a transaction still open', async () => {
    const topic = await useTopic({ prefix: 'fetch-at-end' });
    await produce(topic, [{ value: 'only' }]);
    const messages = reader();
    expect(await messages.fetchAt({ topic, partition: 0, offset: '1' })).toEqual({ found: false, detail: `offset 1 of ${topic}[0] was never written (the partition ends at 1)` });
    expect(await messages.fetchAt({ topic, partition: 0, offset: '99' })).toEqual({ found: false, detail: `offset 99 of ${topic}[0] was never written (the partition ends at 1)` });

    const producer = testKafka().producer({ transactionalId: uniqueName('fetch-at-open'), idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const open = await producer.transaction();
    try {
      await open.send({ topic, messages: [{ value: 'undecided' }] });
      expect(await messages.fetchAt({ topic, partition: 0, offset: '1' })).toEqual({ found: false, detail: `offset 1 of ${topic}[0] was never written (the partition ends at 1)` });
    } finally {
      await open.abort();
      await producer.disconnect();
    }
  });

  it('says retention deleted a position below the partition’s start, and that a partition does not exist', async () => {
    const topic = await useTopic({ prefix: 'fetch-at-deleted' });
    await produce(topic, ['a', 'b', 'c'].map((value) => ({ value })));
    await deleteRecordsBefore(topic, 0, 2);
    const messages = reader();
    expect(await messages.fetchAt({ topic, partition: 0, offset: '1' })).toEqual({ found: false, detail: `offset 1 of ${topic}[0] is no longer on the topic (the partition now starts at 2): retention deleted it` });
    expect(await messages.fetchAt({ topic, partition: 3, offset: '0' })).toEqual({ found: false, detail: `the topic '${topic}' has no partition 3` });
    const kept = await messages.fetchAt({ topic, partition: 0, offset: '2' });
    expect(kept.found && kept.message.value?.toString()).toBe('c');
  });

  it('finds no message at a position compaction removed, and the records it kept', async () => {
    const topic = await compactedTopic('fetch-at-compacted');
    const messages = reader();
    expect(await messages.fetchAt({ topic, partition: 0, offset: '1' })).toEqual({ found: false, detail: `offset 1 of ${topic}[0] holds no message any more (compacted, or a transaction marker)` });
    const tombstone = await messages.fetchAt({ topic, partition: 0, offset: '3' });
    expect(tombstone.found && tombstone.message).toMatchObject({ key: Buffer.from('b'), value: null, offset: '3' });
  });

  it('rejects with a KafkaReadError when Kafka cannot be read: a topic that does not exist, a read past its timeout', async () => {
    const topic = await useTopic({ prefix: 'fetch-at-errors' });
    await produce(topic, [{ value: 'a' }]);
    const messages = reader();
    const missing = messages.fetchAt({ topic: `${topic}-missing`, partition: 0, offset: '0' });
    await expect(missing).rejects.toBeInstanceOf(KafkaReadError);
    await expect(missing).rejects.toThrow(new RegExp(`could not read offset 0 of ${topic}-missing\\[0\\]: .*Unknown topic`));
    const hurried = reader(testConnection(), { timeoutMs: 1 });
    await expect(hurried.fetchAt({ topic, partition: 0, offset: '0' })).rejects.toThrow(`could not read offset 0 of ${topic}[0] back within 1 ms`);
  });
});
