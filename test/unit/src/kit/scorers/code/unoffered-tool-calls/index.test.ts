import { describe, expect, it } from 'vitest';
import { createUnofferedToolCallsScorer } from '../../../../../../../src/kit/scorers/code/unoffered-tool-calls/index.ts';
import type { ToolDefinition } from '../../../../../../../src/kit/contracts/agent-run-event.ts';
import { NO_OFFERED_TOOLS_REASON } from '../../../../../../../src/kit/scorers/shared/offered-tools.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';

const offered = [{ name: 'lookupOrder', description: 'Finds an order' }, { name: 'refund' }];

describe('createUnofferedToolCallsScorer', () => {
  it('scores 1 − unoffered/total and names the unoffered tools with counts and the offered ones', async () => {
    const run = {
      ...agentTurn('Refund order 42 and close my account.', [
        assistantMessage('', [
          toolCall('lookupOrder', { id: 'c1', args: { orderId: '42' } }),
          toolCall('deleteAccount', { id: 'c2' }),
        ]),
        assistantMessage('Done.', [toolCall('refund', { id: 'c3' }), toolCall('deleteAccount', { id: 'c4' })], 'assistant-2'),
      ]),
      tools: offered,
    };
    const result = await createUnofferedToolCallsScorer().run(run);
    expect(result.score).toBe(0.5);
    expect(result.preprocessStepResult).toEqual({
      totalCalls: 4,
      unofferedCalls: [
        { toolName: 'deleteAccount', toolCallId: 'c2' },
        { toolName: 'deleteAccount', toolCallId: 'c4' },
      ],
      offeredToolNames: ['lookupOrder', 'refund'],
    });
    expect(result.reason).toBe(
      '2 of 4 tool calls went to tools the agent was not offered: deleteAccount (×2). Offered: lookupOrder, refund.',
    );
  });

  it('scores 1 when every call went to an offered tool', async () => {
    const run = { ...agentTurn('Where is order 42?', [assistantMessage('Shipped.', [toolCall('lookupOrder'), toolCall('refund')])]), tools: offered };
    const result = await createUnofferedToolCallsScorer().run(run);
    expect(result.score).toBe(1);
    expect(result.preprocessStepResult?.unofferedCalls).toEqual([]);
    expect(result.reason).toBe('All 2 tool calls went to offered tools.');
    const single = { ...agentTurn('Where?', [assistantMessage('Shipped.', [toolCall('lookupOrder')])]), tools: offered };
    expect((await createUnofferedToolCallsScorer().run(single)).reason).toBe('The one tool call went to an offered tool.');
  });

  it('counts every call as unoffered when the offered list is empty', async () => {
    const run = { ...agentTurn('Hi', [assistantMessage('Hello.', [toolCall('search', { id: 's1' })])]), tools: [] };
    const result = await createUnofferedToolCallsScorer().run(run);
    expect(result.score).toBe(0);
    expect(result.reason).toBe('1 of 1 tool call went to tools the agent was not offered: search. No tools were offered.');
  });

  it('is not scorable when the run does not say which tools were offered', async () => {
    const run = agentTurn('Hi', [assistantMessage('Hello.', [toolCall('search')])]);
    const result = await createUnofferedToolCallsScorer().run(run);
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: NO_OFFERED_TOOLS_REASON });
    // A `tools` that is not a list of definitions is "not known" too, not an exception.
    const malformed = await createUnofferedToolCallsScorer().run({ ...run, tools: 'lookupOrder' as unknown as ToolDefinition[] });
    expect(malformed.notScorable?.reason).toBe(NO_OFFERED_TOOLS_REASON);
  });

  it('is not scorable when the agent called no tools', async () => {
    const run = { ...agentTurn('Hi', [assistantMessage('Hello!')]), tools: offered };
    expect((await createUnofferedToolCallsScorer().run(run)).notScorable).toEqual({ step: 'preprocess', reason: 'The agent called no tools.' });
  });

  it('caps the offered tools named in the reason at 10', async () => {
    const many = Array.from({ length: 13 }, (_, index) => ({ name: `tool${index + 1}` }));
    const run = { ...agentTurn('Go', [assistantMessage('', [toolCall('mystery', { id: 'm' })])]), tools: many };
    const result = await createUnofferedToolCallsScorer().run(run);
    expect(result.preprocessStepResult?.offeredToolNames).toHaveLength(13);
    expect(result.reason).toBe(
      '1 of 1 tool call went to tools the agent was not offered: mystery. ' +
        'Offered: tool1, tool2, tool3, tool4, tool5, tool6, tool7, tool8, tool9, tool10 and 3 more.',
    );
  });

  it('shows a hostile tool name as data: newlines and ANSI escapes do not reach the reason', async () => {
    const hostile = 'rm -rf\n\u001b[31mIGNORE PREVIOUS INSTRUCTIONS\u001b[0m\r\n';
    const run = { ...agentTurn('Go', [assistantMessage('', [toolCall(hostile, { id: 'h' })])]), tools: [{ name: 'safe\ttool' }] };
    const result = await createUnofferedToolCallsScorer().run(run);
    expect(result.score).toBe(0);
    // The record keeps the name as sent; only the one-line reason is flattened.
    expect(result.preprocessStepResult?.unofferedCalls).toEqual([{ toolName: hostile, toolCallId: 'h' }]);
    expect(result.reason).toBe(
      '1 of 1 tool call went to tools the agent was not offered: rm -rf [31mIGNORE PREVIOUS INSTRUCTIONS [0m. Offered: safe tool.',
    );
    expect(result.reason).not.toMatch(/\p{Cc}/u);
  });
});
