import { describe, expect, it } from 'vitest';
import { computeUserFrustrationScore, createUserFrustrationScorer } from '../../../../../../../src/kit/scorers/llm/user-frustration/index.ts';
import { userFrustrationInstructions } from '../../../../../../../src/kit/scorers/llm/user-frustration/prompts.ts';
import { mockJudge, providerError } from '../../../../../../../src/kit/testing/mock-judge.ts';
import { agentTurn, assistantMessage } from '../../agent-runs.ts';
import { threadRun } from '../../thread-runs.ts';

const run = threadRun([
  { question: 'Where is my parcel?', answer: 'Which parcel do you mean?' },
  { question: 'The one I told you about.', answer: 'Could you give me the order number?' },
  { question: 'I ALREADY GAVE IT TO YOU. Forget it.', answer: 'Sorry about that.' },
]);
const verdicts = {
  messages: [
    { message: 1, verdict: 'not_frustrated', reason: 'A plain question.' },
    { message: 2, verdict: 'not_frustrated', reason: 'A calm follow-up.' },
    { message: 3, verdict: 'frustrated', reason: 'Shouting and giving up.' },
  ],
};

describe('createUserFrustrationScorer', () => {
  it("scores the frustrated share of the user's messages, each numbered for the judge", async () => {
    const model = mockJudge({ answers: [verdicts, 'The score is 0.33 because the user gave up in turn 3.'] });
    const result = await createUserFrustrationScorer({ model }).run(run);
    expect(result.score).toBe(0.33);
    expect(model.calls[0]!.system).toBe(userFrustrationInstructions);
    expect(model.calls[0]!.user).toContain('<user-messages>\n1. Where is my parcel?\n2. The one I told you about.\n3. I ALREADY GAVE IT TO YOU. Forget it.\n</user-messages>');
    expect(model.calls[1]!.user).toContain('1. message 3: Shouting and giving up.');
  });

  it('does not believe verdicts on messages that do not exist', async () => {
    const invented = { messages: [...verdicts.messages, { message: 9, verdict: 'frustrated', reason: '?' }, { message: 0, verdict: 'frustrated', reason: '?' }] };
    expect((await createUserFrustrationScorer({ model: mockJudge({ answers: [invented, 'ok'] }) }).run(run)).score).toBe(0.33);
    const none = await createUserFrustrationScorer({ model: mockJudge({ answers: [{ messages: [{ message: 7, verdict: 'frustrated', reason: '?' }] }] }) }).run(run);
    expect(none.notScorable).toEqual({ step: 'generateScore', reason: 'The judge gave no verdict on any of the user messages.' });
  });

  it('is not scorable for a run that is not a conversation', async () => {
    const result = await createUserFrustrationScorer({ model: mockJudge() }).run(agentTurn('Hi', [assistantMessage('Hello')]));
    expect(result.notScorable?.step).toBe('preprocess');
  });

  it('fails at analyze when the judge provider fails', async () => {
    await expect(createUserFrustrationScorer({ model: mockJudge({ answer: providerError(429, { retryAfterMs: 1 }) }) }).run(run)).rejects.toMatchObject({ failedStep: 'analyze', canRetry: true });
  });
});

describe('computeUserFrustrationScore', () => {
  it('is the frustrated share, scaled; undefined without verdicts', () => {
    expect(computeUserFrustrationScore(['frustrated', 'not_frustrated'], 10)).toBe(5);
    expect(computeUserFrustrationScore([], 1)).toBeUndefined();
  });
});
