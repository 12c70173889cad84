// What the live join pairs on (docs/feedback.md, the join): a run, or a thread. Feedback about a
// run (or a trace's agent span, which the OTLP input makes a run of) meets the scored records of
// that run; feedback about a thread meets the scores of that thread — by its key, tenant and id
// (feedbackKeyFor, src/kit/contracts/record-key.ts). The two kinds never meet: a thread score's runId
// is only its last turn's, and a thumbs on that turn is not a verdict on the conversation.
import type { FeedbackRecord } from '../../kit/contracts/feedback-record.ts';
import { feedbackKeyFor } from '../../kit/contracts/record-key.ts';

/** A run subject and a thread subject never share a spelling, whatever the ids. */
const runSubject = (runId: string) => `run:${runId}`;
const threadSubject = (threadKey: string) => `thread:${threadKey}`;

export function feedbackSubject(feedback: Pick<FeedbackRecord, 'target' | 'metadata'>): string {
  const key = feedbackKeyFor(feedback);
  return feedback.target.type === 'thread' ? threadSubject(key) : runSubject(key);
}

export function scoreSubject(score: { runId: string; thread?: { key: string } | undefined }): string {
  return score.thread === undefined ? runSubject(score.runId) : threadSubject(score.thread.key);
}
