// One (feedback, score record) pair as an AgreementRecord of kind `pair` (docs/feedback.md), or
// undefined when the feedback does not say pass or fail (agreement-labels.ts). A thread pair is
// identified by its feedback and thread scorer, not by the version compared (agreement-id.ts), and
// names that version. Pure: the caller brings the clock reading.
import type { AgreementPair } from '../../kit/contracts/agreement-record.ts';
import { AGREEMENT_RECORD_SCHEMA_VERSION } from '../../kit/contracts/agreement-record.ts';
import { agreementIdFor, threadAgreementIdFor } from '../../kit/contracts/agreement-id.ts';
import { humanLabel, judgeLabel } from './agreement-labels.ts';
import type { JoinedPair } from './feedback-join.ts';

export function buildAgreementPair({ feedback, score }: JoinedPair, measuredAt: string, passThreshold?: number): AgreementPair | undefined {
  const human = humanLabel(feedback, passThreshold);
  if (human === undefined) return undefined;
  const judge = judgeLabel(score, passThreshold);
  return {
    schemaVersion: AGREEMENT_RECORD_SCHEMA_VERSION,
    kind: 'pair',
    agreementId:
      score.thread === undefined
        ? agreementIdFor({ feedbackId: feedback.feedbackId, scoreId: score.scoreId })
        : threadAgreementIdFor({ feedbackId: feedback.feedbackId, threadKey: score.thread.key, scorerId: score.scorerId, scorerVersion: score.scorerVersion }),
    feedbackId: feedback.feedbackId,
    scoreId: score.scoreId,
    runId: score.runId,
    ...(score.thread === undefined ? {} : { thread: { id: score.thread.id, key: score.thread.key, version: score.thread.version } }),
    scorerId: score.scorerId,
    ...(score.scorerVersion === undefined ? {} : { scorerVersion: score.scorerVersion }),
    ...(score.entity === undefined ? {} : { entity: score.entity }),
    ...(score.metadata === undefined ? {} : { metadata: score.metadata }),
    judge: { score: score.score, label: judge },
    human: {
      name: feedback.name,
      value: feedback.value,
      label: human,
      source: feedback.source,
      ...(feedback.submitter === undefined ? {} : { submitter: feedback.submitter }),
      ...(feedback.comment === undefined ? {} : { comment: feedback.comment }),
      ...(feedback.correction === undefined ? {} : { correction: feedback.correction }),
    },
    agree: human === judge,
    measuredAt,
  };
}
