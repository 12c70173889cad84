// The Kafka key of the records about a run: its score records, decisions and feedback carry the
// same key so they land on the same partition, and a reader joining them (the feedback join,
// docs/feedback.md) finds both sides of a run in one partition. One function, so a change of key
// (for compaction, for threads) is made once.
//   run     the run id
//   trace   the run id the OTLP input gives the agent span: `<traceId>-<spanId>` (runIdOf)
//   thread  the thread id (conversation scoring will settle its final key)
import { runIdOf } from '../otlp/run-from-trace.ts';
import type { FeedbackTarget } from './feedback-record.ts';

export function recordKey(target: FeedbackTarget): string {
  if (target.type === 'run') return target.runId;
  if (target.type === 'trace') return runIdOf(target);
  return target.threadId;
}
