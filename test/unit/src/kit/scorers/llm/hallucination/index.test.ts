import { describe, expect, it } from 'vitest';
import {
  computeHallucinationScore,
  createHallucinationScorer,
} from '../../../../../../../src/kit/scorers/llm/hallucination/index.ts';
import { hallucinationInstructions } from '../../../../../../../src/kit/scorers/llm/hallucination/prompts.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';
import { mockJudge } from '../../../../../../../src/kit/testing/mock-judge.ts';

const answer = 'The Eiffel Tower is 330 metres tall, opened in 1889 and is the most visited monument in the world.';
const context = ['The Eiffel Tower is 330 metres tall.', 'It opened to the public in 1889.'];
const run = agentTurn('Tell me about the Eiffel Tower.', [assistantMessage(answer)]);

const verdicts = {
  claims: [
    { claim: 'The Eiffel Tower is 330 metres tall.', verdict: 'supported', reason: 'Stated in item 1.' },
    { claim: 'The Eiffel Tower opened in 1889.', verdict: 'supported', reason: 'Stated in item 2.' },
    { claim: 'It is the most visited monument in the world.', verdict: 'unsupported', reason: 'Not in the context.' },
  ],
};

describe('createHallucinationScorer', () => {
  it('scores the share of contradicted or unsupported claims', async () => {
    const model = mockJudge({ answers: [verdicts, 'The score is 0.33 because one claim is not in the context.'] });
    const result = await createHallucinationScorer({ model, options: { context } }).run(run);

    expect(result.score).toBe(0.33);
    expect(result.reason).toBe('The score is 0.33 because one claim is not in the context.');
    const analyze = model.calls[0]!;
    expect(analyze.system).toBe(hallucinationInstructions);
    expect(analyze.user).toContain(`<answer>\n${answer}\n</answer>`);
    expect(analyze.user).toContain('1. The Eiffel Tower is 330 metres tall.\n2. It opened to the public in 1889.');
    const reason = model.calls[1]!.user;
    expect(reason).toContain('The score is 0.33 on a scale from 0 to 1');
    expect(reason).toContain('[unsupported] It is the most visited monument in the world.');
  });

  it('counts contradictions, scales, and falls back to tool results for context', async () => {
    const withTools = agentTurn('Tell me about the Eiffel Tower.', [
      assistantMessage(answer, [toolCall('wiki', { result: 'The Eiffel Tower is 300 metres tall.' })]),
    ]);
    const contradicted = {
      claims: [
        { claim: 'The Eiffel Tower is 330 metres tall.', verdict: 'contradicted', reason: 'The context says 300 metres.' },
        { claim: 'The Eiffel Tower opened in 1889.', verdict: 'unsupported', reason: 'No date in the context.' },
      ],
    };
    const model = mockJudge({ answers: [contradicted, 'bad'] });
    const result = await createHallucinationScorer({ model, options: { scale: 10 } }).run(withTools);
    expect(result.score).toBe(10);
    expect(result.preprocessStepResult?.context).toEqual(['wiki: The Eiffel Tower is 300 metres tall.']);
  });

  it('scores 0 for an answer without claims', async () => {
    const result = await createHallucinationScorer({ model: mockJudge({ answers: [{ claims: [] }, 'nothing claimed'] }), options: { context } }).run(run);
    expect(result.score).toBe(0);
    expect(result.reason).toBe('nothing claimed');
  });

  it('is not scorable without context or without an answer', async () => {
    const model = mockJudge();
    expect((await createHallucinationScorer({ model }).run(run)).notScorable?.reason).toBe(
      'No context to check the answer against: no tool returned a result and no context is configured.',
    );
    expect((await createHallucinationScorer({ model, options: { context } }).run(agentTurn('Hi', []))).notScorable?.reason).toBe(
      'The agent gave no text answer.',
    );
    expect(model.calls).toHaveLength(0);
  });
});

describe('computeHallucinationScore', () => {
  it('counts contradicted and unsupported claims', () => {
    expect(computeHallucinationScore(['supported', 'contradicted', 'unsupported', 'supported'], 1)).toBe(0.5);
    expect(computeHallucinationScore([], 1)).toBe(0);
  });
});
