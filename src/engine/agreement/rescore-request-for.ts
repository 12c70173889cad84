// When a pair the join measured asks for a re-score (docs/feedback.md, re-scoring): the person
// disagrees with the judge —
//   correction    a reviewer's correction of this scorer whose label is not the judge's;
//   thumbs-down   other feedback that says the run failed (a `false`, a number below the
//                 threshold, the label `fail`) where the judge passed it.
// Feedback that agrees with the judge asks for nothing: a second opinion the first already gave.
// The join asks; the service decides, since only it knows which bindings opted in (`rescoreOn`).
//
// A thread score is never asked about: the disagreement is refused here, and the join counts the
// refusal (docs/feedback.md, feedback on a thread). The re-score path reads one run event back at
// the judged record's position and scores it; a thread score's input is a conversation — the
// turns the thread state of the member owning the thread holds (slimmed, and released after a
// close under onResume 'segment' or 'once'), spread over many offsets — which no position names.
// And a thread already has a re-score of its own: when it resumes (onResume). Pure.
import type { AgreementPair } from '../../kit/contracts/agreement-record.ts';
import { RESCORE_REQUEST_SCHEMA_VERSION } from '../../kit/contracts/rescore-request.ts';
import type { RescoreReason, RescoreRequest } from '../../kit/contracts/rescore-request.ts';
import type { JoinedPair } from './feedback-join.ts';

/** A disagreement the join does not ask the service about, and counts: a thread score's (above). */
export type RescoreRefusal = { refused: 'thread_score' };

export function rescoreReasonOf(pair: Pick<AgreementPair, 'agree' | 'human' | 'judge'>): RescoreReason | undefined {
  if (pair.agree) return undefined;
  if (pair.human.correction !== undefined) return 'correction';
  return pair.human.label === 'fail' ? 'thumbs-down' : undefined;
}

/** The request a measured pair makes, the refusal of one, or undefined when it asks for nothing. */
export function rescoreRequestFor({ score }: JoinedPair, pair: AgreementPair, requestedAt: string): RescoreRequest | RescoreRefusal | undefined {
  const reason = rescoreReasonOf(pair);
  if (reason === undefined) return undefined;
  if (score.thread !== undefined) return { refused: 'thread_score' };
  // A run's score record always carries its run event's position; the type allows none for a thread's.
  if (score.source === undefined) return undefined;
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
