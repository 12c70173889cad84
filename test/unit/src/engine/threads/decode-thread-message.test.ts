import { describe, expect, it } from 'vitest';
import { decodeThreadMessage } from '../../../../../src/engine/threads/decode-thread-message.ts';
import { turnOf } from './fixtures.ts';

const ended = { schemaVersion: 1, type: 'agent.thread.ended', threadId: 't-1', tenantId: 'acme', timestamp: '2026-11-29T13:00:00Z', lastRunId: 'run-9' };

describe('decodeThreadMessage', () => {
  it('decodes a turn, keeping its text, and keys it by its thread', () => {
    const { json } = turnOf({ runId: 'run-1' });
    const decoded = decodeThreadMessage(Buffer.from(json));
    expect(decoded).toMatchObject({ success: true, data: { kind: 'turn', key: 'acme:t-1', json } });
    if (decoded.success && decoded.data.kind === 'turn') expect(decoded.data.turn.run.runId).toBe('run-1');
  });

  it('decodes an end event and keys it like its thread', () => {
    expect(decodeThreadMessage(JSON.stringify(ended))).toMatchObject({ success: true, data: { kind: 'ended', key: 'acme:t-1', end: { lastRunId: 'run-9' } } });
  });

  it('says why a message is neither: no value, too large, not UTF-8, not JSON, another type, another version, a broken contract', () => {
    const codeOf = (bytes: Buffer | string | null, maxBytes?: number) => {
      const decoded = decodeThreadMessage(bytes, maxBytes === undefined ? {} : { maxBytes });
      return decoded.success ? 'decoded' : decoded.code;
    };
    expect(codeOf(null)).toBe('invalid_json');
    expect(codeOf(JSON.stringify(ended), 10)).toBe('oversized');
    expect(codeOf(Buffer.from([0xff, 0xfe]))).toBe('invalid_json');
    expect(codeOf('{"type":')).toBe('invalid_json');
    expect(codeOf(JSON.stringify({ type: 'agent.run.completed' }))).toBe('schema_violation');
    expect(codeOf(JSON.stringify({ ...ended, schemaVersion: 2 }))).toBe('unsupported_schema_version');
    const broken = decodeThreadMessage(JSON.stringify({ ...ended, threadId: '' }));
    expect(broken).toMatchObject({ success: false, code: 'schema_violation', problems: [{ path: 'threadId' }] });
  });
});
