import { describe, expect, it } from 'vitest';
import { createThreadToolErrorRateScorer } from '../../../../../../../src/kit/scorers/code/thread-tool-error-rate/index.ts';
import { agentTurn, assistantMessage } from '../../agent-runs.ts';
import { threadRun } from '../../thread-runs.ts';

describe('createThreadToolErrorRateScorer', () => {
  it('rates every tool call of the conversation and names the turns that failed', async () => {
    const run = threadRun([
      { tools: [{ toolName: 'search' }, { toolName: 'lookupOrder', state: 'output-error', errorText: 'timeout' }] },
      { tools: [] },
      { tools: [{ toolName: 'refund', isError: true, result: 'not allowed' }, { toolName: 'search' }] },
    ]);
    const result = await createThreadToolErrorRateScorer().run(run);
    expect(result.score).toBe(0.5);
    expect(result.preprocessStepResult).toMatchObject({ totalCalls: 4, turns: 3, failedCalls: [{ turn: 1, runId: 'run-1', toolName: 'lookupOrder' }, { turn: 3, runId: 'run-3', toolName: 'refund' }] });
    expect(result.reason).toBe('2 of 4 tool calls over 3 turns failed: lookupOrder (turn 1), refund (turn 3).');
  });

  it('is 1 when every call succeeded, and not scorable without calls or outside a conversation', async () => {
    const scorer = createThreadToolErrorRateScorer();
    const clean = await scorer.run(threadRun([{ tools: [{ toolName: 'search' }] }]));
    expect(clean.score).toBe(1);
    expect(clean.reason).toBe('All 1 tool call over 1 turn succeeded.');
    expect((await scorer.run(threadRun([{}]))).notScorable).toEqual({ step: 'preprocess', reason: 'The agent called no tools in the conversation.' });
    expect((await scorer.run(agentTurn('Hi', [assistantMessage('Hello')]))).notScorable?.step).toBe('preprocess');
  });
});
