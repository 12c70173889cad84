import { describe, expect, it } from 'vitest';
import { computeConversationResolutionScore, createConversationResolutionScorer } from '../../../../../../../src/kit/scorers/llm/conversation-resolution/index.ts';
import { conversationResolutionInstructions } from '../../../../../../../src/kit/scorers/llm/conversation-resolution/prompts.ts';
import { mockJudge, providerError } from '../../../../../../../src/kit/testing/mock-judge.ts';
import { agentTurn, assistantMessage } from '../../agent-runs.ts';
import { threadRun } from '../../thread-runs.ts';

const run = threadRun([
  { question: 'My order 1234 has not arrived.', answer: 'Let me look it up.', tools: [{ toolName: 'lookupOrder', state: 'output-error', errorText: 'timeout' }] },
  { question: 'Any news? Also, can I change the address?', answer: 'It ships tomorrow. I cannot change the address, please call support.' },
]);
const verdicts = {
  requests: [
    { request: 'Find the late order', verdict: 'resolved', reason: 'Turn 2 gives the ship date.' },
    { request: 'Change the address', verdict: 'partially_resolved', reason: 'Only a next step.' },
    { request: 'Refund', verdict: 'unresolved', reason: 'Never answered.' },
  ],
};

describe('createConversationResolutionScorer', () => {
  it('scores the resolved share of the requests from the judge verdicts, reading the whole conversation', async () => {
    const model = mockJudge({ answers: [verdicts, 'The score is 0.5 because the address change was left to the user.'] });
    const result = await createConversationResolutionScorer({ model }).run(run);
    expect(result.score).toBe(0.5);
    expect(result.reason).toBe('The score is 0.5 because the address change was left to the user.');
    const analyze = model.calls[0]!;
    expect(analyze.system).toBe(conversationResolutionInstructions);
    expect(analyze.user).toContain('Turn 1\nuser: My order 1234 has not arrived.\nassistant: Let me look it up.\n(tools that failed in this turn: lookupOrder)');
    expect(analyze.user).toContain('Turn 2\nuser: Any news? Also, can I change the address?');
    expect(model.calls[1]!.user).toContain('[partially_resolved] Change the address (Only a next step.)');
  });

  it('weighs partly resolved requests by partialWeight and applies the scale', async () => {
    const model = mockJudge({ answers: [verdicts, 'ok'] });
    expect((await createConversationResolutionScorer({ model, options: { partialWeight: 1, scale: 10 } }).run(run)).score).toBe(6.67);
  });

  it('is not scorable for a run that is not a conversation, without calling the judge', async () => {
    const model = mockJudge();
    const result = await createConversationResolutionScorer({ model }).run(agentTurn('Hi', [assistantMessage('Hello')]));
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: "Not a conversation: 'conversation-resolution' scores threads; bind it with level: 'thread'." });
    expect(model.calls).toHaveLength(0);
  });

  it('is not scorable without an answer, and when the judge finds no request', async () => {
    const silent = await createConversationResolutionScorer({ model: mockJudge() }).run(threadRun([{ question: 'Hello?', answer: '' }]));
    expect(silent.notScorable).toEqual({ step: 'preprocess', reason: 'The agent gave no text answer in the conversation.' });
    const chat = await createConversationResolutionScorer({ model: mockJudge({ answers: [{ requests: [] }] }) }).run(run);
    expect(chat.notScorable).toEqual({ step: 'generateScore', reason: 'The judge found no request of the user in the conversation.' });
  });

  it('fails at analyze when the judge answers outside the schema, or its provider fails', async () => {
    const bad = { requests: [{ request: 'x', verdict: 'mostly', reason: 'r' }] };
    await expect(createConversationResolutionScorer({ model: mockJudge({ answers: [bad, bad, bad] }) }).run(run)).rejects.toMatchObject({ failedStep: 'analyze' });
    const refused = mockJudge({ answer: providerError(401) });
    await expect(createConversationResolutionScorer({ model: refused }).run(run)).rejects.toMatchObject({ failedStep: 'analyze', canRetry: false });
    const unavailable = mockJudge({ answer: providerError(503, { retryAfterMs: 1 }) });
    await expect(createConversationResolutionScorer({ model: unavailable }).run(run)).rejects.toMatchObject({ failedStep: 'analyze', canRetry: true });
  });

  it('rejects a partialWeight outside 0..1 at construction', () => {
    expect(() => createConversationResolutionScorer({ model: mockJudge(), options: { partialWeight: 2 } })).toThrow('option "partialWeight" must be a number >= 0 and <= 1; got 2.');
  });
});

describe('computeConversationResolutionScore', () => {
  it('is undefined without requests', () => {
    expect(computeConversationResolutionScore([], { partialWeight: 0.5, scale: 1 })).toBeUndefined();
    expect(computeConversationResolutionScore(['resolved', 'unresolved'], { partialWeight: 0.5, scale: 1 })).toBe(0.5);
  });
});
