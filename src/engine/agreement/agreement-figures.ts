// Agreement between a judge and a reference (people, a labelled set) — one implementation for the
// judge-quality eval (eval/judge-quality/) and the live feedback join (docs/feedback.md).
// The figures of one agreement measurement, as the judge-quality report and the agreement window
// records carry them (docs/judge-quality.md, docs/feedback.md): the number of labelled pairs and
// of agreements, accuracy, Cohen's κ and — for an ordinal scale — weighted κ.
import type { ConfusionMatrix } from './confusion-matrix.ts';
import { accuracy, agreementCount, cohensKappa, pairCount, weightedKappa } from './kappa.ts';

export type AgreementFigures = {
  n: number;
  agreements: number;
  accuracy: number | undefined;
  kappa: number | undefined;
  /** Only when the labels are an ordinal scale, in order. */
  weightedKappa?: { linear: number | undefined; quadratic: number | undefined };
};

export function agreementFigures(matrix: ConfusionMatrix, options: { ordinal?: boolean } = {}): AgreementFigures {
  return {
    n: pairCount(matrix),
    agreements: agreementCount(matrix),
    accuracy: accuracy(matrix),
    kappa: cohensKappa(matrix),
    ...(options.ordinal === true ? { weightedKappa: { linear: weightedKappa(matrix, 'linear'), quadratic: weightedKappa(matrix, 'quadratic') } } : {}),
  };
}
