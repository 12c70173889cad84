import { describe, expect, it } from 'vitest';
import { cutForJudge, judgedToolCalls, oneLineJson, toolCallsText } from '../../../../../../src/kit/scorers/shared/tool-calls-text.ts';
import { assistantMessage, toolCall } from '../agent-runs.ts';

describe('cutForJudge', () => {
  it('leaves short text alone and marks a cut with how much was left out', () => {
    expect(cutForJudge('abc', 3)).toBe('abc');
    expect(cutForJudge('abcdef', 4)).toBe('abcd …[cut: 2 more characters]');
  });

  it('never ends on half of a surrogate pair', () => {
    expect(cutForJudge('ab😀cd', 3)).toBe('ab …[cut: 4 more characters]');
  });
});

describe('oneLineJson', () => {
  it('keeps every value on one line, escaping format characters JSON leaves as they are', () => {
    expect(oneLineJson('a\nb\u001b[0m')).toBe('"a\\nb\\u001b[0m"');
    expect(oneLineJson('x\u202ey\u2028z')).toBe('"x\\u202ey\\u2028z"');
  });

  it('describes values JSON cannot hold instead of throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(oneLineJson(cyclic)).toBe('"[object Object]"');
    expect(oneLineJson(10n)).toBe('"10"');
    expect(oneLineJson(undefined)).toBe('undefined');
  });
});

describe('judgedToolCalls', () => {
  it('lists each call with its arguments and its result, error or lack of either', () => {
    const output = [
      assistantMessage('', [
        toolCall('a', { id: '1', args: '{"x":1}', result: 'fine' }),
        toolCall('b', { id: '2', args: 'not json', state: 'output-error', errorText: 'boom' }),
        toolCall('c', { id: '3', result: { error: 'quota' }, isError: true }),
        toolCall('d', { id: '4', state: 'call' }),
      ]),
    ];
    const listing = judgedToolCalls(output);
    expect(listing.totalCalls).toBe(4);
    expect(listing.calls).toEqual([
      { call: 1, toolName: 'a', toolCallId: '1', arguments: '{"x":1}', outcome: 'result', output: '"fine"' },
      { call: 2, toolName: 'b', toolCallId: '2', arguments: '"not json" (not valid JSON)', outcome: 'error', output: '"boom"' },
      { call: 3, toolName: 'c', toolCallId: '3', arguments: '{}', outcome: 'error', output: '{"error":"quota"}' },
      { call: 4, toolName: 'd', toolCallId: '4', arguments: '{}', outcome: 'pending' },
    ]);
    expect(toolCallsText(listing)).toContain('4. d\n   arguments: {}\n   (no result: the call never returned)');
  });

  it('says so when the agent called no tools', () => {
    expect(toolCallsText(judgedToolCalls([assistantMessage('hi')]))).toBe('(The agent called no tools.)');
  });
});
