import { describe, expect, it } from 'vitest';
import { decodeAgentRunEvent } from '../../../../../src/kit/contracts/parse.ts';
import { wireRunEvent } from './fixtures.ts';

describe('decodeAgentRunEvent', () => {
  it('decodes a valid event from a Buffer and from a string', () => {
    const json = JSON.stringify(wireRunEvent());
    for (const bytes of [Buffer.from(json), json]) {
      const result = decodeAgentRunEvent(bytes);
      expect(result.success).toBe(true);
      if (result.success) expect(result.data.input.inputMessages[0]!.createdAt).toBeInstanceOf(Date);
    }
  });

  it('calls a null value invalid_json', () => {
    const result = decodeAgentRunEvent(null);
    expect(result).toMatchObject({ success: false, code: 'invalid_json', problems: [] });
    if (!result.success) expect(result.message).toContain('no value');
  });

  it('calls bytes that are not UTF-8 invalid_json', () => {
    const result = decodeAgentRunEvent(Buffer.from([0x7b, 0xff, 0x7d]));
    expect(result).toMatchObject({ success: false, code: 'invalid_json' });
    if (!result.success) expect(result.message).toContain('UTF-8');
  });

  it('calls malformed JSON invalid_json and says why', () => {
    const result = decodeAgentRunEvent('{"runId": ');
    expect(result).toMatchObject({ success: false, code: 'invalid_json' });
    if (!result.success) expect(result.message).toContain('not valid JSON');
  });

  it('calls well-formed JSON that breaks the contract schema_violation, with every problem', () => {
    const event = { ...wireRunEvent(), runId: '', timestamp: 'soon' };
    const result = decodeAgentRunEvent(JSON.stringify(event));
    expect(result).toMatchObject({ success: false, code: 'schema_violation' });
    if (!result.success) {
      expect(result.problems.map((problem) => problem.path)).toEqual(['runId', 'timestamp']);
      expect(result.message).toContain('2 problems');
      expect(result.message).toContain('runId:');
      expect(result.message).toContain('timestamp:');
    }
  });

  it('calls JSON that is not an object a schema_violation at the root', () => {
    const result = decodeAgentRunEvent('42');
    expect(result).toMatchObject({ success: false, code: 'schema_violation', problems: [{ path: '' }] });
    if (!result.success) expect(result.message).toContain('(root)');
  });

  it('calls another schema version unsupported_schema_version', () => {
    const result = decodeAgentRunEvent(JSON.stringify({ ...wireRunEvent(), schemaVersion: 2 }));
    expect(result).toMatchObject({ success: false, code: 'unsupported_schema_version', problems: [{ path: 'schemaVersion' }] });
  });

  it('rejects values over maxBytes as oversized without parsing them', () => {
    const result = decodeAgentRunEvent(Buffer.from('{not json at all}'), { maxBytes: 4 });
    expect(result).toMatchObject({ success: false, code: 'oversized' });
    if (!result.success) expect(result.message).toContain('17 bytes');
  });
});
