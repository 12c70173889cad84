// What one fetch's answer does to a partition of a group-less read (kafka/partition-read.ts):
// messages from the offset asked for up to the end fixed at start, the next offset past markers,
// and a fetch that brought nothing although the partition is behind.
import { IS_CONTROL, IS_TRANSACTIONAL } from '@platformatic/kafka';
import type { KafkaRecord } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import type { FetchResponsePartition } from '../../../kafka/group-less-consumer.ts';
import { newPartitionRead, rewindRead, takeFetchedPartition } from '../../../kafka/partition-read.ts';

const record = (offsetDelta: number, value: string): KafkaRecord => ({ length: 0, attributes: 0, timestampDelta: BigInt(offsetDelta), offsetDelta, key: null, value: Buffer.from(value), headers: [] });

function batch(firstOffset: bigint, values: string[], attributes = 0): NonNullable<FetchResponsePartition['records']>[number] {
  return { firstOffset, length: 0, partitionLeaderEpoch: 0, magic: 2, crc: 0, attributes, lastOffsetDelta: values.length - 1, firstTimestamp: 1_000n, maxTimestamp: 1_000n, producerId: 5n, producerEpoch: 0, firstSequence: 0, records: values.map((value, index) => record(index, value)) };
}

function answer(records: FetchResponsePartition['records'], end: bigint, aborted: FetchResponsePartition['abortedTransactions'] = []): FetchResponsePartition {
  return { partitionIndex: 0, errorCode: 0, highWatermark: end, lastStableOffset: end, logStartOffset: 0n, abortedTransactions: aborted, preferredReadReplica: -1, records };
}

const committed = { committed: true, fetchedAlone: false };
const values = (messages: { value: Buffer | null; offset: string }[]) => messages.map((message) => `${message.offset}:${message.value}`);

describe('takeFetchedPartition', () => {
  it('delivers from the offset asked for (a batch may begin before it) and moves past the last batch', () => {
    const read = newPartitionRead('t', 0, 2n, 10n);
    const messages = takeFetchedPartition(read, answer([batch(0n, ['a', 'b', 'c', 'd'])], 10n), committed);
    expect(values(messages)).toEqual(['2:c', '3:d']);
    expect(read.next).toBe(4n);
    expect(messages[0]?.timestamp).toBe('1002');
  });

  it('does not deliver what lies at or past the end fixed at start, when the read ends there', () => {
    const read = newPartitionRead('t', 0, 0n, 3n);
    const messages = takeFetchedPartition(read, answer([batch(0n, ['a', 'b']), batch(2n, ['c', 'late-1', 'late-2'])], 5n), { ...committed, before: read.target });
    expect(values(messages)).toEqual(['0:a', '1:b', '2:c']);
    expect(read.next).toBe(5n);
  });

  it('moves past a fetch of transaction markers only, delivering nothing', () => {
    const read = newPartitionRead('t', 0, 4n, 6n);
    const messages = takeFetchedPartition(read, answer([batch(4n, ['m'], IS_TRANSACTIONAL | IS_CONTROL), batch(5n, ['m'], IS_TRANSACTIONAL | IS_CONTROL)], 6n), committed);
    expect(messages).toEqual([]);
    expect(read.next).toBe(6n);
  });

  it('hides an aborted transaction listed with the fetch although its marker is not in it', () => {
    const read = newPartitionRead('t', 0, 0n, 3n);
    const messages = takeFetchedPartition(read, answer([batch(0n, ['aborted'], IS_TRANSACTIONAL)], 3n, [{ producerId: 5n, firstOffset: 0n }]), committed);
    expect(messages).toEqual([]);
    expect(read.next).toBe(1n);
  });

  it('delivers an aborted transaction read uncommitted', () => {
    const read = newPartitionRead('t', 0, 0n, 3n);
    const messages = takeFetchedPartition(read, answer([batch(0n, ['aborted'], IS_TRANSACTIONAL)], 3n, [{ producerId: 5n, firstOffset: 0n }]), { committed: false, fetchedAlone: false });
    expect(values(messages)).toEqual(['0:aborted']);
  });

  it('fetches a partition alone after a fetch shared with others brought it nothing although it is behind', () => {
    const read = newPartitionRead('t', 0, 4n, 10n);
    expect(takeFetchedPartition(read, undefined, committed)).toEqual([]);
    expect(read.fetchAlone).toBe(true);
    expect(read.next).toBe(4n);
  });

  it('moves to the end when the partition fetched alone brought nothing: nothing lies between', () => {
    const read = newPartitionRead('t', 0, 4n, 10n);
    read.fetchAlone = true;
    expect(takeFetchedPartition(read, answer([], 12n), { ...committed, fetchedAlone: true })).toEqual([]);
    expect(read.next).toBe(12n);
    expect(read.fetchAlone).toBe(false);
  });

  it('waits, without moving, when a partition at its end brings nothing', () => {
    const read = newPartitionRead('t', 0, 10n, 10n);
    expect(takeFetchedPartition(read, undefined, { ...committed, fetchedAlone: true })).toEqual([]);
    expect(read.next).toBe(10n);
    expect(read.fetchAlone).toBe(false);
    expect(read.reachedTarget).toBe(true);
  });
});

describe('rewindRead', () => {
  it('moves the next fetch to the offset, marks the fetches sent before as out of date and forgets the aborted transactions noted', () => {
    const read = newPartitionRead('t', 0, 0n, 10n);
    // An aborted transaction listed with the first fetch, its marker not in it yet.
    expect(takeFetchedPartition(read, answer([batch(0n, ['aborted'], IS_TRANSACTIONAL)], 3n, [{ producerId: 5n, firstOffset: 0n }]), committed)).toEqual([]);
    read.fetchAlone = true;
    rewindRead(read, 0n);
    expect(read).toMatchObject({ next: 0n, epoch: 1, fetchAlone: false });
    // Fetched again without the listing (a later fetch from 0 lists it again when it applies): delivered as read.
    expect(values(takeFetchedPartition(read, answer([batch(0n, ['a'], IS_TRANSACTIONAL)], 3n), committed))).toEqual(['0:a']);
    rewindRead(read, 0n);
    expect(read.epoch).toBe(2);
  });
});
