import { describe, expect, it } from 'vitest';
import { ScorestreamError } from '../../../../../../../src/kit/errors.ts';
import { createTextualDifferenceScorer } from '../../../../../../../src/kit/scorers/code/textual-difference/index.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';

// Expected ratios computed with Python's difflib.SequenceMatcher(None, reference, answer, autojunk=False)
// over the same word/mark units (or characters).
describe('createTextualDifferenceScorer', () => {
  it('compares the answer with the ground truth word by word', async () => {
    const run = agentTurn('What is the capital of France?', [assistantMessage('Paris is the capital of France.')], {
      groundTruth: 'The capital of France is Paris.',
    });
    const result = await createTextualDifferenceScorer().run(run);
    expect(result.score).toBeCloseTo(0.5714285714285714, 12);
    expect(result.preprocessStepResult).toEqual({
      referenceSource: 'groundTruth',
      unit: 'word',
      ratio: result.score,
      changes: 2,
      lengthDifference: 0,
    });
    expect(result.reason).toBe('The answer matches the ground truth with a word similarity of 0.57 (2 changed regions).');
  });

  it('compares with the user message when there is no ground truth', async () => {
    const run = agentTurn('What is the capital of France?', [assistantMessage('The capital of France is Paris.')]);
    const result = await createTextualDifferenceScorer().run(run);
    expect(result.score).toBeCloseTo(0.42857142857142855, 12);
    expect(result.preprocessStepResult?.referenceSource).toBe('input');
    expect(result.reason).toContain('matches the input');
  });

  it('compares characters when asked', async () => {
    const run = agentTurn('Refund policy?', [assistantMessage('Refunds are issued within 10 business days of the return.')], {
      groundTruth: 'Refunds are issued within 14 days of the return.',
    });
    const words = await createTextualDifferenceScorer().run(run);
    const characters = await createTextualDifferenceScorer({ unit: 'character' }).run(run);
    expect(words.score).toBeCloseTo(0.8571428571428571, 12);
    expect(characters.score).toBeCloseTo(0.8952380952380953, 12);
    expect(characters.preprocessStepResult?.changes).toBe(1);
    expect(characters.preprocessStepResult?.lengthDifference).toBeCloseTo(9 / 57, 12);
    expect(characters.reason).toBe('The answer matches the ground truth with a character similarity of 0.90 (1 changed region).');
  });

  it('scores 1 for an answer equal to the ground truth, and reads a message-like ground truth', async () => {
    const run = agentTurn('Capital?', [assistantMessage('Paris.')], { groundTruth: { role: 'assistant', text: 'Paris.' } });
    const result = await createTextualDifferenceScorer().run(run);
    expect(result.score).toBe(1);
    expect(result.preprocessStepResult?.changes).toBe(0);
  });

  it('is not scorable without an answer or anything to compare with', async () => {
    const noAnswer = await createTextualDifferenceScorer().run(agentTurn('Hi', [assistantMessage('', [toolCall('x')])]));
    expect(noAnswer.notScorable).toEqual({ step: 'preprocess', reason: 'The agent gave no text answer.' });
    const noReference = await createTextualDifferenceScorer().run(agentTurn(undefined, [assistantMessage('Hello')]));
    expect(noReference.notScorable).toEqual({
      step: 'preprocess',
      reason: 'Nothing to compare with: the run has no groundTruth and no user message.',
    });
    expect('score' in noReference).toBe(false);
  });

  it('rejects an unknown unit', () => {
    expect(() => createTextualDifferenceScorer({ unit: 'line' as 'word' })).toThrow(ScorestreamError);
    expect(() => createTextualDifferenceScorer({ unit: 'line' as 'word' })).toThrow(`option "unit" must be 'word' or 'character'`);
  });
});
