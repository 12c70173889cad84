import { describe, expect, it } from 'vitest';
import { createToolErrorRateScorer } from '../../../../../../../src/kit/scorers/code/tool-error-rate/index.ts';
import { createTestMessage } from '../../../../../../../src/kit/testing/agent-test-run.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';

describe('createToolErrorRateScorer', () => {
  it('scores 1 − failed/total, counting thrown errors and error results across messages', async () => {
    const run = agentTurn('Find me a cheap flight to Rome next Friday.', [
      assistantMessage('', [
        toolCall('searchFlights', { id: 'c1', state: 'output-error', errorText: 'upstream timeout after 30s' }),
        toolCall('searchFlights', { id: 'c2' }),
      ]),
      assistantMessage('', [toolCall('getPrices', { id: 'c3', result: 'currency service unavailable', isError: true })], 'assistant-2'),
      assistantMessage('The cheapest flight leaves at 07:10 for €89.', [], 'assistant-3'),
    ]);
    const result = await createToolErrorRateScorer().run(run);
    expect(result.score).toBeCloseTo(1 / 3, 12);
    expect(result.preprocessStepResult).toEqual({
      totalCalls: 3,
      failedCalls: [
        { toolName: 'searchFlights', toolCallId: 'c1', error: 'upstream timeout after 30s' },
        { toolName: 'getPrices', toolCallId: 'c3', error: 'currency service unavailable' },
      ],
    });
    expect(result.reason).toBe(
      '2 of 3 tool calls failed: searchFlights (upstream timeout after 30s), getPrices (currency service unavailable).',
    );
  });

  it('scores 1 when every call succeeded', async () => {
    const run = agentTurn('Weather in Oslo?', [assistantMessage('It is 4°C.', [toolCall('getWeather'), toolCall('getTime')])]);
    const result = await createToolErrorRateScorer().run(run);
    expect(result.score).toBe(1);
    expect(result.reason).toBe('All 2 tool calls succeeded.');
    const single = await createToolErrorRateScorer().run(agentTurn('Time?', [assistantMessage('10:42.', [toolCall('getTime')])]));
    expect(single.reason).toBe('The one tool call succeeded.');
  });

  it('names a failed call without error text by its tool only, and shortens long error texts', async () => {
    const longError = 'x'.repeat(500);
    const run = agentTurn('Go', [
      assistantMessage('Done.', [
        toolCall('a', { id: 'a', isError: true, result: { code: 500 } }),
        toolCall('b', { id: 'b', state: 'output-error', errorText: longError }),
      ]),
    ]);
    const result = await createToolErrorRateScorer().run(run);
    expect(result.score).toBe(0);
    const [first, second] = result.preprocessStepResult!.failedCalls;
    expect(first).toEqual({ toolName: 'a', toolCallId: 'a' });
    expect(second!.error).toHaveLength(200);
    expect(second!.error!.endsWith('…')).toBe(true);
    expect(result.reason).toMatch(/^2 of 2 tool calls failed: a, b \(x+…\)\.$/);
  });

  it('counts a call only once when parts and the legacy mirror both hold it', async () => {
    const failed = toolCall('lookup', { id: 'same', state: 'output-error', errorText: 'boom' });
    const message = createTestMessage({
      role: 'assistant',
      content: 'Sorry, the lookup failed.',
      parts: [{ type: 'tool-invocation', toolInvocation: failed }, { type: 'text', text: 'Sorry, the lookup failed.' }],
      toolInvocations: [failed, toolCall('other', { id: 'legacy-only' })],
    });
    const result = await createToolErrorRateScorer().run(agentTurn('Look it up', [message]));
    expect(result.preprocessStepResult?.totalCalls).toBe(2);
    expect(result.score).toBe(0.5);
  });

  it('is not scorable when the agent called no tools', async () => {
    const result = await createToolErrorRateScorer().run(agentTurn('Hi', [assistantMessage('Hello!')]));
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: 'The agent called no tools.' });
  });

  it('does not count partial calls, approvals or denials', async () => {
    const run = agentTurn('Delete my account', [
      assistantMessage('I need your approval first.', [
        toolCall('deleteAccount', { id: 'p', state: 'partial-call' }),
        toolCall('deleteAccount', { id: 'd', state: 'output-denied' }),
      ]),
    ]);
    expect((await createToolErrorRateScorer().run(run)).notScorable?.reason).toBe('The agent called no tools.');
  });
});
