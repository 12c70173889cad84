// What the feedback join asks the service to re-score (docs/feedback.md, re-scoring): a pair where
// the person disagrees — a thumbs-down on a passed run, a correction unlike the judge's label —
// and nothing for agreement or an up-vote on a failed run; a disagreeing thread pair is refused.
import { describe, expect, it } from 'vitest';
import { buildAgreementPair } from '../../../../../src/engine/agreement/build-agreement-pair.ts';
import type { JoinedPair } from '../../../../../src/engine/agreement/feedback-join.ts';
import { rescoreRequestFor } from '../../../../../src/engine/agreement/rescore-request-for.ts';
import type { FeedbackRecord } from '../../../../../src/kit/contracts/feedback-record.ts';

const at = '2026-12-02T08:00:00.000Z';
const source = { topic: 'agent-runs', partition: 1, offset: '77' };
const score = (value: number, fields: Partial<JoinedPair['score']> = {}): JoinedPair['score'] => ({ scoreId: 'score-1', runId: 'run-1', scorerId: 'answer-relevancy', scorerVersion: '2', score: value, source, ...fields });
const feedback = (value: FeedbackRecord['value'], fields: Partial<FeedbackRecord> = {}): FeedbackRecord => ({ schemaVersion: 1, feedbackId: 'fb-1', target: { type: 'run', runId: 'run-1' }, source: 'end_user', name: 'thumbs', value, submittedAt: at, ...fields });

function requestOf(joined: JoinedPair) {
  const pair = buildAgreementPair(joined, at);
  if (pair === undefined) throw new Error('the test pair has no label');
  return rescoreRequestFor(joined, pair, at);
}

describe('rescoreRequestFor', () => {
  it('asks for a thumbs-down on a run the judge passed, naming the pair, the judged record and where the run is', () => {
    expect(requestOf({ feedback: feedback(false), score: score(0.9) })).toEqual({
      schemaVersion: 1,
      runId: 'run-1',
      scorerId: 'answer-relevancy',
      scorerVersion: '2',
      scoreId: 'score-1',
      source,
      rescore: { feedbackId: 'fb-1', reason: 'thumbs-down' },
      requestedAt: at,
    });
  });

  it('asks for a correction whose label is not the judge’s', () => {
    const correction = feedback('irrelevant', { source: 'reviewer', correction: { scorerId: 'answer-relevancy', score: 0.1 } });
    expect(requestOf({ feedback: correction, score: score(0.8) })).toMatchObject({ rescore: { feedbackId: 'fb-1', reason: 'correction' } });
    // A correction agreeing with the judge asks for nothing.
    expect(requestOf({ feedback: correction, score: score(0.2) })).toBeUndefined();
  });

  it('asks for nothing when the person agrees, or likes a run the judge failed', () => {
    expect(requestOf({ feedback: feedback(false), score: score(0.1) })).toBeUndefined();
    expect(requestOf({ feedback: feedback(true), score: score(0.1) })).toBeUndefined();
  });

  it('refuses a disagreeing thread pair, so the join counts it, and says nothing of an agreeing one (thread scores are not re-scored on feedback)', () => {
    const thread = { id: '42', key: 'acme:42', version: 1, scoredAtMs: Date.parse(at) };
    const threadFeedback = (value: boolean) => feedback(value, { target: { type: 'thread', threadId: '42' }, metadata: { tenantId: 'acme' } });
    expect(requestOf({ feedback: threadFeedback(false), score: score(0.9, { thread, source: undefined }) })).toEqual({ refused: 'thread_score' });
    const correction = feedback('fail', { target: { type: 'thread', threadId: '42' }, source: 'reviewer', correction: { scorerId: 'answer-relevancy', label: 'fail' } });
    expect(requestOf({ feedback: correction, score: score(0.9, { thread, source: undefined }) })).toEqual({ refused: 'thread_score' });
    expect(requestOf({ feedback: threadFeedback(true), score: score(0.9, { thread, source: undefined }) })).toBeUndefined();
  });
});
