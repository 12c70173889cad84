import { describe, expect, it } from 'vitest';
import {
  extractInputMessages,
  getCombinedSystemPrompt,
  getConversationHistoryFromRunInput,
  getSystemMessagesFromRunInput,
  getUserMessageFromRunInput,
  isScorerRunInputForAgent,
} from '../../../../../src/kit/utils/run-input.ts';
import { createAgentTestRun, createTestMessage } from '../../../../../src/kit/testing/agent-test-run.ts';

const user = (content: string, id = content) => createTestMessage({ content, role: 'user', id });
const assistant = (content: string, id = content) => createTestMessage({ content, role: 'assistant', id });
const agentInput = (overrides: Record<string, unknown> = {}) => ({
  inputMessages: [],
  rememberedMessages: [],
  systemMessages: [],
  taggedSystemMessages: {},
  ...overrides,
});

describe('getUserMessageFromRunInput', () => {
  it('returns a string input as is (also an empty one)', () => {
    expect(getUserMessageFromRunInput('hello')).toBe('hello');
    expect(getUserMessageFromRunInput('')).toBe('');
  });

  it('takes the first user message of inputMessages', () => {
    const input = agentInput({
      inputMessages: [createTestMessage({ content: 'sys', role: 'system' }), user('first'), user('second')],
    });
    expect(getUserMessageFromRunInput(input)).toBe('first');
  });

  it('gives the last text part of that user message', () => {
    const message = createTestMessage({
      content: '',
      role: 'user',
      parts: [
        { type: 'text', text: 'part one' },
        { type: 'text', text: 'part two' },
      ],
    });
    expect(getUserMessageFromRunInput(agentInput({ inputMessages: [message] }))).toBe('part two');
  });

  it('counts a signal message under its semantic role', () => {
    const signal = { id: 's', role: 'signal', createdAt: new Date(), content: { format: 2, parts: [{ type: 'text', text: 'from signal' }], metadata: { signal: { tagName: 'user' } } } };
    expect(getUserMessageFromRunInput(agentInput({ inputMessages: [signal, user('later')] }))).toBe('from signal');
  });

  it('does not move on to a later user message when the first has no text (surprise)', () => {
    const empty = createTestMessage({ content: '', role: 'user', parts: [] });
    expect(getUserMessageFromRunInput(agentInput({ inputMessages: [empty, user('second')] }))).toBeUndefined();
  });

  it('falls back to input.messages (CoreMessage arrays)', () => {
    expect(getUserMessageFromRunInput({ messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'core' }] })).toBe(
      'core',
    );
    expect(
      getUserMessageFromRunInput({ messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }] }),
    ).toBe('b');
  });

  it('prefers inputMessages over messages', () => {
    expect(getUserMessageFromRunInput({ inputMessages: [user('agent')], messages: [{ role: 'user', content: 'core' }] })).toBe(
      'agent',
    );
  });

  it('then reads prompt, then text', () => {
    expect(getUserMessageFromRunInput({ prompt: 'the prompt', text: 'the text' })).toBe('the prompt');
    expect(getUserMessageFromRunInput({ text: 'the text', content: 'c' })).toBe('the text');
  });

  it('then reads the text of content, input, user in that order', () => {
    expect(getUserMessageFromRunInput({ content: 'c', input: 'i', user: 'u' })).toBe('c');
    expect(getUserMessageFromRunInput({ input: { text: 'i' }, user: 'u' })).toBe('i');
    expect(getUserMessageFromRunInput({ user: [{ type: 'text', text: 'u' }] })).toBe('u');
  });

  it('returns undefined when nothing matches or the input is not an object', () => {
    expect(getUserMessageFromRunInput(agentInput())).toBeUndefined();
    expect(getUserMessageFromRunInput(undefined)).toBeUndefined();
    expect(getUserMessageFromRunInput(42)).toBeUndefined();
    expect(getUserMessageFromRunInput({ inputMessages: 'nope', prompt: 5 })).toBeUndefined();
  });
});

