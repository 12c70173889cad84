// RetryMessage v1: a (run, scorer) pair waiting to be scored again after a transient failure, on
// a retry tier (`{topics.retry}-<delay>`; keyed by the pair's scoreId, partitioned by runId:
// record-key.ts; docs/delivery.md, retries).
// It carries everything the retry needs without the runs topic: the run event, where it came
// from, its trace context, the binding decided on the first time (sampling is not rolled again),
// and every earlier attempt's evidence. The due time is also a header, so a consumer can tell a
// message is not yet due without parsing it.
import { z } from 'zod';
import { agentRunEventSchema } from './agent-run-event.ts';
import { idSchema, isoTimestampSchema, samplingSchema, sourceSchema, spanIdSchema, traceIdSchema } from './common.ts';
import { escalationSchema } from './escalation.ts';
import { rescoreMarkSchema } from './rescore-request.ts';
import { retryAttemptSchema } from './score-record.ts';
import { recordLatencySchema } from './record-latency.ts';
import { recordSpendSchema } from './record-spend.ts';

export const RETRY_MESSAGE_SCHEMA_VERSION = 1;

/** Header with the due time in epoch milliseconds (decimal text). */
export const RETRY_DUE_HEADER = 'scorestream-retry-due';

export const retryMessageSchema = z.object({
  schemaVersion: z.literal(RETRY_MESSAGE_SCHEMA_VERSION),
  runId: idSchema,
  scorerId: idSchema,
  scorerVersion: z.string().optional(),
  /** Failed attempts so far (1 after the first failure). */
  attempt: z.number().int().min(1),
  firstFailedAt: isoTimestampSchema,
  /** When the next attempt is due. */
  dueAt: isoTimestampSchema,
  /** The run event's own position on the runs topic (the score record's `source`). */
  source: sourceSchema,
  /** The agent run's trace context, so the retry's score span joins the run's trace. */
  trace: z.object({ traceId: traceIdSchema.optional(), spanId: spanIdSchema.optional(), sampled: z.boolean().optional() }),
  /** The sampling decision of the first attempt, kept on the record; never rolled again. */
  sampling: samplingSchema.optional(),
  /** The escalation decision of the first attempt (a binding with `escalate`), kept on the record; never decided again. */
  escalation: escalationSchema.optional(),
  /** Every failed attempt so far, oldest first. */
  attempts: z.array(retryAttemptSchema).min(1),
  event: agentRunEventSchema,
  /** Where the pair's time went up to its last failed attempt's end (the retry's record adds its wait and its own attempt). */
  latency: recordLatencySchema.optional(),
  /** What the judge calls of the attempts so far used and cost (the retry's record adds its own). */
  spend: recordSpendSchema.optional(),
  /** A re-score for feedback that failed transiently (docs/feedback.md, re-scoring): kept on its retry and its record. */
  rescore: rescoreMarkSchema.optional(),
});
export type RetryMessage = z.infer<typeof retryMessageSchema>;
