import { describe, expect, it } from 'vitest';
import { extractToolCalls, mergeToolInvocations } from '../../../../../src/kit/utils/tool-calls.ts';
import { createToolInvocation } from '../../../../../src/kit/testing/agent-test-run.ts';
import type { ToolInvocation } from '../../../../../src/kit/utils/message-types.ts';

const call = (toolCallId: string, toolName = toolCallId, state: ToolInvocation['state'] = 'result') =>
  createToolInvocation({ toolCallId, toolName, state });
const part = (invocation: unknown) => ({ type: 'tool-invocation', toolInvocation: invocation });
const message = (parts: unknown[], toolInvocations?: unknown[]) => ({
  id: 'm',
  role: 'assistant',
  createdAt: new Date(),
  content: { format: 2, parts, ...(toolInvocations ? { toolInvocations } : {}) },
});
const ids = (list: unknown[]) => list.map((entry) => (entry as { toolCallId?: string }).toolCallId);

describe('mergeToolInvocations', () => {
  it('returns the tool parts in order when there is no legacy list', () => {
    expect(ids(mergeToolInvocations(message([part(call('a')), { type: 'text', text: 'x' }, part(call('b'))]).content))).toEqual(['a', 'b']);
  });

  it('lets the part win on a shared toolCallId', () => {
    const fromPart = { ...call('a'), result: 'part' };
    const merged = mergeToolInvocations(message([part(fromPart)], [{ ...call('a'), result: 'legacy' }]).content);
    expect(merged).toEqual([fromPart]);
  });

  it('places legacy-only calls before the next shared anchor and appends the rest', () => {
    const content = message([part(call('p1')), part(call('shared1')), part(call('shared2'))], [
      call('legacyA'),
      call('shared1'),
      call('legacyB'),
      call('legacyC'),
      call('shared2'),
      call('legacyTail'),
    ]).content;
    expect(ids(mergeToolInvocations(content))).toEqual(['p1', 'legacyA', 'shared1', 'legacyB', 'legacyC', 'shared2', 'legacyTail']);
  });

  it('keeps legacy-only calls when there are no parts', () => {
    expect(ids(mergeToolInvocations(message([], [call('x'), call('y')]).content))).toEqual(['x', 'y']);
  });

  it('treats a legacy entry without toolCallId as legacy-only', () => {
    const anonymous = { toolName: 'anon', state: 'call' };
    expect(mergeToolInvocations(message([part(call('a'))], [anonymous, call('a')]).content)).toEqual([anonymous, call('a')]);
  });

  it('returns [] for content that is not an object', () => {
    expect(mergeToolInvocations('text')).toEqual([]);
  });
});

describe('extractToolCalls', () => {
  it('lists counted calls with their message and invocation index', () => {
    const output = [
      message([{ type: 'text', text: 'hi' }]),
      message([part(call('c1', 'search')), part(call('c2', 'fetch', 'call'))]),
    ];
    expect(extractToolCalls(output)).toEqual({
      tools: ['search', 'fetch'],
      toolCallInfos: [
        { toolName: 'search', toolCallId: 'c1', messageIndex: 1, invocationIndex: 0 },
        { toolName: 'fetch', toolCallId: 'c2', messageIndex: 1, invocationIndex: 1 },
      ],
    });
  });

  it("counts 'output-error' but not 'partial-call' or approval/denial states, with the index counting skipped entries", () => {
    const output = [
      message([
        part(call('p', 'partial', 'partial-call')),
        part(call('d', 'denied', 'output-denied')),
        part(call('r', 'approval', 'approval-requested')),
        part(call('e', 'broken', 'output-error')),
      ]),
    ];
    expect(extractToolCalls(output).toolCallInfos).toEqual([
      { toolName: 'broken', toolCallId: 'e', messageIndex: 0, invocationIndex: 3 },
    ]);
  });

  it('skips invocations without a tool name', () => {
    expect(extractToolCalls([message([part({ toolCallId: 'x', state: 'result' }), part({ toolCallId: 'y', toolName: '', state: 'call' })])]).tools).toEqual([]);
  });

  it('uses `${messageIndex}-${invocationIndex}` when the call has no id', () => {
    const output = [message([]), message([part(call('a', 'first')), part({ toolName: 'noId', state: 'result' })])];
    expect(extractToolCalls(output).toolCallInfos[1]).toEqual({ toolName: 'noId', toolCallId: '1-1', messageIndex: 1, invocationIndex: 1 });
  });

  it('merges legacy toolInvocations with parts: no loss, no double count', () => {
    const output = [message([part(call('shared', 'search'))], [call('legacyOnly', 'lookup'), call('shared', 'search')])];
    expect(extractToolCalls(output)).toEqual({
      tools: ['lookup', 'search'],
      toolCallInfos: [
        { toolName: 'lookup', toolCallId: 'legacyOnly', messageIndex: 0, invocationIndex: 0 },
        { toolName: 'search', toolCallId: 'shared', messageIndex: 0, invocationIndex: 1 },
      ],
    });
  });

  it('tolerates odd shapes and non-arrays', () => {
    expect(extractToolCalls(undefined)).toEqual({ tools: [], toolCallInfos: [] });
    expect(extractToolCalls([null, 'x', { content: null }, message([null, part(null)])])).toEqual({ tools: [], toolCallInfos: [] });
  });
});
