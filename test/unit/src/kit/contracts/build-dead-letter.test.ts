import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDeadLetter, fitDeadLetter } from '../../../../../src/kit/contracts/build-dead-letter.ts';
import { decodeBytes } from '../../../../../src/kit/contracts/encoded-bytes.ts';
import { parseDeadLetter } from '../../../../../src/kit/contracts/parse.ts';

const source = { topic: 'agent-runs', partition: 3, offset: '1200', timestamp: '1740823200000' };
const now = new Date('2025-03-01T10:00:00.000Z');

describe('buildDeadLetter', () => {
  it('keeps UTF-8 key, value and headers as text, and is a valid DeadLetter', () => {
    const letter = buildDeadLetter({
      message: { key: Buffer.from('run-1'), value: Buffer.from('{"runId":'), headers: { traceparent: Buffer.from('00-abc'), note: 'plain' } },
      source,
      error: { code: 'invalid_json', message: 'the message value is not valid JSON' },
      now,
    });
    expect(letter).toEqual({
      schemaVersion: 1,
      key: { encoding: 'utf8', data: 'run-1' },
      value: { encoding: 'utf8', data: '{"runId":' },
      valueSha256: createHash('sha256').update('{"runId":').digest('hex'),
      headers: { traceparent: { encoding: 'utf8', data: '00-abc' }, note: { encoding: 'utf8', data: 'plain' } },
      source,
      error: { code: 'invalid_json', message: 'the message value is not valid JSON' },
      deadLetteredAt: '2025-03-01T10:00:00.000Z',
    });
    expect(parseDeadLetter(letter).success).toBe(true);
  });

  it('base64-encodes bytes that are not valid UTF-8, losslessly', () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
    const letter = buildDeadLetter({ message: { key: null, value: bytes, headers: { bin: bytes } }, source, error: { code: 'invalid_json', message: 'not UTF-8' }, now });
    expect(letter.value).toEqual({ encoding: 'base64', data: bytes.toString('base64') });
    expect(decodeBytes(letter.value!)).toEqual(bytes);
    expect(letter.headers.bin).toEqual({ encoding: 'base64', data: bytes.toString('base64') });
  });

  it('keeps a UTF-8 byte-order mark in the text so the bytes round-trip', () => {
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]);
    const letter = buildDeadLetter({ message: { value: bytes }, source, error: { code: 'invalid_json', message: 'x' }, now });
    expect(decodeBytes(letter.value!)).toEqual(bytes);
  });

  it('keeps every value of a repeated header in order and drops undefined headers', () => {
    const letter = buildDeadLetter({
      message: { value: null, headers: { baggage: [Buffer.from('a=1'), 'b=2'], gone: undefined } },
      source,
      error: { code: 'schema_violation', message: 'bad', problems: [{ path: 'runId', message: 'required' }] },
      now,
    });
    expect(letter.headers).toEqual({ baggage: [{ encoding: 'utf8', data: 'a=1' }, { encoding: 'utf8', data: 'b=2' }] });
    expect(letter.key).toBeNull();
    expect(letter.value).toBeNull();
    expect(letter.error.problems).toEqual([{ path: 'runId', message: 'required' }]);
    expect(parseDeadLetter(letter).success).toBe(true);
  });

  it('omits the source timestamp when it is unknown', () => {
    const letter = buildDeadLetter({ message: { value: 'x' }, source: { topic: 't', partition: 0, offset: '0' }, error: { code: 'oversized', message: 'too big' }, now });
    expect(letter.source).toEqual({ topic: 't', partition: 0, offset: '0' });
  });
});

describe('parseDeadLetter', () => {
  it('rejects an unknown error code and a bad encoding', () => {
    const letter = buildDeadLetter({ message: { value: 'x' }, source, error: { code: 'oversized', message: 'too big' }, now });
    const result = parseDeadLetter({ ...letter, value: { encoding: 'hex', data: '00' }, error: { code: 'nope', message: 'x' } });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.problems.map((problem) => problem.path)).toEqual(['value.encoding', 'error.code']);
  });

  it('fits a dead letter to a limit: binary values keep a base64 prefix, and headers go too when they alone are over it', () => {
    const value = Buffer.alloc(5_000, 0xff);
    const options = { message: { key: Buffer.from('k'), value, headers: { big: 'h'.repeat(3_000) } }, source, error: { code: 'oversized' as const, message: 'too big' }, now };
    expect(fitDeadLetter(options, 100_000)!.deadLetter.truncated).toBeUndefined();
    const fitted = fitDeadLetter(options, 4_000)!;
    expect(fitted.bytes).toBeLessThanOrEqual(4_000);
    expect(fitted.deadLetter.value!.encoding).toBe('base64');
    const kept = decodeBytes(fitted.deadLetter.value!);
    expect(kept.equals(value.subarray(0, kept.length))).toBe(true);
    expect(fitted.deadLetter.truncated).toEqual({ keptBytes: kept.length, droppedBytes: 5_000 - kept.length });
    expect(kept.length).toBeGreaterThan(0);
    const bare = fitDeadLetter(options, 1_000)!;
    expect(bare.bytes).toBeLessThanOrEqual(1_000);
    expect(bare.deadLetter).toMatchObject({ headers: {}, truncated: { headersDropped: true } });
    expect(bare.deadLetter.valueSha256).toBe(createHash('sha256').update(value).digest('hex'));
    expect(parseDeadLetter(bare.deadLetter).success).toBe(true);
    expect(fitDeadLetter({ ...options, error: { code: 'oversized', message: 'm'.repeat(2_000) } }, 1_000)).toBeUndefined();
  });
});
