// ScoreRecord v1: one per eligible (run, scorer) pair on the `agent-scores` topic, keyed by its scoreId
// and partitioned by runId (src/kit/contracts/record-key.ts).
// Field names are the contract (docs/contracts.md). The status decides which fields exist: `score`
// only when scored, `notScorable` only when not scorable, `error` only when failed, so a reader
// narrows on `status` and never meets a half-filled record.
import { z } from 'zod';
import {
  entitySchema,
  idSchema,
  isoTimestampSchema,
  recordTraceSchema,
  replaySchema,
  runMetadataSchema,
  samplingSchema,
  sourceSchema,
} from './common.ts';
import { missingPartSchema } from './agent-run-event.ts';
import { judgeResultsSchema } from './judge-execution.ts';
import { escalationSchema } from './escalation.ts';
import { fieldPerStep, PIPELINE_STAGES } from './scorer-steps.ts';
import { rescoreMarkSchema } from './rescore-request.ts';
import { threadVersionSchema } from './thread-ref.ts';
import { recordLatencySchema } from './record-latency.ts';
import { recordSpendSchema } from './record-spend.ts';

export const SCORE_RECORD_SCHEMA_VERSION = 1;
export const SCORE_STATUSES = ['scored', 'not_scorable', 'failed'] as const;
export type ScoreStatus = (typeof SCORE_STATUSES)[number];
/** A scored record's verdict against its binding's `pass` criterion (src/kit/verdict/pass-criterion.ts). */
export const VERDICTS = ['pass', 'fail'] as const;
export type Verdict = (typeof VERDICTS)[number];

const stageSchema = z.enum(PIPELINE_STAGES);

const scoreRecordBase = z.object({
  schemaVersion: z.literal(SCORE_RECORD_SCHEMA_VERSION),
  /** scoreIdFor({ runId, scorerId, scorerVersion }): the same run scored again has the same id (a re-score's: rescoreIdFor, with its feedbackId). */
  scoreId: idSchema,
  reason: z.unknown().optional(),
  runId: idSchema,
  scorerId: idSchema,
  scorerName: z.string().optional(),
  scorerVersion: z.string().optional(),
  entity: entitySchema,
  /** The run's tenant, environment and tags. */
  metadata: runMetadataSchema.optional(),
  /** The run's `missing`: parts of the run its producer could not find (docs/otlp.md, "Missing content"). */
  missing: z.array(missingPartSchema).optional(),
  steps: z.object({ preprocess: z.unknown().optional(), analyze: z.unknown().optional() }),
  prompts: z.object(fieldPerStep(z.string().optional())),
  judge: judgeResultsSchema.optional(),
  /** The agent run's trace id, its span (parent) and the score span; absent without trace context. */
  trace: recordTraceSchema.optional(),
  source: sourceSchema,
  sampling: samplingSchema.optional(),
  /** Present on the score of a binding with `escalate`: whether the earlier scores or the sample sent the run to it (docs/spend-and-replay.md, escalation). */
  escalation: escalationSchema.optional(),
  /** Set when a replay (scorestream replay) scored the run: dashboards tell backfills from live scores. */
  replay: replaySchema.optional(),
  scoredAt: isoTimestampSchema,
  durationMs: z.number().nonnegative(),
  /** Where the pair's time went, stage by stage, until the record was handed to its output (docs/observability.md, "Where each score's time went"). */
  latency: recordLatencySchema.optional(),
  /** What the pair's judge calls used and cost, every attempt's; kept at every evidence level (docs/spend-and-replay.md, cost). */
  spend: recordSpendSchema.optional(),
  /**
   * Present when the deployment kept less than the full evidence (docs/data-handling.md):
   * `no-content` (no prompts, step results, judge outputs or reason), `none` (no judge evidence either).
   */
  evidence: z.enum(['no-content', 'none']).optional(),
  /** Present when the pair failed transiently before and was scored again from the retry topic. */
  retries: z.lazy(() => retryHistorySchema).optional(),
  /** Present when the record as built was over the output's size limit: what it dropped to fit. */
  truncated: z.lazy(() => truncationSchema).optional(),
  /** Present when the pair was scored again because a person disagreed (docs/feedback.md, re-scoring): the feedback and why. */
  rescore: rescoreMarkSchema.optional(),
  /** Present on the score of a thread scorer (docs/threads.md): the thread version scored. `runId` is then its last turn's. */
  thread: threadVersionSchema.optional(),
});

