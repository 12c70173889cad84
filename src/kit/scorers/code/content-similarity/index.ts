// Content similarity (code, no judge): character-bigram (Dice) similarity of the agent's answer
// to the run's `groundTruth` or, without one, to the user's input. Order-tolerant, unlike the
// textual-difference ratio: reordered sentences still score high.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { isNotScorable } from '../../../scorer/not-scorable.ts';
import { getAnswerAndReference } from '../../shared/run-text.ts';
import { diceCoefficient } from '../../text/dice-coefficient.ts';

export const contentSimilarityScorerId = 'content-similarity';

export type ContentSimilarityOptions = {
  /** Compare lower-cased texts (default true). */
  ignoreCase?: boolean;
  /** Collapse runs of whitespace to one space and trim (default true). */
  ignoreWhitespace?: boolean;
};

export function createContentSimilarityScorer(options: ContentSimilarityOptions = {}) {
  const ignoreCase = options.ignoreCase ?? true;
  const ignoreWhitespace = options.ignoreWhitespace ?? true;
  const prepare = (text: string): string => {
    const cased = ignoreCase ? text.toLowerCase() : text;
    return ignoreWhitespace ? cased.replace(/\s+/g, ' ').trim() : cased;
  };

  return createScorer({
    id: contentSimilarityScorerId,
    name: 'Content Similarity',
    description: "Character-bigram similarity of the agent's answer to the ground truth (or the input).",
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const texts = getAnswerAndReference(run);
      if (isNotScorable(texts)) return texts;
      const { answer, reference } = texts;
      return {
        referenceSource: reference.source,
        similarity: diceCoefficient(prepare(reference.text), prepare(answer)),
      };
    })
    .generateScore(({ results }) => results.preprocessStepResult.similarity)
    .generateReason(({ results, score }) => {
      const reference = results.preprocessStepResult.referenceSource === 'groundTruth' ? 'the ground truth' : 'the input';
      return `The answer has a character-bigram similarity of ${score.toFixed(2)} to ${reference}.`;
    });
}
