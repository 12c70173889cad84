// A message value that is not a run event, as the reason it is dead-lettered (code, message, the
// contract's problems by path when there are any). The size check is the message path's.
import { describe, expect, it } from 'vitest';
import { deadLetterReasonOf } from '../../../consumers/dead-letter-reason.ts';
import { decodeAgentRunEvent } from '../../../src/kit/contracts/parse.ts';
import { testRun } from '../../helpers/runs.ts';
import { consumedMessage, runMessage } from './message-fixtures.ts';

function reasonFor(value: Buffer | null) {
  const result = decodeAgentRunEvent(value);
  if (result.success) throw new Error('expected the message not to decode');
  return deadLetterReasonOf(result);
}

describe('deadLetterReasonOf a run message', () => {
  it('decodes a valid run event', () => {
    const result = decodeAgentRunEvent(runMessage({ runId: 'run-1' }).value);
    expect(result.success).toBe(true);
    if (result.success) expect(result.data.runId).toBe('run-1');
  });

  it('gives invalid JSON, no value and non-UTF-8 bytes the code invalid_json, without problems', () => {
    for (const value of ['{"runId": ', null, Buffer.from([0xff, 0xfe])]) {
      const reason = reasonFor(consumedMessage({ value }).value);
      expect(reason.code).toBe('invalid_json');
      expect(reason.problems).toBeUndefined();
    }
  });

  it('lists the contract problems of a schema violation by path', () => {
    const reason = reasonFor(consumedMessage({ value: JSON.stringify({ ...testRun({ runId: 'r' }), entity: { type: 'robot' } }) }).value);
    expect(reason.code).toBe('schema_violation');
    expect(reason.problems?.map((problem) => problem.path)).toContain('entity.type');
    expect(reason.message).toMatch(/breaks the AgentRunEvent v1 contract/);
  });

  it('leaves the size limit to the message path, which checks it once for every source', () => {
    expect(decodeAgentRunEvent(runMessage({ runId: 'big', answer: 'x'.repeat(200_000) }).value).success).toBe(true);
  });
});
