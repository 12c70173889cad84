// Feedback ids that are the same whenever the same person says something again about the same
// thing: one per (target, name, source, submitter). A double click, a retried request or a vote
// changed from up to down carries the same feedbackId, so readers keep the latest and a compacted
// topic keeps one. Feedback without a submitter shares one id per target, name and source.
import { deterministicId } from './deterministic-id.ts';
import type { FeedbackSource, FeedbackTarget } from './feedback-record.ts';

const DOMAIN = 'scorestream.feedback-id.v1';

export type FeedbackIdParts = { target: FeedbackTarget; name: string; source: FeedbackSource; submitterId?: string | undefined };

export function targetParts(target: FeedbackTarget): string[] {
  if (target.type === 'run') return ['run', target.runId];
  if (target.type === 'trace') return ['trace', target.traceId, target.spanId];
  return ['thread', target.threadId];
}

export function feedbackIdFor(parts: FeedbackIdParts): string {
  return deterministicId(DOMAIN, [...targetParts(parts.target), parts.name, parts.source, parts.submitterId]);
}
