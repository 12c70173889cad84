import { describe, expect, it } from 'vitest';
import { createContentSimilarityScorer } from '../../../../../../../src/kit/scorers/code/content-similarity/index.ts';
import { agentTurn, assistantMessage } from '../../agent-runs.ts';

// Expected values computed independently (bigram Dice in Python) for the same normalised strings.
describe('createContentSimilarityScorer', () => {
  const run = agentTurn('Capital of France?', [assistantMessage('Paris   is the capital\nof France.')], {
    groundTruth: 'The capital of France is Paris.',
  });

  it('ignores case and whitespace runs by default and tolerates reordering', async () => {
    const result = await createContentSimilarityScorer().run(run);
    expect(result.score).toBe(0.9);
    expect(result.preprocessStepResult).toEqual({ referenceSource: 'groundTruth', similarity: 0.9 });
    expect(result.reason).toBe('The answer has a character-bigram similarity of 0.90 to the ground truth.');
  });

  it('keeps whitespace and case when told to', async () => {
    const keepWhitespace = await createContentSimilarityScorer({ ignoreWhitespace: false }).run(run);
    expect(keepWhitespace.score).toBeCloseTo(0.8064516129032258, 12);
    const exact = await createContentSimilarityScorer({ ignoreCase: false }).run(
      agentTurn('Capital?', [assistantMessage('paris is the capital of france')], { groundTruth: 'Paris is the capital of France' }),
    );
    expect(exact.score).toBeCloseTo(0.896551724137931, 12);
  });

  it('compares with the user message when there is no ground truth', async () => {
    const result = await createContentSimilarityScorer().run(
      agentTurn('What is the capital of France?', [assistantMessage('Paris is the capital of France.')]),
    );
    expect(result.score).toBeCloseTo(0.8135593220338984, 12);
    expect(result.reason).toContain('to the input');
  });

  it('is not scorable without an answer or anything to compare with', async () => {
    expect((await createContentSimilarityScorer().run(agentTurn('Hi', []))).notScorable?.reason).toBe(
      'The agent gave no text answer.',
    );
    expect((await createContentSimilarityScorer().run(agentTurn(undefined, [assistantMessage('Hello')]))).notScorable?.reason).toBe(
      'Nothing to compare with: the run has no groundTruth and no user message.',
    );
  });
});
