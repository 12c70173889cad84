import { describe, expect, it } from 'vitest';
import { createAgentTestRun, createTestMessage, createToolInvocation } from '../../../../../src/kit/testing/agent-test-run.ts';

describe('createTestMessage', () => {
  it('builds a DbMessage with one text part and the flattened content', () => {
    const message = createTestMessage({ content: 'hello', role: 'user' });
    expect(message).toEqual({
      id: 'test-message',
      role: 'user',
      content: { format: 2, parts: [{ type: 'text', text: 'hello' }], content: 'hello' },
      createdAt: expect.any(Date),
    });
    expect('toolInvocations' in message.content).toBe(false);
  });

  it('uses given parts, id and tool invocations', () => {
    const invocation = createToolInvocation({ toolCallId: 'c', toolName: 't' });
    const message = createTestMessage({ content: 'x', role: 'assistant', id: 'm1', parts: [{ type: 'step-start' }], toolInvocations: [invocation] });
    expect(message.id).toBe('m1');
    expect(message.content.parts).toEqual([{ type: 'step-start' }]);
    expect(message.content.toolInvocations).toEqual([invocation]);
  });

  it('leaves out an empty toolInvocations list', () => {
    expect('toolInvocations' in createTestMessage({ content: 'x', role: 'assistant', toolInvocations: [] }).content).toBe(false);
  });
});

describe('createToolInvocation', () => {
  it("defaults to state 'result' and empty args/result", () => {
    expect(createToolInvocation({ toolCallId: 'c', toolName: 't' })).toEqual({ toolCallId: 'c', toolName: 't', args: {}, result: {}, state: 'result' });
  });

  it('keeps given values', () => {
    expect(createToolInvocation({ toolCallId: 'c', toolName: 't', args: { q: 1 }, result: 2, state: 'call' })).toEqual({
      toolCallId: 'c',
      toolName: 't',
      args: { q: 1 },
      result: 2,
      state: 'call',
    });
  });
});

describe('createAgentTestRun', () => {
  it('fills the agent input with empty defaults, a Map request context and a UUID run id', () => {
    const run = createAgentTestRun({ output: [] });
    expect(run.input).toEqual({ inputMessages: [], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} });
    expect(run.requestContext).toBeInstanceOf(Map);
    expect(run.runId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('keeps what it is given', () => {
    const message = createTestMessage({ content: 'q', role: 'user' });
    const run = createAgentTestRun({ output: [message], inputMessages: [message], runId: 'run-1', requestContext: { tier: 'gold' } });
    expect(run).toEqual({
      input: { inputMessages: [message], rememberedMessages: [], systemMessages: [], taggedSystemMessages: {} },
      output: [message],
      requestContext: { tier: 'gold' },
      runId: 'run-1',
    });
  });
});
