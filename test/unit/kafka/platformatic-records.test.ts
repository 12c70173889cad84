// Records between the project's shapes and @platformatic/kafka's (kafka/platformatic-records.ts):
// what a consumed message becomes, and where a record to produce is placed.
import { describe, expect, it } from 'vitest';
import { placementHash } from '../../../kafka/key-partitioner.ts';
import { toConsumedMessage, toMessageToProduce } from '../../../kafka/platformatic-records.ts';

describe('toConsumedMessage', () => {
  it('gives offsets and timestamps as decimal strings, null for a missing key or value, and a repeated header as an array', () => {
    const consumed = toConsumedMessage({
      key: undefined as unknown as Buffer,
      value: Buffer.from('v'),
      offset: 12345678901234n,
      timestamp: 1700000000000n,
      headerEntries: [
        [Buffer.from('traceparent'), Buffer.from('tp')],
        [Buffer.from('tag'), Buffer.from('a')],
        [Buffer.from('tag'), Buffer.from('b')],
      ],
    });
    expect(consumed).toEqual({ key: null, value: Buffer.from('v'), offset: '12345678901234', timestamp: '1700000000000', headers: { traceparent: Buffer.from('tp'), tag: [Buffer.from('a'), Buffer.from('b')] } });
  });

  it('leaves headers out when there are none', () => {
    expect(toConsumedMessage({ key: Buffer.from('k'), value: undefined as unknown as Buffer, offset: 0n, timestamp: 1n, headerEntries: [] })).toEqual({ key: Buffer.from('k'), value: null, offset: '0', timestamp: '1' });
  });
});

describe('toMessageToProduce', () => {
  it('places a record by its partitionKey, else its key (the placement hash, reduced by the client), and an explicit partition wins', () => {
    expect(toMessageToProduce({ topic: 'scores', key: 'score-1', partitionKey: 'run-1', value: 'a' })).toEqual({ topic: 'scores', key: Buffer.from('score-1'), value: Buffer.from('a'), partition: placementHash('run-1') });
    expect(toMessageToProduce({ topic: 'scores', key: 'run-2', value: 'b' }).partition).toBe(placementHash('run-2'));
    expect(toMessageToProduce({ topic: 'state', key: 'thread', partitionKey: 'x', value: 'c', partition: 3 }).partition).toBe(3);
  });

  it('sends a keyless record round-robin (no partition), a tombstone without a value, and every value of a repeated header', () => {
    const message = toMessageToProduce({ topic: 'dlq', key: null, value: null, headers: { origin: 'scorestream', tag: ['a', Buffer.from('b')] } });
    expect(message).toEqual({ topic: 'dlq', headers: expect.any(Map) });
    expect([...(message.headers as Map<Buffer, Buffer>).entries()].map(([name, value]) => [String(name), String(value)])).toEqual([
      ['origin', 'scorestream'],
      ['tag', 'a'],
      ['tag', 'b'],
    ]);
  });

  it('encodes a frozen headers object once (the origin header every record shares) and a mutable one for each record', () => {
    const shared = Object.freeze({ origin: 'scorestream' });
    const first = toMessageToProduce({ topic: 'scores', key: 'a', value: '1', headers: shared });
    const second = toMessageToProduce({ topic: 'scores', key: 'b', value: '2', headers: shared });
    expect(second.headers).toBe(first.headers);
    const mutable: Record<string, string> = { origin: 'scorestream' };
    const before = toMessageToProduce({ topic: 'scores', key: 'a', value: '1', headers: mutable });
    mutable.origin = 'changed';
    const after = toMessageToProduce({ topic: 'scores', key: 'a', value: '1', headers: mutable });
    expect([...(before.headers as Map<Buffer, Buffer>).values()].map(String)).toEqual(['scorestream']);
    expect([...(after.headers as Map<Buffer, Buffer>).values()].map(String)).toEqual(['changed']);
  });
});
