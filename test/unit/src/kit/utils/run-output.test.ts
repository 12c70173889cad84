import { describe, expect, it } from 'vitest';
import {
  extractAgentResponseMessages,
  getAssistantMessageFromRunOutput,
  getReasoningFromRunOutput,
} from '../../../../../src/kit/utils/run-output.ts';
import { createTestMessage, createToolInvocation } from '../../../../../src/kit/testing/agent-test-run.ts';

const assistant = (content: string, id = content) => createTestMessage({ content, role: 'assistant', id });
const toolOnlyAssistant = () =>
  createTestMessage({
    content: '',
    role: 'assistant',
    id: 'tools',
    parts: [{ type: 'tool-invocation', toolInvocation: createToolInvocation({ toolCallId: 'c1', toolName: 'search' }) }],
  });

describe('getAssistantMessageFromRunOutput', () => {
  it('returns a string output as is', () => {
    expect(getAssistantMessageFromRunOutput('answer')).toBe('answer');
  });

  it('takes the LAST assistant message of an array (the docs say first; the code takes last)', () => {
    expect(getAssistantMessageFromRunOutput([assistant('first'), assistant('second')])).toBe('second');
  });

  it('skips a trailing tool-only assistant message', () => {
    expect(getAssistantMessageFromRunOutput([assistant('the answer'), toolOnlyAssistant()])).toBe('the answer');
  });

  it('ignores non-assistant messages', () => {
    expect(getAssistantMessageFromRunOutput([assistant('a'), createTestMessage({ content: 'u', role: 'user' })])).toBe('a');
  });

  it('returns undefined for [] and for arrays without assistant text', () => {
    expect(getAssistantMessageFromRunOutput([])).toBeUndefined();
    expect(getAssistantMessageFromRunOutput([toolOnlyAssistant()])).toBeUndefined();
  });

  it('counts signal messages under their semantic role', () => {
    const signal = { role: 'signal', content: { parts: [{ type: 'text', text: 'signalled' }], metadata: { signal: { tagName: 'assistant' } } } };
    expect(getAssistantMessageFromRunOutput([assistant('earlier'), signal])).toBe('signalled');
  });

  it('reads a single object: text, then string content, then the message text', () => {
    expect(getAssistantMessageFromRunOutput({ text: 'from text', content: 'from content' })).toBe('from text');
    expect(getAssistantMessageFromRunOutput({ role: 'assistant', content: 'from content' })).toBe('from content');
    expect(getAssistantMessageFromRunOutput(assistant('db message'))).toBe('db message');
    expect(getAssistantMessageFromRunOutput({ content: [{ type: 'text', text: 'core parts' }] })).toBe('core parts');
  });

  it('returns undefined for an object with another role, or without text', () => {
    expect(getAssistantMessageFromRunOutput({ role: 'user', text: 'not mine' })).toBeUndefined();
    expect(getAssistantMessageFromRunOutput({ role: 'assistant', content: { parts: [] } })).toBeUndefined();
    expect(getAssistantMessageFromRunOutput(undefined)).toBeUndefined();
    expect(getAssistantMessageFromRunOutput(17)).toBeUndefined();
  });
});

describe('getReasoningFromRunOutput', () => {
  const withContent = (content: Record<string, unknown>, role = 'assistant') => ({ id: 'r', role, createdAt: new Date(), content: { format: 2, parts: [], ...content } });

  it('returns content.reasoning when it is non-empty', () => {
    expect(getReasoningFromRunOutput([withContent({ reasoning: 'legacy', parts: [{ type: 'reasoning', reasoning: 'part', details: [] }] })])).toBe(
      'legacy',
    );
  });

  it('uses the FIRST assistant message, not the last', () => {
    expect(getReasoningFromRunOutput([withContent({ reasoning: 'first' }), withContent({ reasoning: 'second' })])).toBe('first');
    expect(getReasoningFromRunOutput([withContent({}), withContent({ reasoning: 'second' })])).toBeUndefined();
  });

  it('concatenates the text details of each reasoning part and joins parts with a newline', () => {
    const parts = [
      { type: 'reasoning', reasoning: 'ignored', details: [{ type: 'text', text: 'a' }, { type: 'redacted', data: 'x' }, { type: 'text', text: 'b' }] },
      { type: 'text', text: 'answer' },
      { type: 'reasoning', reasoning: 'ignored', details: [{ type: 'text', text: 'c' }] },
    ];
    expect(getReasoningFromRunOutput([withContent({ parts })])).toBe('ab\nc');
  });

  it('uses part.reasoning when a part has no details array', () => {
    expect(getReasoningFromRunOutput([withContent({ parts: [{ type: 'reasoning', reasoning: 'plain' }] })])).toBe('plain');
  });

  it('yields nothing for details: [] even when part.reasoning is set (surprise)', () => {
    expect(getReasoningFromRunOutput([withContent({ parts: [{ type: 'reasoning', reasoning: 'hidden', details: [] }] })])).toBeUndefined();
  });

  it('drops empty pieces', () => {
    const parts = [
      { type: 'reasoning', reasoning: '', details: [] },
      { type: 'reasoning', reasoning: 'kept' },
    ];
    expect(getReasoningFromRunOutput([withContent({ parts })])).toBe('kept');
  });

  it('returns undefined without an assistant message or for non-arrays', () => {
    expect(getReasoningFromRunOutput([withContent({ reasoning: 'user' }, 'user')])).toBeUndefined();
    expect(getReasoningFromRunOutput('text')).toBeUndefined();
    expect(getReasoningFromRunOutput(undefined)).toBeUndefined();
    expect(getReasoningFromRunOutput([{ role: 'assistant', content: 'string content' }])).toBeUndefined();
  });
});

describe('extractAgentResponseMessages', () => {
  it("gives the text of every assistant message, '' for those without text", () => {
    const output = [assistant('one'), createTestMessage({ content: 'u', role: 'user' }), toolOnlyAssistant(), assistant('two')];
    expect(extractAgentResponseMessages(output)).toEqual(['one', '', 'two']);
  });

  it('returns [] for non-arrays', () => {
    expect(extractAgentResponseMessages('text')).toEqual([]);
  });
});
