import { describe, expect, it } from 'vitest';
import { budgetSubScore, createStepBudgetScorer } from '../../../../../../../src/kit/scorers/code/step-budget/index.ts';
import { invalidScorerOptionsCode } from '../../../../../../../src/kit/scorers/shared/invalid-options.ts';
import { createTestMessage } from '../../../../../../../src/kit/testing/agent-test-run.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';

/** A run of `steps` model steps; the first `toolSteps` of them each call one tool. */
function runWithSteps(steps: number, toolSteps = 0) {
  const output = Array.from({ length: steps }, (_, index) =>
    assistantMessage(index === steps - 1 ? 'Done.' : '', index < toolSteps ? [toolCall(`tool${index}`, { id: `c${index}` })] : [], `assistant-${index}`),
  );
  return agentTurn('Reconcile my March invoices.', output);
}

describe('createStepBudgetScorer', () => {
  it('scores 1 within every limit and lists each measure against its limit', async () => {
    const run = { ...runWithSteps(3, 2), usage: { inputTokens: 1000, outputTokens: 204 } };
    const result = await createStepBudgetScorer({ maxModelCalls: 8, maxToolCalls: 10, maxTotalTokens: 4000 }).run(run);
    expect(result.score).toBe(1);
    expect(result.preprocessStepResult).toEqual({
      measures: { modelCalls: 3, toolCalls: 2, totalTokens: 1204 },
      modelCallsCountedBy: 'step-start parts',
      checks: {
        modelCalls: { limit: 8, value: 3, subScore: 1 },
        toolCalls: { limit: 10, value: 2, subScore: 1 },
        totalTokens: { limit: 4000, value: 1204, subScore: 1 },
      },
      unmeasured: [],
      tolerance: 1,
    });
    expect(result.reason).toBe('Within budget: 3 model calls ≤ 8, 2 tool calls ≤ 10, 1,204 tokens ≤ 4,000.');
  });

  it('grades an overrun linearly, the worst one deciding the score', async () => {
    const run = { ...runWithSteps(14, 6), durationMs: 45_000 };
    const result = await createStepBudgetScorer({ maxModelCalls: 8, maxToolCalls: 10, maxDurationMs: 30_000 }).run(run);
    // model calls: 1 − (14 − 8) / 8 = 0.25; duration: 1 − 15,000 / 30,000 = 0.5.
    expect(result.score).toBe(0.25);
    expect(result.preprocessStepResult!.checks.durationMs).toEqual({ limit: 30_000, value: 45_000, subScore: 0.5 });
    expect(result.reason).toBe(
      'Over budget: 14 model calls against a limit of 8 (score 0.25), 45,000 ms against a limit of 30,000 (score 0.50); 6 tool calls ≤ 10.',
    );
  });

  it('gives exact sub-scores at the limit, between, at the zero point and beyond', () => {
    expect(budgetSubScore(8, 8, 1)).toBe(1);
    expect(budgetSubScore(12, 8, 1)).toBe(0.5);
    expect(budgetSubScore(16, 8, 1)).toBe(0);
    expect(budgetSubScore(40, 8, 1)).toBe(0);
    expect(budgetSubScore(10, 8, 0.5)).toBe(0.5);
    expect(budgetSubScore(12, 8, 0.5)).toBe(0);
  });

  it('honours tolerance: 0 already at one and a half times the limit', async () => {
    const result = await createStepBudgetScorer({ maxModelCalls: 4, tolerance: 0.5 }).run(runWithSteps(6));
    expect(result.score).toBe(0);
    expect(result.reason).toBe('Over budget: 6 model calls against a limit of 4 (score 0.00).');
  });

  it('prefers usage.totalTokens over input + output', async () => {
    const run = { ...runWithSteps(1), usage: { inputTokens: 10, outputTokens: 10, totalTokens: 6000 } };
    const result = await createStepBudgetScorer({ maxTotalTokens: 4000 }).run(run);
    expect(result.score).toBe(0.5);
    expect(result.preprocessStepResult!.measures.totalTokens).toBe(6000);
  });

  it('takes a count that is not a finite number for no count: input + output, else unmeasured', async () => {
    const fallback = await createStepBudgetScorer({ maxTotalTokens: 4000 }).run({ ...runWithSteps(1), usage: { inputTokens: 1000, outputTokens: 500, totalTokens: Number.NaN } });
    expect(fallback.score).toBe(1);
    expect(fallback.preprocessStepResult!.measures.totalTokens).toBe(1500);
    const none = await createStepBudgetScorer({ maxTotalTokens: 4000, maxToolCalls: 3 }).run({ ...runWithSteps(1), usage: { totalTokens: Number.POSITIVE_INFINITY } });
    expect(none.score).toBe(1);
    expect(none.preprocessStepResult!.unmeasured).toEqual(['totalTokens']);
  });

  it('reports a limit the run cannot be measured against as unmeasured and scores the rest', async () => {
    const run = { ...runWithSteps(2), usage: { inputTokens: 500 } };
    const result = await createStepBudgetScorer({ maxModelCalls: 8, maxTotalTokens: 4000, maxDurationMs: 1000 }).run(run);
    expect(result.score).toBe(1);
    expect(result.preprocessStepResult!.unmeasured).toEqual(['totalTokens', 'durationMs']);
    expect(result.preprocessStepResult!.measures).toEqual({ modelCalls: 2, toolCalls: 0 });
    expect(result.reason).toBe(
      'Within budget: 2 model calls ≤ 8, tokens not measured (the run carries no usage), duration not measured (the run carries no durationMs).',
    );
  });

  it('is not scorable when no configured limit could be measured, naming what was missing', async () => {
    const result = await createStepBudgetScorer({ maxTotalTokens: 4000, maxDurationMs: 1000 }).run(runWithSteps(2));
    expect(result.score).toBeUndefined();
    expect(result.notScorable?.reason).toBe(
      'No configured limit could be measured: maxTotalTokens (the run carries no usage); maxDurationMs (the run carries no durationMs).',
    );
  });

  it('counts assistant messages as model calls when the producer sends no step-start parts', async () => {
    const plain = (id: string) => createTestMessage({ role: 'assistant', content: 'Working on it.', id });
    const run = agentTurn('Go', [plain('a1'), plain('a2'), plain('a3')]);
    const result = await createStepBudgetScorer({ maxModelCalls: 2 }).run(run);
    expect(result.preprocessStepResult!.measures.modelCalls).toBe(3);
    expect(result.preprocessStepResult!.modelCallsCountedBy).toBe('assistant messages');
    expect(result.score).toBe(0.5);
  });

  it('counts every step-start part, also several in one message', async () => {
    const message = createTestMessage({
      role: 'assistant',
      content: 'Done.',
      parts: [{ type: 'step-start' }, { type: 'step-start' }, { type: 'text', text: 'Done.' }],
    });
    const result = await createStepBudgetScorer({ maxModelCalls: 2 }).run(agentTurn('Go', [message]));
    expect(result.preprocessStepResult!.measures.modelCalls).toBe(2);
    expect(result.score).toBe(1);
  });

  it('rejects options without a limit, naming the limits that exist', () => {
    expect(() => createStepBudgetScorer({})).toThrow(
      'Scorer "step-budget": give at least one limit: "maxModelCalls", "maxToolCalls", "maxTotalTokens", "maxDurationMs".',
    );
    expect(() => createStepBudgetScorer({ tolerance: 1 })).toThrow(expect.objectContaining({ code: invalidScorerOptionsCode }));
  });

  it('rejects limits that are not positive numbers and a tolerance that is not above 0', () => {
    expect(() => createStepBudgetScorer({ maxModelCalls: 0 })).toThrow('option "maxModelCalls" must be a number > 0; got 0.');
    expect(() => createStepBudgetScorer({ maxToolCalls: -1 })).toThrow('"maxToolCalls"');
    expect(() => createStepBudgetScorer({ maxTotalTokens: Number.NaN })).toThrow('"maxTotalTokens"');
    expect(() => createStepBudgetScorer({ maxDurationMs: '100' as unknown as number })).toThrow('"maxDurationMs"');
    expect(() => createStepBudgetScorer({ maxModelCalls: 8, tolerance: 0 })).toThrow('option "tolerance" must be a number > 0; got 0.');
  });
});
