// Decode: a message value becomes a run event, or the reason it is dead-lettered (code, message,
// the contract's problems by path when there are any). The size check is the message path's.
import { describe, expect, it } from 'vitest';
import { decodeRunMessage } from '../../../consumers/decode-run-message.ts';
import { testRun } from '../../helpers/runs.ts';
import { consumedMessage, runMessage } from './message-fixtures.ts';

function failure(result: ReturnType<typeof decodeRunMessage>) {
  if (result.success) throw new Error('expected the message not to decode');
  return result.reason;
}

describe('decodeRunMessage', () => {
  it('decodes a valid run event', () => {
    const result = decodeRunMessage(runMessage({ runId: 'run-1' }).value);
    expect(result.success).toBe(true);
    if (result.success) expect(result.data.runId).toBe('run-1');
  });

  it('gives invalid JSON, no value and non-UTF-8 bytes the code invalid_json, without problems', () => {
    for (const value of ['{"runId": ', null, Buffer.from([0xff, 0xfe])]) {
      const reason = failure(decodeRunMessage(consumedMessage({ value }).value));
      expect(reason.code).toBe('invalid_json');
      expect(reason.problems).toBeUndefined();
    }
  });

  it('lists the contract problems of a schema violation by path', () => {
    const reason = failure(decodeRunMessage(consumedMessage({ value: JSON.stringify({ ...testRun({ runId: 'r' }), entity: { type: 'robot' } }) }).value));
    expect(reason.code).toBe('schema_violation');
    expect(reason.problems?.map((problem) => problem.path)).toContain('entity.type');
    expect(reason.message).toMatch(/breaks the AgentRunEvent v1 contract/);
  });

  it('leaves the size limit to the message path, which checks it once for every source', () => {
    expect(decodeRunMessage(runMessage({ runId: 'big', answer: 'x'.repeat(200_000) }).value).success).toBe(true);
  });
});
