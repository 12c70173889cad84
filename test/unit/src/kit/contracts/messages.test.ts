import { describe, expect, it } from 'vitest';
import { coreSystemMessageSchema, dbMessageSchema } from '../../../../../src/kit/contracts/messages.ts';
import { parseWith } from '../../../../../src/kit/contracts/parse.ts';

const message = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  id: 'm-1',
  role: 'assistant',
  createdAt: '2025-03-01T10:00:00.000Z',
  content: { format: 2, parts },
  ...extra,
});

describe('dbMessageSchema', () => {
  it('accepts every Mastra part kind, including data-* parts', () => {
    const parts = [
      { type: 'text', text: 'hi', createdAt: 1740823200000, providerMetadata: { openai: {} } },
      { type: 'reasoning', reasoning: 'why', details: [{ type: 'text', text: 'why', signature: 'sig' }, { type: 'redacted', data: 'xx' }] },
      { type: 'tool-invocation', toolInvocation: { toolCallId: 'c1', toolName: 'search', args: { q: 'x' }, state: 'call' }, providerExecuted: false, title: 'Search' },
      { type: 'step-start', model: 'gpt' },
      { type: 'source', source: { sourceType: 'url', id: 's1', url: 'https://example.com', title: 'Example' } },
      { type: 'source-document', sourceId: 'd1', mediaType: 'application/pdf', title: 'Doc', filename: 'doc.pdf' },
      { type: 'file', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'error', error: { name: 'Error', message: 'boom' } },
      { type: 'data-weather', data: { city: 'Oslo' }, id: 'w1' },
    ];
    const result = parseWith(dbMessageSchema, message(parts));
    expect(result).toMatchObject({ success: true });
    if (result.success) expect(result.data.content.parts.map((part) => part.type)).toEqual(parts.map((part) => part.type));
  });

  it('accepts every tool-invocation state', () => {
    const states = ['partial-call', 'call', 'result', 'output-error', 'output-denied', 'approval-requested', 'approval-responded'];
    for (const state of states) {
      const part = { type: 'tool-invocation', toolInvocation: { toolCallId: 'c', toolName: 't', args: {}, state, isError: state === 'result', errorText: 'x', approval: { id: 'a', approved: true } } };
      expect(parseWith(dbMessageSchema, message([part])).success, state).toBe(true);
    }
  });

  it('decodes createdAt to a Date so Mastra scorer code sees the types it expects', () => {
    const result = dbMessageSchema.parse(message([]));
    expect(result.createdAt).toBeInstanceOf(Date);
    expect(result.createdAt.toISOString()).toBe('2025-03-01T10:00:00.000Z');
  });

  it('keeps unknown keys on messages, content and parts', () => {
    const input = message([{ type: 'text', text: 'hi', custom: 1 }], { custom: 'message' });
    (input.content as Record<string, unknown>).custom = 'content';
    const result = dbMessageSchema.parse(input) as Record<string, unknown> & { content: Record<string, unknown> & { parts: Array<Record<string, unknown>> } };
    expect(result.custom).toBe('message');
    expect(result.content.custom).toBe('content');
    expect(result.content.parts[0]!.custom).toBe(1);
  });

  it('gives reasoning parts without details an empty details array', () => {
    const result = dbMessageSchema.parse(message([{ type: 'reasoning', reasoning: 'why' }]));
    expect(result.content.parts[0]).toEqual({ type: 'reasoning', reasoning: 'why', details: [] });
  });

  it('reports an unknown part type at the part type path', () => {
    const result = parseWith(dbMessageSchema, message([{ type: 'text', text: 'ok' }, { type: 'bogus' }]));
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0]!.path).toBe('content.parts[1].type');
      expect(result.problems[0]!.message).toContain('data-<name>');
    }
  });

  it('reports the fields of the part kind the type names, not the whole union', () => {
    const result = parseWith(dbMessageSchema, message([{ type: 'tool-invocation', toolInvocation: { toolCallId: 'c', toolName: 't', args: {}, state: 'finished' } }, { type: 'data-x' }]));
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.problems.map((problem) => problem.path)).toEqual(['content.parts[0].toolInvocation.state', 'content.parts[1].data']);
      expect(result.problems[1]!.message).toContain('required');
    }
  });

  it('rejects a missing part type, a wrong role, a non-ISO createdAt and format 1, all at once', () => {
    const result = parseWith(dbMessageSchema, { id: 'm', role: 'robot', createdAt: 'yesterday', content: { format: 1, parts: [{ text: 'x' }] } });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.problems.map((problem) => problem.path)).toEqual(['role', 'createdAt', 'content.format', 'content.parts[0].type']);
    }
  });

  it('reports a non-object part as such', () => {
    const result = parseWith(dbMessageSchema, message(['text']));
    expect(result.success).toBe(false);
    if (!result.success) expect(result.problems).toEqual([{ path: 'content.parts[0]', message: expect.stringContaining('expected object') }]);
  });
});

describe('coreSystemMessageSchema', () => {
  it('accepts string content and text-part content', () => {
    expect(coreSystemMessageSchema.safeParse({ role: 'system', content: 'be nice' }).success).toBe(true);
    expect(coreSystemMessageSchema.safeParse({ role: 'system', content: [{ type: 'text', text: 'be nice' }] }).success).toBe(true);
  });

  it('reports a bad text part inside array content at its own path', () => {
    const result = parseWith(coreSystemMessageSchema, { role: 'system', content: [{ type: 'text' }] });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.problems.map((problem) => problem.path)).toEqual(['content[0].text']);
  });

  it('rejects a non-system role', () => {
    expect(coreSystemMessageSchema.safeParse({ role: 'user', content: 'x' }).success).toBe(false);
  });
});
