// Dead letters: one builder (key kept, origin header, where the message came from and why) and
// one behaviour (published until acknowledged, counted) for both callers — a message that does
// not decode and one whose processing threw; the latter is abandoned, not dead-lettered, once
// the hard stop came.
import { describe, expect, it } from 'vitest';
import { buildDeadLetterRecord, deadLetterUnexpected, publishDeadLetter } from '../../../consumers/dead-letter.ts';
import { ORIGIN_HEADER } from '../../../consumers/loop-guard.ts';
import { parseDeadLetter } from '../../../src/contracts/parse.ts';
import { consumedMessage, fakeOutput, messageContext, messageTimestamp, recordedPacing, source, valueOf } from './message-fixtures.ts';

const now = new Date('2026-11-29T12:00:05.000Z');
const reason = { code: 'invalid_json' as const, message: 'the message value is not valid JSON' };
const badMessage = consumedMessage({ key: 'run-7', value: '{"runId": ', headers: { traceparent: '00-abc', tenant: [Buffer.from('a'), Buffer.from('b')] } });

describe('buildDeadLetterRecord', () => {
  it('keeps the key, sets the origin header, and carries the message as it came, where from and why', () => {
    const record = buildDeadLetterRecord(badMessage, source, reason, 'dead-letters', now);
    expect(record).toMatchObject({ topic: 'dead-letters', key: 'run-7', headers: { [ORIGIN_HEADER]: 'scorestream' } });
    const deadLetter = valueOf(record);
    expect(parseDeadLetter(deadLetter).success).toBe(true);
    expect(deadLetter).toEqual({
      schemaVersion: 1,
      key: { encoding: 'utf8', data: 'run-7' },
      value: { encoding: 'utf8', data: '{"runId": ' },
      headers: { traceparent: { encoding: 'utf8', data: '00-abc' }, tenant: [{ encoding: 'utf8', data: 'a' }, { encoding: 'utf8', data: 'b' }] },
      source: { ...source, timestamp: messageTimestamp.iso },
      error: reason,
      deadLetteredAt: now.toISOString(),
    });
  });

  it('keeps a null key null, and the contract problems when there are any', () => {
    const problems = [{ path: 'entity.type', message: 'Invalid option' }];
    const record = buildDeadLetterRecord(consumedMessage({ value: '{}' }), source, { code: 'schema_violation', message: 'm', problems }, 'dlq', now);
    expect(record.key).toBeNull();
    expect(valueOf(record)).toMatchObject({ key: null, error: { code: 'schema_violation', problems } });
  });

  it('leaves the timestamp out when the message has none that is a time', () => {
    const record = buildDeadLetterRecord(consumedMessage({ value: '{}', timestamp: 'not a time' }), source, reason, 'dlq', now);
    expect(valueOf(record).source).toEqual(source);
  });
});

describe('publishDeadLetter', () => {
  it('publishes until acknowledged, then counts the dead letter by code', async () => {
    const { context } = messageContext({ now: () => now.getTime() });
    const output = fakeOutput();
    output.fail(2);
    await publishDeadLetter(badMessage, source, reason, output.output, context);
    expect(output.attempts()).toBe(3);
    expect(output.records()).toEqual([buildDeadLetterRecord(badMessage, source, reason, 'dead-letters', now)]);
    expect(context.stats.deadLettered).toBe(1);
    expect(context.stats.deadLettersByCode.get('invalid_json')).toBe(1);
  });
});

describe('deadLetterUnexpected', () => {
  const failure = new Error('name getter exploded');
  const goodMessage = consumedMessage({ key: 'run-8', value: '{"valid":"enough"}' });

  it('dead-letters the message as processing_failed, with the same key, header and retries as any dead letter', async () => {
    const { context } = messageContext({ now: () => now.getTime() });
    const output = fakeOutput();
    output.fail(1);
    expect(await deadLetterUnexpected(goodMessage, source, failure, output.output, context)).toBe(true);
    expect(output.attempts()).toBe(2);
    const [record] = output.records();
    expect(record).toMatchObject({ topic: 'dead-letters', key: 'run-8', headers: { [ORIGIN_HEADER]: 'scorestream' } });
    expect(valueOf(record)).toMatchObject({ source: { ...source, timestamp: messageTimestamp.iso }, error: { code: 'processing_failed', message: 'name getter exploded' } });
    expect(context.stats.deadLettersByCode.get('processing_failed')).toBe(1);
  });

  it('abandons the message without publishing when the hard stop came first (the failure is most likely the stop)', async () => {
    const { context, hardStop } = messageContext();
    hardStop.abort();
    const output = fakeOutput();
    expect(await deadLetterUnexpected(goodMessage, source, failure, output.output, context)).toBe(false);
    expect(output.attempts()).toBe(0);
    expect(context.stats.deadLettered).toBe(0);
  });

  it('abandons the message, uncounted, when the hard stop ends the retries of its dead letter', async () => {
    const { publishRetry, delays } = recordedPacing(() => hardStop.abort());
    const { context, hardStop } = messageContext({ publishRetry });
    const output = fakeOutput();
    output.fail(10);
    expect(await deadLetterUnexpected(goodMessage, source, failure, output.output, context)).toBe(false);
    expect(delays).toEqual([200]);
    expect(output.records()).toEqual([]);
    expect(context.stats.deadLettered).toBe(0);
  });

  it('says a thrown non-Error in words', async () => {
    const { context } = messageContext();
    const output = fakeOutput();
    await deadLetterUnexpected(goodMessage, source, 'plain failure', output.output, context);
    expect(valueOf(output.records()[0])).toMatchObject({ error: { code: 'processing_failed', message: 'plain failure' } });
  });
});
