// Textual difference (code, no judge): how close the agent's answer is to the run's
// `groundTruth` (or, without one, to the user's input), as a sequence-matcher ratio
// (2·matched / total, difflib's Ratcliff/Obershelp measure).
//
// Words and punctuation marks are compared by default, not characters: character-level
// matching either needs difflib's "autojunk" (which makes texts past 200 characters look
// unrelated) or costs ~160 ms for two 5,000-character answers, too slow for a stream.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { isNotScorable } from '../../../scorer/not-scorable.ts';
import { invalidScorerOptions } from '../../shared/invalid-options.ts';
import { getAnswerAndReference } from '../../shared/run-text.ts';
import { countChanges, sequenceRatio } from '../../text/sequence-matcher.ts';
import { splitWordsAndMarks } from '../../text/tokenize.ts';

export const textualDifferenceScorerId = 'textual-difference';

export type TextualDifferenceOptions = {
  /**
   * What the ratio counts: 'word' (default) compares words and punctuation marks, case kept;
   * 'character' compares characters (code points) exactly, best kept to short answers.
   */
  unit?: 'word' | 'character';
};

export function createTextualDifferenceScorer(options: TextualDifferenceOptions = {}) {
  const unit = options.unit ?? 'word';
  if (unit !== 'word' && unit !== 'character') {
    throw invalidScorerOptions(textualDifferenceScorerId, `option "unit" must be 'word' or 'character'; got ${JSON.stringify(unit)}.`);
  }
  const split = unit === 'word' ? splitWordsAndMarks : (text: string) => Array.from(text);

  return createScorer({
    id: textualDifferenceScorerId,
    name: 'Textual Difference',
    description: "Sequence-matcher similarity of the agent's answer to the ground truth (or the input).",
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const texts = getAnswerAndReference(run);
      if (isNotScorable(texts)) return texts;
      const { answer, reference } = texts;
      const answerUnits = split(answer);
      const referenceUnits = split(reference.text);
      const matcherOptions = { autoJunk: false };
      const longer = Math.max(answerUnits.length, referenceUnits.length);
      return {
        referenceSource: reference.source,
        unit,
        ratio: sequenceRatio(referenceUnits, answerUnits, matcherOptions),
        changes: countChanges(referenceUnits, answerUnits, matcherOptions),
        lengthDifference: longer === 0 ? 0 : Math.abs(answerUnits.length - referenceUnits.length) / longer,
      };
    })
    .generateScore(({ results }) => results.preprocessStepResult.ratio)
    .generateReason(({ results, score }) => {
      const { referenceSource, changes, unit: comparedUnit } = results.preprocessStepResult;
      const reference = referenceSource === 'groundTruth' ? 'the ground truth' : 'the input';
      const edits = changes === 1 ? '1 changed region' : `${changes} changed regions`;
      return `The answer matches ${reference} with a ${comparedUnit} similarity of ${score.toFixed(2)} (${edits}).`;
    });
}
