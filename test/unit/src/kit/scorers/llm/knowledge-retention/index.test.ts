import { describe, expect, it } from 'vitest';
import { computeKnowledgeRetentionScore, createKnowledgeRetentionScorer } from '../../../../../../../src/kit/scorers/llm/knowledge-retention/index.ts';
import { knowledgeRetentionInstructions } from '../../../../../../../src/kit/scorers/llm/knowledge-retention/prompts.ts';
import { judgeReply, mockJudge } from '../../../../../../../src/kit/testing/mock-judge.ts';
import { threadRun } from '../../thread-runs.ts';

const run = threadRun([
  { question: 'My name is Ada and my order is 1234.', answer: 'Thanks Ada, I see order 1234.' },
  { question: 'I am vegetarian, by the way.', answer: 'Noted.' },
  { question: 'When will it arrive?', answer: 'Could you tell me your order number?' },
]);
const verdicts = {
  facts: [
    { fact: 'The order is 1234', turn: 1, verdict: 'forgotten', reason: 'Asked again in turn 3.' },
    { fact: 'The name is Ada', turn: 1, verdict: 'retained', reason: 'Used in turn 1.' },
    { fact: 'Vegetarian', turn: 2, verdict: 'not_needed', reason: 'Never came up.' },
  ],
};

describe('createKnowledgeRetentionScorer', () => {
  it('scores the kept share of the facts that mattered later; facts not needed do not count', async () => {
    const model = mockJudge({ answers: [verdicts, 'The score is 0.5 because the order number was asked for again.'] });
    const result = await createKnowledgeRetentionScorer({ model }).run(run);
    expect(result.score).toBe(0.5);
    expect(model.calls[0]!.system).toBe(knowledgeRetentionInstructions);
    expect(model.calls[0]!.user).toContain('Turn 3\nuser: When will it arrive?\nassistant: Could you tell me your order number?');
    const reason = model.calls[1]!.user;
    expect(reason).toContain('[forgotten] The order is 1234 (turn 1; Asked again in turn 3.)');
    expect(reason).not.toContain('Vegetarian');
  });

  it('has nothing to measure in a one-turn conversation, or when no fact mattered later', async () => {
    const model = mockJudge();
    expect((await createKnowledgeRetentionScorer({ model }).run(threadRun([{ question: 'Hi' }]))).notScorable).toEqual({ step: 'preprocess', reason: 'A conversation of one turn has nothing to retain.' });
    expect(model.calls).toHaveLength(0);
    const unneeded = { facts: [{ fact: 'Vegetarian', turn: 2, verdict: 'not_needed', reason: 'n/a' }] };
    expect((await createKnowledgeRetentionScorer({ model: mockJudge({ answers: [unneeded] }) }).run(run)).notScorable).toEqual({ step: 'generateScore', reason: 'No fact the user gave mattered later in the conversation.' });
  });

  it('fails at analyze when the judge is cut off (finish reason length, no answer)', async () => {
    const truncated = judgeReply('', { finishReason: 'length' });
    await expect(createKnowledgeRetentionScorer({ model: mockJudge({ answers: [truncated, truncated, truncated] }) }).run(run)).rejects.toMatchObject({ failedStep: 'analyze' });
  });
});

describe('computeKnowledgeRetentionScore', () => {
  it('ignores facts not needed; undefined when none mattered', () => {
    expect(computeKnowledgeRetentionScore(['retained', 'retained', 'forgotten', 'not_needed'], 1)).toBe(0.67);
    expect(computeKnowledgeRetentionScore(['not_needed'], 1)).toBeUndefined();
  });
});
