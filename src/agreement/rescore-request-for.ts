// When a pair the join measured asks for a re-score (docs/feedback.md, re-scoring): the person
// disagrees with the judge —
//   correction    a reviewer's correction of this scorer whose label is not the judge's;
//   thumbs-down   other feedback that says the run failed (a `false`, a number below the
//                 threshold, the label `fail`) where the judge passed it.
// Feedback that agrees with the judge asks for nothing: a second opinion the first already gave.
// A pair whose score has no run position (a thread score) is not re-scored. The join asks; the
// service decides, since only it knows which bindings opted in (`rescoreOn`). Pure.
import type { AgreementPair } from '../contracts/agreement-record.ts';
import { RESCORE_REQUEST_SCHEMA_VERSION } from '../contracts/rescore-request.ts';
import type { RescoreReason, RescoreRequest } from '../contracts/rescore-request.ts';
import type { JoinedPair } from './feedback-join.ts';

export function rescoreReasonOf(pair: Pick<AgreementPair, 'agree' | 'human' | 'judge'>): RescoreReason | undefined {
  if (pair.agree) return undefined;
  if (pair.human.correction !== undefined) return 'correction';
  return pair.human.label === 'fail' ? 'thumbs-down' : undefined;
}

export function rescoreRequestFor({ score }: JoinedPair, pair: AgreementPair, requestedAt: string): RescoreRequest | undefined {
  const reason = rescoreReasonOf(pair);
  if (reason === undefined || score.source === undefined) return undefined;
  return {
    schemaVersion: RESCORE_REQUEST_SCHEMA_VERSION,
    runId: score.runId,
    scorerId: score.scorerId,
    ...(score.scorerVersion === undefined ? {} : { scorerVersion: score.scorerVersion }),
    scoreId: score.scoreId,
    source: score.source,
    rescore: { feedbackId: pair.feedbackId, reason },
    requestedAt,
  };
}
