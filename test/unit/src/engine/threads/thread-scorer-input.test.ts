// What a thread scorer receives: the conversation flattened for Mastra's utils, each turn as its own run.
import { describe, expect, it } from 'vitest';
import { threadRunOf } from '../../../../../src/kit/scorer/thread-run.ts';
import { buildThreadScorerInput, threadFacts } from '../../../../../src/engine/threads/thread-scorer-input.ts';
import { extractToolCalls } from '../../../../../src/kit/utils/tool-calls.ts';
import { getUserMessageFromRunInput, getSystemMessagesFromRunInput, extractInputMessages } from '../../../../../src/kit/utils/run-input.ts';
import { getAssistantMessageFromRunOutput } from '../../../../../src/kit/utils/run-output.ts';
import { traceFor } from '../../../../helpers/runs.ts';
import { runScore, turnOf } from './fixtures.ts';
import { createToolErrorRecoveryScorer } from '../../../../../src/kit/scorers/code/tool-error-recovery/index.ts';
import { createStepBudgetScorer } from '../../../../../src/kit/scorers/code/step-budget/index.ts';
import { createUnofferedToolCallsScorer } from '../../../../../src/kit/scorers/code/unoffered-tool-calls/index.ts';

const version = { id: 't-1', key: 'acme:t-1', turns: 2, firstRunId: 'run-1', lastRunId: 'run-2', closedBy: 'idle' as const, version: 1, versionId: 'v-1', scope: 'conversation' as const };
const turns = [
  turnOf({ runId: 'run-1', question: 'My order 1234 has not arrived.', answer: 'Let me check.', tools: [{ toolName: 'lookupOrder', state: 'output-error', errorText: 'timeout' }], offset: 10 }, { records: [runScore('run-1', 'completeness', 0.4)], decisions: [] }).turn,
  turnOf({ runId: 'run-2', question: 'Any news?', answer: 'It ships tomorrow.', tools: [{ toolName: 'lookupOrder' }], offset: 11, timestamp: '2026-11-29T12:05:00.000Z' }, { records: [runScore('run-2', 'completeness', 0.9)], decisions: [] }).turn,
];

describe('buildThreadScorerInput', () => {
  const input = buildThreadScorerInput(version, turns);

  it("flattens the conversation so Mastra's utils read it as one exchange", () => {
    expect(getUserMessageFromRunInput(input.input)).toBe('My order 1234 has not arrived.');
    expect(extractInputMessages(input.input)).toEqual(['My order 1234 has not arrived.', 'Any news?']);
    expect(getAssistantMessageFromRunOutput(input.output)).toBe('It ships tomorrow.');
    expect(extractToolCalls(input.output).tools).toEqual(['lookupOrder', 'lookupOrder']);
    // The same system prompt in every turn appears once.
    expect(getSystemMessagesFromRunInput(input.input)).toEqual(['You are a helpful support agent.']);
  });

  it('carries every turn as the run a run scorer saw, with its run scores, and the thread version', () => {
    const view = threadRunOf(input)!;
    expect(view.thread).toEqual(version);
    expect(view.turns.map((turn) => [turn.runId, turn.timestamp, turn.runScores])).toEqual([
      ['run-1', '2026-11-29T12:00:00.000Z', [{ scorerId: 'completeness', status: 'scored', score: 0.4 }]],
      ['run-2', '2026-11-29T12:05:00.000Z', [{ scorerId: 'completeness', status: 'scored', score: 0.9 }]],
    ]);
    expect(getUserMessageFromRunInput(view.turns[1]!.input)).toBe('Any news?');
    expect(view.turns[0]!.targetSpanId).toBe(traceFor('run-1').spanId);
  });

  it("takes the rest from the last turn: its run id, trace, thread id; sampling by the thread's key", () => {
    expect(input).toMatchObject({ runId: 'run-2', targetTraceId: traceFor('run-2').traceId, targetSpanId: traceFor('run-2').spanId, threadId: 't-1', scoreSource: 'live' });
    const facts = threadFacts(turns);
    expect(facts.samplingKey).toBe('acme:t-1');
    expect(facts.predicateContext.threadId).toBe('t-1');
    expect(facts.source).toEqual({ topic: 'agent-runs', partition: 1, offset: '11' });
  });
});

describe('the conversation for the trajectory scorers', () => {
  const lookupOrder = { name: 'lookupOrder', description: 'Find an order.' };
  const refund = { name: 'refund' };
  const conversation = (second: { tools?: { name: string }[]; usage?: { inputTokens: number; outputTokens?: number }; durationMs?: number }) => [
    turnOf({ runId: 'run-1', tools: [{ toolName: 'lookupOrder', state: 'output-error', errorText: 'timeout' }], offset: 10, event: { tools: [lookupOrder], usage: { inputTokens: 400, outputTokens: 50 }, durationMs: 3_000 } }).turn,
    turnOf({ runId: 'run-2', tools: [{ toolName: 'lookupOrder' }, { toolName: 'refund' }], offset: 11, event: second }).turn,
  ];

  it("offers the union of the turns' tools, sums their usage and working time", () => {
    const input = buildThreadScorerInput(version, conversation({ tools: [lookupOrder, refund], usage: { inputTokens: 600, outputTokens: 70 }, durationMs: 4_500 }));
    expect(input.tools).toEqual([lookupOrder, refund]);
    expect(input.usage).toEqual({ inputTokens: 1_000, outputTokens: 120 });
    expect(input.durationMs).toBe(7_500);
  });

  it('does not know what any turn did not say: no tools, no usage count, no duration from one turn alone', () => {
    const input = buildThreadScorerInput(version, conversation({ usage: { inputTokens: 600 } }));
    expect(input.tools).toBeUndefined();
    expect(input.usage).toEqual({ inputTokens: 1_000 });
    expect(input.durationMs).toBeUndefined();
  });

  it('lets the trajectory scorers bound at thread level score the conversation: recovery in a later turn, the budget of all turns', async () => {
    const input = buildThreadScorerInput(version, conversation({ tools: [lookupOrder, refund], usage: { inputTokens: 600, outputTokens: 70 }, durationMs: 4_500 }));
    const recovery = await createToolErrorRecoveryScorer().run(input);
    // The lookup that timed out in the first turn succeeded in the second.
    expect(recovery.score).toBe(1);
    const budget = await createStepBudgetScorer({ maxTotalTokens: 1_000, maxDurationMs: 10_000 }).run(input);
    // 1,120 tokens over the two turns against 1,000: over, though each turn alone was within.
    expect(budget.score).toBeCloseTo(0.88, 10);
    // refund was offered in the second turn only, and called there.
    expect((await createUnofferedToolCallsScorer().run(input)).score).toBe(1);
  });
});

describe('threadRunOf', () => {
  it('is undefined for a run that is not a thread run', () => {
    expect(threadRunOf({ input: {}, output: [] })).toBeUndefined();
    expect(threadRunOf({ turns: [{ runId: 1 }], thread: {} })).toBeUndefined();
    expect(threadRunOf(null)).toBeUndefined();
  });
});