const onlyWhen = (field: string, status: ScoreStatus) =>
  z.never({ error: `${field} is only allowed when status is "${status}"` }).optional();

export const notScorableSchema = z.object({ step: stageSchema, reason: z.string().optional() }).meta({ id: 'NotScorable' });
/** Where a run stopped without a score and why: a score record's `notScorable`, and a scorer run result's. */
export type NotScorableOutcome = z.infer<typeof notScorableSchema>;

export const scoreErrorSchema = z.object({
  name: z.string(),
  message: z.string(),
  code: z.string().optional(),
  failedStep: stageSchema,
  completedSteps: z.array(stageSchema),
  /** Whether scoring again could succeed (transient judge or network trouble). */
  retryable: z.boolean(),
}).meta({ id: 'ScoreError' });
export type ScoreError = z.infer<typeof scoreErrorSchema>;

/** One failed attempt of a pair that was retried later through the retry topic (docs/delivery.md, retries). */
export const retryAttemptSchema = z.object({
  failedAt: isoTimestampSchema,
  durationMs: z.number().nonnegative(),
  error: scoreErrorSchema,
  /** The attempt's judge evidence, when a prompt step reached a model. */
  judge: judgeResultsSchema.optional(),
}).meta({ id: 'RetryAttempt' });
export type RetryAttempt = z.infer<typeof retryAttemptSchema>;

/** The earlier failed attempts of a pair scored through the retry topic; the record itself is the last attempt. */
export const retryHistorySchema = z.object({
  firstFailedAt: isoTimestampSchema,
  /** Oldest first. */
  attempts: z.array(retryAttemptSchema).min(1),
}).meta({ id: 'RetryHistory' });
export type RetryHistory = z.infer<typeof retryHistorySchema>;

/**
 * The evidence a score record sheds, in this order, when it is over the output's size limit
 * (src/kit/contracts/fit-score-record.ts): the steps' raw results, then the prompts (the record's and
 * each judge execution's), then the judge's outputs. Score, status and identity are never shed.
 */
export const TRUNCATED_PARTS = ['steps', 'prompts', 'judgeOutputs'] as const;
export type TruncatedPart = (typeof TRUNCATED_PARTS)[number];

export const truncationSchema = z.object({
  /** The record's JSON as built, in bytes. */
  originalBytes: z.number().int().nonnegative(),
  /** The limit it had to fit (`maxRecordBytes`, or below it when the broker refused a larger one). */
  limitBytes: z.number().int().positive(),
  /** What was dropped, in order, with the bytes of JSON each part took. */
  dropped: z.array(z.object({ part: z.enum(TRUNCATED_PARTS), bytes: z.number().int().nonnegative() })).min(1),
}).meta({ id: 'Truncation' });
export type Truncation = z.infer<typeof truncationSchema>;

export const scoreRecordSchema = z.discriminatedUnion('status', [
  scoreRecordBase.extend({
    status: z.literal('scored'),
    score: z.number({ error: 'expected a finite number score when status is "scored"' }),
    /** Present when the binding declares what passing means (`pass`); never on not_scorable or failed records. */
    verdict: z.enum(VERDICTS).optional(),
    notScorable: onlyWhen('notScorable', 'not_scorable'),
    error: onlyWhen('error', 'failed'),
  }),
  scoreRecordBase.extend({
    status: z.literal('not_scorable'),
    score: onlyWhen('score', 'scored'),
    verdict: onlyWhen('verdict', 'scored'),
    notScorable: notScorableSchema,
    error: onlyWhen('error', 'failed'),
  }),
  scoreRecordBase.extend({
    status: z.literal('failed'),
    score: onlyWhen('score', 'scored'),
    verdict: onlyWhen('verdict', 'scored'),
    notScorable: onlyWhen('notScorable', 'not_scorable'),
    error: scoreErrorSchema,
  }),
]);
export type ScoreRecord = z.infer<typeof scoreRecordSchema>;
export type ScoredRecord = Extract<ScoreRecord, { status: 'scored' }>;
export type NotScorableRecord = Extract<ScoreRecord, { status: 'not_scorable' }>;
export type FailedScoreRecord = Extract<ScoreRecord, { status: 'failed' }>;
