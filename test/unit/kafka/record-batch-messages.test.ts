// Fetched record batches as the project's messages (kafka/record-batch-messages.ts): offsets and
// timestamps from the batch and its deltas, control batches skipped, headers as the stream gives them.
import { IS_CONTROL } from '@platformatic/kafka';
import type { KafkaRecord } from '@platformatic/kafka';
import { describe, expect, it } from 'vitest';
import { messagesOfBatches } from '../../../kafka/record-batch-messages.ts';

const record = (offsetDelta: number, timestampDelta: bigint, fields: Partial<KafkaRecord> = {}): KafkaRecord => ({ length: 0, attributes: 0, offsetDelta, timestampDelta, key: null, value: null, headers: [], ...fields });

describe('messagesOfBatches', () => {
  it('gives each record its batch’s first offset and timestamp plus its deltas, as decimal strings', () => {
    const messages = messagesOfBatches(
      [{ firstOffset: 9_007_199_254_740_993n, firstTimestamp: 1_700_000_000_000n, attributes: 0, records: [record(0, 0n, { key: Buffer.from('k'), value: Buffer.from('v') }), record(2, 5n)] }],
      { from: 0n },
    );
    expect(messages).toEqual([
      { key: Buffer.from('k'), value: Buffer.from('v'), offset: '9007199254740993', timestamp: '1700000000000' },
      { key: null, value: null, offset: '9007199254740995', timestamp: '1700000000005' },
    ]);
  });

  it('skips control batches and the records before `from`, and stops at `before`', () => {
    const batches = [
      { firstOffset: 0n, firstTimestamp: 0n, attributes: 0, records: [record(0, 0n), record(1, 0n), record(2, 0n)] },
      { firstOffset: 3n, firstTimestamp: 0n, attributes: IS_CONTROL, records: [record(0, 0n, { key: Buffer.alloc(4) })] },
      { firstOffset: 4n, firstTimestamp: 0n, attributes: 0, records: [record(0, 0n), record(1, 0n)] },
    ];
    expect(messagesOfBatches(batches, { from: 1n, before: 5n }).map((message) => message.offset)).toEqual(['1', '2', '4']);
  });

  it('turns a repeated header into an array and a header without value into empty bytes', () => {
    const [message] = messagesOfBatches(
      [{ firstOffset: 0n, firstTimestamp: 0n, attributes: 0, records: [record(0, 0n, { headers: [[Buffer.from('tag'), Buffer.from('a')], [Buffer.from('tag'), Buffer.from('b')], [Buffer.from('empty'), null], [null, Buffer.from('x')]] })] }],
      { from: 0n },
    );
    expect(message?.headers).toEqual({ tag: [Buffer.from('a'), Buffer.from('b')], empty: Buffer.alloc(0) });
  });
});
