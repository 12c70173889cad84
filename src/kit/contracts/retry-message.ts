// RetryMessage v1: a (run, scorer) pair waiting to be scored again after a transient failure, on
// a retry tier (`{topics.retry}-<delay>`; keyed by the pair's scoreId, partitioned by runId:
// record-key.ts; docs/delivery.md, retries).
// It carries everything the retry needs without the runs topic: the run event, where it came
// from, its trace context, the binding decided on the first time (sampling is not rolled again),
// and every earlier attempt's evidence. The due time is also a header, so a consumer can tell a
// message is not yet due without parsing it.
// The same message waits on the batch tier (`{topics.retry}-batch`, docs/spend-and-replay.md, the
// batch tier) for a binding whose judge mode is 'batch': `batch` then holds the judge requests it
// waits on and the answers earlier rounds gave. A pair waiting on a batch has not failed: its
// `attempts` may be empty and `attempt` 0.
import { z } from 'zod';
import { agentRunEventSchema } from './agent-run-event.ts';
import { idSchema, isoTimestampSchema, samplingSchema, sourceSchema, spanIdSchema, traceIdSchema } from './common.ts';
import { escalationSchema } from './escalation.ts';
import { rescoreMarkSchema } from './rescore-request.ts';
import { retryAttemptSchema } from './score-record.ts';
import { recordLatencySchema } from './record-latency.ts';
import { recordSpendSchema } from './record-spend.ts';

export const RETRY_MESSAGE_SCHEMA_VERSION = 1;

/** One judge request as its provider would have received it live (src/engine/judge-batch/batch-request.ts). */
const batchRequestSchema = z.object({ customId: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/), path: z.string().startsWith('/'), body: z.string() });

const retryBatchSchema = z.object({
  /** When the pair first waited on a batch. */
  deferredAt: isoTimestampSchema,
  /** The requests this round waits on (none on a retry tier: the attempt asks again). */
  requests: z.array(batchRequestSchema),
  /**
   * What the pair's batches answered, by custom id: each round answers one more judge step. A
   * `failed` answer (the provider failed the request inside its batch) is given to one attempt only,
   * which meets it as a live call's HTTP error; it is not carried further.
   */
  answers: z.array(
    z.discriminatedUnion('status', [
      /** `live`: the binding's live fallback's answer (liveOnFailure), priced at the list price when replayed. */
      z.object({ customId: z.string(), status: z.literal('succeeded'), body: z.unknown(), live: z.literal(true).optional() }),
      z.object({ customId: z.string(), status: z.literal('failed'), statusCode: z.number().int(), error: z.string() }),
    ]),
  ),
  /**
   * The answers already counted in the judge spend (budgets, metrics) by an earlier round: every
   * round runs the scorer from its first step, and a call answered again is priced on the record
   * but not counted again.
   */
  counted: z.array(z.string()).optional(),
});

/** Header with the due time in epoch milliseconds (decimal text). */
export const RETRY_DUE_HEADER = 'scorestream-retry-due';

export const retryMessageSchema = z.object({
  schemaVersion: z.literal(RETRY_MESSAGE_SCHEMA_VERSION),
  runId: idSchema,
  scorerId: idSchema,
  scorerVersion: z.string().optional(),
  /** Failed attempts so far (1 after the first failure; 0 for a pair that only waits on a batch). */
  attempt: z.number().int().min(0),
  /** The first failure; absent while no attempt failed (a pair that only waits on a batch). */
  firstFailedAt: isoTimestampSchema.optional(),
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
  attempts: z.array(retryAttemptSchema),
  event: agentRunEventSchema,
  /** Where the pair's time went up to its last failed attempt's end (the retry's record adds its wait and its own attempt). */
  latency: recordLatencySchema.optional(),
  /** What the judge calls of the attempts so far used and cost (the retry's record adds its own). */
  spend: recordSpendSchema.optional(),
  /** A re-score for feedback that failed transiently (docs/feedback.md, re-scoring): kept on its retry and its record. */
  rescore: rescoreMarkSchema.optional(),
  /** A binding whose judge mode is 'batch': the judge requests the pair waits on, and the answers earlier rounds gave (kept through a retry). */
  batch: retryBatchSchema.optional(),
});
export type RetryMessage = z.infer<typeof retryMessageSchema>;
