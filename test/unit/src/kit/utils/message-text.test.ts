import { describe, expect, it } from 'vitest';
import { findMessageText, getMessageRole, getMessageText, lastTextPart } from '../../../../../src/kit/utils/message-text.ts';

const text = (value: string) => ({ type: 'text', text: value });

describe('getMessageText (the text of a message, docs/scorers.md)', () => {
  it('returns a string content as is', () => {
    expect(getMessageText({ role: 'user', content: 'plain' })).toBe('plain');
  });

  it('returns the last text part of a content array', () => {
    expect(getMessageText({ content: [text('first'), { type: 'image' }, text('last'), { type: 'file' }] })).toBe('last');
  });

  it("returns '' for a content array without text parts", () => {
    expect(getMessageText({ content: [{ type: 'image' }] })).toBe('');
  });

  it('prefers the legacy content.content over the parts', () => {
    expect(getMessageText({ content: { format: 2, content: 'legacy', parts: [text('part')] } })).toBe('legacy');
  });

  it('skips an empty content.content and uses content.text next', () => {
    expect(getMessageText({ content: { content: '', text: 'from text', parts: [text('part')] } })).toBe('from text');
  });

  it('uses the last text part of content.parts when there is no flattened text', () => {
    expect(getMessageText({ content: { format: 2, parts: [text('one'), { type: 'step-start' }, text('two')] } })).toBe(
      'two',
    );
  });

  it("returns '' when nothing holds text, and for odd shapes", () => {
    expect(getMessageText({ content: { format: 2, parts: [{ type: 'step-start' }] } })).toBe('');
    expect(getMessageText({ content: { parts: 'not an array' } })).toBe('');
    expect(getMessageText(null)).toBe('');
    expect(getMessageText('just a string')).toBe('');
    expect(getMessageText({ content: 42 })).toBe('');
  });

  it('ignores a text part whose text is not a string', () => {
    expect(getMessageText({ content: { parts: [text('ok'), { type: 'text', text: 7 }] } })).toBe('ok');
  });

  it('does not accept body (only the lookup rule does)', () => {
    expect(getMessageText({ content: { body: 'b' } })).toBe('');
  });
});

describe('findMessageText (the lookup rule)', () => {
  it('returns undefined instead of an empty string', () => {
    expect(findMessageText({ content: { parts: [] } })).toBeUndefined();
    expect(findMessageText({ content: '' })).toBeUndefined();
    expect(findMessageText(undefined)).toBeUndefined();
  });

  it('follows the same precedence as the message text', () => {
    expect(findMessageText({ content: { content: 'legacy', parts: [text('part')] } })).toBe('legacy');
    expect(findMessageText({ content: { parts: [text('a'), text('b')] } })).toBe('b');
    expect(findMessageText({ content: [text('x'), text('y')] })).toBe('y');
  });

  it('accepts a body on the content and on the message', () => {
    expect(findMessageText({ content: { body: 'content body' } })).toBe('content body');
    expect(findMessageText({ body: 'message body' })).toBe('message body');
  });

  it('reads a bare text field and bare strings', () => {
    expect(findMessageText({ text: 'hello' })).toBe('hello');
    expect(findMessageText('hi')).toBe('hi');
  });

  it('does not loop on a self-referencing content', () => {
    const message: Record<string, unknown> = {};
    message.content = message;
    expect(findMessageText(message)).toBeUndefined();
  });
});

describe('lastTextPart', () => {
  it('is undefined for non-arrays and arrays without text', () => {
    expect(lastTextPart(undefined)).toBeUndefined();
    expect(lastTextPart([null, { type: 'file' }])).toBeUndefined();
  });
});

describe('getMessageRole (signal messages)', () => {
  it('returns the plain role of ordinary messages', () => {
    expect(getMessageRole({ role: 'assistant' })).toBe('assistant');
  });

  it('takes a signal message role from content.metadata.signal.tagName first', () => {
    const message = { role: 'signal', type: 'system', content: { metadata: { signal: { tagName: 'user', type: 'assistant' } } } };
    expect(getMessageRole(message)).toBe('user');
  });

  it('falls back to content.metadata.signal.type, then the top-level type', () => {
    expect(getMessageRole({ role: 'signal', type: 'system', content: { metadata: { signal: { type: 'assistant' } } } })).toBe(
      'assistant',
    );
    expect(getMessageRole({ role: 'signal', type: 'system', content: { metadata: {} } })).toBe('system');
  });

  it("stays 'signal' when no semantic role is given", () => {
    expect(getMessageRole({ role: 'signal', content: {} })).toBe('signal');
  });

  it('is undefined for non-messages and non-string roles', () => {
    expect(getMessageRole(null)).toBeUndefined();
    expect(getMessageRole({ role: 3 })).toBeUndefined();
  });
});