describe('getSystemMessagesFromRunInput / getCombinedSystemPrompt', () => {
  const input = agentInput({
    systemMessages: [
      { role: 'system', content: 'instructions' },
      { role: 'system', content: [{ type: 'text', text: 'part a' }, { type: 'image' }, { type: 'text', text: 'part b' }] },
      { role: 'system', content: '' },
      { role: 'system', content: 5 },
    ],
    inputMessages: [user('hi'), createTestMessage({ content: 'inline system', role: 'system' })],
    messages: [{ role: 'system', content: 'core system' }, { role: 'user', content: 'no' }],
    taggedSystemMessages: {
      memory: [{ role: 'system', content: 'memory one' }, { role: 'system', content: [{ type: 'text', text: 'memory two' }] }],
      other: [{ role: 'system', content: 'other' }],
      broken: 'not an array',
    },
  });

  it('lists systemMessages, then system entries of inputMessages and messages, then tagged ones in key order', () => {
    expect(getSystemMessagesFromRunInput(input)).toEqual([
      'instructions',
      'part a part b',
      'inline system',
      'core system',
      'memory one',
      'memory two',
      'other',
    ]);
  });

  it('joins them with a blank line', () => {
    expect(getCombinedSystemPrompt(agentInput({ systemMessages: [{ role: 'system', content: 'a' }, { role: 'system', content: 'b' }] }))).toBe(
      'a\n\nb',
    );
  });

  it('counts signal messages whose semantic role is system', () => {
    const signal = { role: 'signal', content: { parts: [{ type: 'text', text: 'reminder' }], metadata: { signal: { type: 'system' } } } };
    expect(getSystemMessagesFromRunInput({ inputMessages: [signal] })).toEqual(['reminder']);
  });

  it('returns [] / "" for inputs without system prompts', () => {
    expect(getSystemMessagesFromRunInput('text')).toEqual([]);
    expect(getSystemMessagesFromRunInput(undefined)).toEqual([]);
    expect(getCombinedSystemPrompt(agentInput())).toBe('');
  });
});

describe('extractInputMessages', () => {
  it('gives the text of every input message, whatever its role', () => {
    const input = agentInput({
      inputMessages: [user('u'), createTestMessage({ content: 's', role: 'system' }), createTestMessage({ content: '', role: 'user', parts: [] })],
    });
    expect(extractInputMessages(input)).toEqual(['u', 's', '']);
  });

  it('returns [] when inputMessages is absent', () => {
    expect(extractInputMessages({})).toEqual([]);
    expect(extractInputMessages(undefined)).toEqual([]);
  });
});

describe('getConversationHistoryFromRunInput', () => {
  const remembered = [user('q1'), assistant('a1'), user('q2'), assistant('a2')];

  it('renders the remembered messages as role: text lines, oldest first', () => {
    const { input } = createAgentTestRun({ output: [], rememberedMessages: remembered });
    expect(getConversationHistoryFromRunInput(input)).toBe('user: q1\nassistant: a1\nuser: q2\nassistant: a2');
  });

  it('keeps only the last maxMessages', () => {
    const { input } = createAgentTestRun({ output: [], rememberedMessages: remembered });
    expect(getConversationHistoryFromRunInput(input, { maxMessages: 2 })).toBe('user: q2\nassistant: a2');
  });

  it('defaults to the last 10 messages', () => {
    const many = Array.from({ length: 12 }, (_, index) => user(`m${index}`));
    const { input } = createAgentTestRun({ output: [], rememberedMessages: many });
    const lines = getConversationHistoryFromRunInput(input)?.split('\n');
    expect(lines).toHaveLength(10);
    expect(lines?.[0]).toBe('user: m2');
  });

  it('is undefined for maxMessages <= 0 or NaN', () => {
    const { input } = createAgentTestRun({ output: [], rememberedMessages: remembered });
    expect(getConversationHistoryFromRunInput(input, { maxMessages: 0 })).toBeUndefined();
    expect(getConversationHistoryFromRunInput(input, { maxMessages: -3 })).toBeUndefined();
    expect(getConversationHistoryFromRunInput(input, { maxMessages: Number.NaN })).toBeUndefined();
  });

  it('is undefined for a non-agent input and for an empty history', () => {
    expect(getConversationHistoryFromRunInput({ rememberedMessages: remembered })).toBeUndefined();
    expect(getConversationHistoryFromRunInput('text')).toBeUndefined();
    expect(getConversationHistoryFromRunInput(agentInput())).toBeUndefined();
  });

  it('skips messages without text and renders signal messages under their semantic role', () => {
    const toolOnly = createTestMessage({ content: '', role: 'assistant', parts: [{ type: 'step-start' }] });
    const signal = { role: 'signal', type: 'system', content: { parts: [{ type: 'text', text: 'note' }] } };
    expect(getConversationHistoryFromRunInput(agentInput({ rememberedMessages: [toolOnly, signal] }))).toBe('system: note');
    expect(getConversationHistoryFromRunInput(agentInput({ rememberedMessages: [toolOnly] }))).toBeUndefined();
  });
});

describe('isScorerRunInputForAgent', () => {
  it('needs all four agent fields', () => {
    expect(isScorerRunInputForAgent(agentInput())).toBe(true);
    expect(isScorerRunInputForAgent({ inputMessages: [], rememberedMessages: [], systemMessages: [] })).toBe(false);
    expect(isScorerRunInputForAgent(null)).toBe(false);
  });
});
