import { describe, expect, it } from 'vitest';
import { ScorestreamError } from '../../../../../../../src/kit/errors.ts';
import { createKeywordCoverageScorer } from '../../../../../../../src/kit/scorers/code/keyword-coverage/index.ts';
import { agentTurn, assistantMessage, toolCall } from '../../agent-runs.ts';

const refundQuestion = 'How do I get a refund for order 1234?';

describe('createKeywordCoverageScorer with configured keywords', () => {
  const scorer = createKeywordCoverageScorer({ keywords: ['refund', 'order number', '14 days', 'Refund'] });

  it('finds words and phrases regardless of case and punctuation', async () => {
    const run = agentTurn(refundQuestion, [
      assistantMessage('You can request a REFUND within 14 days; please include your order-number.'),
    ]);
    const result = await scorer.run(run);
    expect(result.score).toBe(1);
    expect(result.preprocessStepResult).toEqual({
      keywordSource: 'options',
      matchedKeywords: ['refund', 'order number', '14 days'],
      missingKeywords: [],
    });
    expect(result.reason).toBe('The response contains 3 of 3 keywords.');
  });

  it('needs the words of a phrase next to each other', async () => {
    const run = agentTurn(refundQuestion, [
      assistantMessage('Refunds take 14 days. Give us the number of your order.'),
    ]);
    const result = await scorer.run(run);
    expect(result.score).toBeCloseTo(2 / 3, 12);
    expect(result.preprocessStepResult?.missingKeywords).toEqual(['order number']);
    expect(result.reason).toBe('The response contains 2 of 3 keywords; missing: order number.');
  });

  it('matches accented keywords against plain text', async () => {
    const result = await createKeywordCoverageScorer({ keywords: ['Café'] }).run(
      agentTurn('Where can I eat?', [assistantMessage('Try the cafe on the corner.')]),
    );
    expect(result.score).toBe(1);
  });
});

describe('createKeywordCoverageScorer with keywords from the input', () => {
  it("uses the input's content words, without numbers", async () => {
    const run = agentTurn('Compare the prices of the iPhone 15 and the Pixel 8', [
      assistantMessage('The Pixel is cheaper than the iPhone this month.'),
    ]);
    const result = await createKeywordCoverageScorer().run(run);
    expect(result.preprocessStepResult).toEqual({
      keywordSource: 'input',
      matchedKeywords: ['iphone', 'pixel'],
      missingKeywords: ['compare', 'prices'],
    });
    expect(result.score).toBe(0.5);
  });

  it('is not scorable when the input has no content words and none were configured', async () => {
    const result = await createKeywordCoverageScorer().run(agentTurn('Is it 42?', [assistantMessage('Yes.')]));
    expect('score' in result).toBe(false);
    expect(result.notScorable).toEqual({
      step: 'preprocess',
      reason: 'No keywords: the input has no content words and none were configured.',
    });
  });

  it('is not scorable when the agent gave no text', async () => {
    const result = await createKeywordCoverageScorer().run(
      agentTurn('Weather in Oslo?', [assistantMessage('', [toolCall('getWeather')])]),
    );
    expect(result.notScorable).toEqual({ step: 'preprocess', reason: 'The agent gave no text response.' });
  });
});

describe('createKeywordCoverageScorer options', () => {
  it.each([
    [{ keywords: [] }, 'must be a non-empty array'],
    [{ keywords: 'refund' as unknown as string[] }, 'must be a non-empty array'],
    [{ keywords: ['refund', '...'] }, 'keyword "..." has no letters or digits'],
    [{ keywords: [42 as unknown as string] }, 'keyword 42 has no letters or digits'],
  ])('rejects %j', (options, message) => {
    expect(() => createKeywordCoverageScorer(options)).toThrow(ScorestreamError);
    expect(() => createKeywordCoverageScorer(options)).toThrow(message);
  });

  it('names the configured keywords in its description', () => {
    expect(createKeywordCoverageScorer({ keywords: ['refund'] }).description).toContain('[refund]');
  });
});
