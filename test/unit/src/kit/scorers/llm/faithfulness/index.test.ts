import { describe, expect, it } from 'vitest';
import { ScorestreamError } from '../../../../../../../src/kit/errors.ts';
import {
  computeFaithfulnessScore,
  createFaithfulnessScorer,
} from '../../../../../../../src/kit/scorers/llm/faithfulness/index.ts';
import { faithfulnessInstructions } from '../../../../../../../src/kit/scorers/llm/faithfulness/prompts.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';
import { mockJudge } from '../../../../../../../src/kit/testing/mock-judge.ts';

const question = 'What is the status of order 1234?';
const answer = 'Order 1234 shipped on 2 May with DHL and will arrive on 6 May. It contains two items.';
const run = agentTurn(question, [
  assistantMessage('', [
    toolCall('getOrder', { id: 'c1', result: { id: 1234, status: 'shipped', shippedOn: '2024-05-02', carrier: 'DHL', items: 3 } }),
    toolCall('getTracking', { id: 'c2', state: 'output-error', errorText: 'tracking service down' }),
  ]),
  assistantMessage(answer, [], 'assistant-2'),
]);

const verdicts = {
  claims: [
    { claim: 'Order 1234 shipped on 2 May.', verdict: 'supported', reason: 'shippedOn is 2024-05-02.' },
    { claim: 'Order 1234 shipped with DHL.', verdict: 'supported', reason: 'carrier is DHL.' },
    { claim: 'Order 1234 will arrive on 6 May.', verdict: 'unsupported', reason: 'No delivery date in the context.' },
    { claim: 'Order 1234 contains two items.', verdict: 'contradicted', reason: 'The order has 3 items.' },
  ],
};

describe('createFaithfulnessScorer', () => {
  it("checks the answer against the run's successful tool results and computes supported / claims", async () => {
    const model = mockJudge({ answers: [verdicts, 'The score is 0.5 because two of four claims are backed by the order data.'] });
    const result = await createFaithfulnessScorer({ model }).run(run);

    expect(result.score).toBe(0.5);
    expect(result.reason).toBe('The score is 0.5 because two of four claims are backed by the order data.');
    expect(result.preprocessStepResult).toEqual({
      answer,
      context: ['getOrder: {"id":1234,"status":"shipped","shippedOn":"2024-05-02","carrier":"DHL","items":3}'],
      contextSource: 'tool-results',
    });

    const analyze = model.calls[0]!;
    expect(analyze.system).toBe(faithfulnessInstructions);
    expect(analyze.user).toContain(`<answer>\n${answer}\n</answer>`);
    expect(analyze.user).toContain('<context>\n1. getOrder: {"id":1234');
    expect(analyze.user).not.toContain('tracking service down');

    const reason = model.calls[1]!.user;
    expect(reason).toContain('The score is 0.5 on a scale from 0 to 1');
    expect(reason).toContain('[unsupported] Order 1234 will arrive on 6 May. (No delivery date in the context.)');
  });

  it('uses the configured context instead of tool results, and the scale', async () => {
    const model = mockJudge({ answers: [verdicts, 'ok'] });
    const context = ['Order 1234 shipped on 2 May 2024 with DHL.', '  '];
    const result = await createFaithfulnessScorer({ model, options: { context, scale: 100 } }).run(run);
    expect(result.score).toBe(50);
    expect(result.preprocessStepResult?.context).toEqual(['Order 1234 shipped on 2 May 2024 with DHL.']);
    expect(result.preprocessStepResult?.contextSource).toBe('options');
    expect(model.calls[0]!.user).not.toContain('getOrder');
  });

  it('is not scorable when the answer makes no claims, without asking for a reason', async () => {
    const model = mockJudge({ answers: [{ claims: [] }] });
    const result = await createFaithfulnessScorer({ model }).run(run);
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({ step: 'generateScore', reason: 'The answer makes no factual claims to check.' });
    expect(model.calls).toHaveLength(1);
  });

  it.each([
    [
      'no successful tool result',
      agentTurn(question, [assistantMessage(answer, [toolCall('getOrder', { state: 'output-error', errorText: 'down' })])]),
      undefined,
      'No context to check the answer against: no tool returned a result and no context is configured.',
    ],
    ['an empty configured context', run, [' '], 'The configured context is empty.'],
    ['no assistant text', agentTurn(question, [assistantMessage('', [toolCall('getOrder')])]), undefined, 'The agent gave no text answer.'],
  ])('is not scorable with %s, and never calls the judge', async (_case, scoredRun, context, reason) => {
    const model = mockJudge();
    const result = await createFaithfulnessScorer({ model, options: context === undefined ? {} : { context } }).run(scoredRun);
    expect(result.notScorable).toEqual({ step: 'preprocess', reason });
    expect(model.calls).toHaveLength(0);
  });

  it('cuts very long tool results', async () => {
    const model = mockJudge({ answers: [verdicts, 'ok'] });
    const huge = agentTurn(question, [assistantMessage(answer, [toolCall('fetchPage', { result: 'a'.repeat(20_000) })])]);
    const result = await createFaithfulnessScorer({ model }).run(huge);
    const [item] = result.preprocessStepResult!.context;
    expect(item).toHaveLength(8_000 + ' …[truncated]'.length);
    expect(item!.endsWith(' …[truncated]')).toBe(true);
  });

  it.each([
    [{ context: 'not a list' as unknown as string[] }, 'option "context" must be an array of strings.'],
    [{ scale: -1 }, 'option "scale" must be a number > 0; got -1.'],
  ])('rejects options %j', (options, message) => {
    expect(() => createFaithfulnessScorer({ model: mockJudge(), options })).toThrow(ScorestreamError);
    expect(() => createFaithfulnessScorer({ model: mockJudge(), options })).toThrow(message);
  });
});

describe('computeFaithfulnessScore', () => {
  it('counts only supported claims and has no score without claims', () => {
    expect(computeFaithfulnessScore(['supported', 'unsupported', 'contradicted'], 1)).toBe(0.33);
    expect(computeFaithfulnessScore([], 1)).toBeUndefined();
  });
});
