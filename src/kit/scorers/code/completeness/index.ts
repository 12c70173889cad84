// Completeness (code, no judge): how many of the key terms of the user's input the agent's
// response picks up. A rough but cheap signal that the answer addressed everything asked.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { notScorable } from '../../../scorer/not-scorable.ts';
import { getInputText, getResponseText, partAbsent } from '../../shared/run-text.ts';
import { coverTerms, extractKeyTerms } from '../../text/key-terms.ts';

export const completenessScorerId = 'completeness';

export function createCompletenessScorer() {
  return createScorer({
    id: completenessScorerId,
    name: 'Completeness',
    description: "The share of the input's key terms (content words) that the agent's response covers.",
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const inputText = getInputText(run.input);
      if (inputText === undefined) return partAbsent(run, 'question', 'The run input has no text.');
      const inputTerms = extractKeyTerms(inputText);
      if (inputTerms.length === 0) return notScorable('The input has no key terms to cover (only stop words).');
      const responseText = getResponseText(run.output);
      if (responseText === undefined) return partAbsent(run, 'answer', 'The agent gave no text response.');
      const { covered, missing } = coverTerms(inputTerms, extractKeyTerms(responseText));
      return { inputTerms, coveredTerms: covered, missingTerms: missing };
    })
    .generateScore(({ results }) => {
      const { inputTerms, coveredTerms } = results.preprocessStepResult;
      return coveredTerms.length / inputTerms.length;
    })
    .generateReason(({ results }) => {
      const { inputTerms, coveredTerms, missingTerms } = results.preprocessStepResult;
      const summary = `The response covers ${coveredTerms.length} of ${inputTerms.length} key terms of the input`;
      return missingTerms.length === 0 ? `${summary}.` : `${summary}; missing: ${missingTerms.join(', ')}.`;
    });
}
