// listToolCalls lists a run's calls once for all the scorers that read the same output, and again
// when the output changed shape since (a scorer's code may edit messages in place).
import { describe, expect, it } from 'vitest';
import { listToolCalls } from '../../../../../../src/kit/scorers/shared/tool-invocations.ts';
import { assistantMessage, toolCall } from '../agent-runs.ts';

describe('listToolCalls', () => {
  it('answers the same output with the same list', () => {
    const output = [assistantMessage('Done.', [toolCall('lookupOrder', { id: 'c1' })])];
    const first = listToolCalls(output);
    expect(first.map((call) => call.toolName)).toEqual(['lookupOrder']);
    expect(listToolCalls(output)).toBe(first);
  });

  it('lists again when a message, a part or a legacy invocation was added in place', () => {
    const message = assistantMessage('', [toolCall('lookupOrder', { id: 'c1' })]);
    const output = [message];
    expect(listToolCalls(output)).toHaveLength(1);
    message.content.parts.push({ type: 'tool-invocation', toolInvocation: toolCall('refund', { id: 'c2' }) });
    expect(listToolCalls(output).map((call) => call.toolName)).toEqual(['lookupOrder', 'refund']);
    output.push(assistantMessage('', [toolCall('notify', { id: 'c3' })], 'assistant-2'));
    expect(listToolCalls(output).map((call) => call.toolName)).toEqual(['lookupOrder', 'refund', 'notify']);
    output.pop();
    expect(listToolCalls(output)).toHaveLength(2);
  });

  it('sees an invocation changed in place through the listed record (it points at the invocation)', () => {
    const invocation = toolCall('lookupOrder', { id: 'c1' });
    const output = [assistantMessage('', [invocation])];
    expect(listToolCalls(output)[0]!.invocation.state).toBe('result');
    (invocation as { state: string }).state = 'output-error';
    expect(listToolCalls(output)[0]!.invocation.state).toBe('output-error');
  });

  it('has nothing to list in what is not a list of messages', () => {
    expect(listToolCalls(undefined)).toEqual([]);
    expect(listToolCalls('text')).toEqual([]);
    expect(listToolCalls({ messages: [] })).toEqual([]);
  });
});
