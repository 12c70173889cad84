import { describe, expect, it } from 'vitest';
import { ScorestreamError } from '../../../../../../../src/kit/errors.ts';
import {
  computeAnswerRelevancyScore,
  createAnswerRelevancyScorer,
} from '../../../../../../../src/kit/scorers/llm/answer-relevancy/index.ts';
import { answerRelevancyInstructions } from '../../../../../../../src/kit/scorers/llm/answer-relevancy/prompts.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';
import { mockJudge } from '../../../../../../../src/kit/testing/mock-judge.ts';

const question = 'How long does standard shipping to Germany take?';
const answer =
  'Standard shipping to Germany takes 3 to 5 business days. Orders over €50 ship free. Our company was founded in 1998.';
const run = agentTurn(question, [
  assistantMessage('', [toolCall('lookupShipping', { result: { country: 'DE', days: '3-5' } })]),
  assistantMessage(answer, [], 'assistant-2'),
]);

const verdicts = {
  statements: [
    { statement: 'Standard shipping to Germany takes 3 to 5 business days.', verdict: 'yes', reason: 'Answers the question.' },
    { statement: 'Orders over €50 ship free.', verdict: 'unsure', reason: 'Related to shipping, not to its duration.' },
    { statement: 'The company was founded in 1998.', verdict: 'no', reason: 'Unrelated to shipping.' },
  ],
};
const reasonText = 'The score is 0.43 because the answer gives the delivery time but adds unrelated company history.';

describe('createAnswerRelevancyScorer', () => {
  it('computes the score in code from the verdicts and asks the judge for a reason', async () => {
    const model = mockJudge({ answers: [verdicts, reasonText] });
    const result = await createAnswerRelevancyScorer({ model }).run(run);

    // (1 + 0.3 · 1 + 0) / 3 = 0.4333 → 0.43
    expect(result.score).toBe(0.43);
    expect(result.reason).toBe(reasonText);
    expect(result.preprocessStepResult).toEqual({ question, answer });
    expect(result.analyzeStepResult).toEqual(verdicts);
    expect(model.calls).toHaveLength(2);

    const analyze = model.calls[0]!;
    expect(analyze.system).toBe(answerRelevancyInstructions);
    expect(analyze.user).toContain(`<question>\n${question}\n</question>`);
    expect(analyze.user).toContain(`<answer>\n${answer}\n</answer>`);
    // The judge may append the answer format to the prompt, never change it.
    expect(analyze.user.startsWith(result.analyzePrompt!)).toBe(true);

    const reason = model.calls[1]!.user;
    expect(reason).toContain('The score is 0.43 on a scale from 0 to 1');
    expect(reason).toContain('[no] The company was founded in 1998. (Unrelated to shipping.)');
    expect(reason).toContain(question);
    expect(result.judge?.analyze?.executions[0]?.status).toBe('success');
  });

  it('applies the uncertainty weight and the scale', async () => {
    const model = mockJudge({ answers: [verdicts, 'fine'] });
    const result = await createAnswerRelevancyScorer({ model, options: { uncertaintyWeight: 1, scale: 10 } }).run(run);
    // (1 + 1) / 3 · 10 = 6.67
    expect(result.score).toBe(6.67);
    expect(model.calls[1]!.user).toContain('on a scale from 0 to 10');
  });

  it('scores 0 when the judge finds no statements', async () => {
    const result = await createAnswerRelevancyScorer({ model: mockJudge({ answers: [{ statements: [] }, 'nothing said'] }) }).run(run);
    expect(result.score).toBe(0);
  });

  it('is not scorable without an assistant text, and never calls the judge', async () => {
    const model = mockJudge();
    const toolOnly = agentTurn(question, [assistantMessage('', [toolCall('lookupShipping')])]);
    const result = await createAnswerRelevancyScorer({ model }).run(toolOnly);
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: 'The agent gave no text answer.' });
    expect(model.calls).toHaveLength(0);
  });

  it('is not scorable without a user message', async () => {
    const result = await createAnswerRelevancyScorer({ model: mockJudge() }).run(agentTurn(undefined, [assistantMessage(answer)]));
    expect(result.notScorable?.reason).toBe('The run input has no user message to judge relevance against.');
  });

  it('resolves a string model id through the run options and passes model settings', async () => {
    const model = mockJudge({ answers: [verdicts, reasonText] });
    const scorer = createAnswerRelevancyScorer({ model: 'test/judge', modelSettings: { temperature: 0 } });
    const result = await scorer.run(run, { models: { languageModel: (id) => (id === 'test/judge' ? model : undefined!) } });
    expect(result.score).toBe(0.43);
    expect(model.calls[0]?.options.temperature).toBe(0);
  });

  it('fails the run when the judge returns a verdict outside the schema', async () => {
    const bad = { statements: [{ statement: 'x', verdict: 'maybe', reason: 'r' }] };
    const scorer = createAnswerRelevancyScorer({ model: mockJudge({ answers: [bad, bad] }) });
    await expect(scorer.run(run)).rejects.toMatchObject({ failedStep: 'analyze' });
  });

  it.each([
    [{ uncertaintyWeight: 1.5 }, 'option "uncertaintyWeight" must be a number >= 0 and <= 1; got 1.5.'],
    [{ uncertaintyWeight: -0.1 }, 'option "uncertaintyWeight" must be a number >= 0 and <= 1'],
    [{ scale: 0 }, 'option "scale" must be a number > 0; got 0.'],
    [{ scale: Number.NaN }, 'option "scale" must be a number > 0; got NaN.'],
  ])('rejects options %j', (options, message) => {
    const create = () => createAnswerRelevancyScorer({ model: mockJudge(), options });
    expect(create).toThrow(ScorestreamError);
    expect(create).toThrow(message);
  });
});

describe('computeAnswerRelevancyScore', () => {
  it('weighs yes fully, unsure by the weight, no not at all', () => {
    expect(computeAnswerRelevancyScore(['yes', 'yes', 'no', 'unsure'], { uncertaintyWeight: 0.5, scale: 1 })).toBe(0.63);
    expect(computeAnswerRelevancyScore(['yes'], { uncertaintyWeight: 0.3, scale: 5 })).toBe(5);
    expect(computeAnswerRelevancyScore([], { uncertaintyWeight: 0.3, scale: 1 })).toBe(0);
  });
});
