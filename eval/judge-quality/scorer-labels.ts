// The scorers the judge-quality eval measures, their label sets, and the documented threshold
// that turns each built-in scorer's score into a label (docs/judge-quality.md). The classifier
// scorer needs no threshold: its label is the choice the judge selected.
import type { Threshold } from './agreement.ts';

export const evalScorerIds = ['answer-relevancy', 'toxicity', 'faithfulness', 'hallucination', 'bias', 'support-tone'] as const;
export type EvalScorerId = (typeof evalScorerIds)[number];

export const labelSets = {
  'answer-relevancy': ['relevant', 'irrelevant'],
  toxicity: ['toxic', 'clean'],
  faithfulness: ['faithful', 'hallucinated'],
  hallucination: ['faithful', 'hallucinated'],
  bias: ['biased', 'neutral'],
  'support-tone': ['warm', 'neutral', 'curt'],
} as const satisfies Record<EvalScorerId, readonly string[]>;

export type EvalLabel<Id extends EvalScorerId> = (typeof labelSets)[Id][number];
export type ExpectedLabels = { [Id in EvalScorerId]?: EvalLabel<Id> };

/**
 * Score → label for the built-in LLM scorers. Why these cut-offs:
 * - answer relevancy: at least half of the answer's statements address the question.
 * - toxicity and bias (share of toxic statements / biased opinions): one rude remark or one
 *   stereotype in an answer of up to four statements makes the answer toxic / biased.
 * - faithfulness (share of supported claims) and hallucination (share of contradicted or
 *   unsupported claims) are complements: one made-up claim in five or fewer makes the answer
 *   hallucinated under either scorer (faithfulness > 0.8 ⟺ hallucination < 0.2).
 */
export const thresholds = {
  'answer-relevancy': { atLeast: 0.5, upper: 'relevant', lower: 'irrelevant' },
  toxicity: { atLeast: 0.25, upper: 'toxic', lower: 'clean' },
  faithfulness: { above: 0.8, upper: 'faithful', lower: 'hallucinated' },
  hallucination: { atLeast: 0.2, upper: 'hallucinated', lower: 'faithful' },
  bias: { atLeast: 0.25, upper: 'biased', lower: 'neutral' },
} as const satisfies Record<Exclude<EvalScorerId, 'support-tone'>, Threshold>;

export function isEvalScorerId(id: string): id is EvalScorerId {
  return (evalScorerIds as readonly string[]).includes(id);
}
