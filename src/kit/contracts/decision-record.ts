// DecisionRecord v1: why a (run, scorer) pair was not scored. Published when decisions are on,
// so "this run has no score" is explainable from the topic alone.
import { z } from 'zod';
import { entitySchema, idSchema, isoTimestampSchema, recordTraceSchema, replaySchema, samplingSchema, sourceSchema } from './common.ts';
import { escalationSchema } from './escalation.ts';
import { rescoreMarkSchema } from './rescore-request.ts';
import { threadRefSchema } from './thread-ref.ts';

/** The windows a budget counts over (the config's `budgets[].window`, src/engine/budget/budget-schema.ts). */
export const BUDGET_WINDOWS = ['minute', 'hour', 'day'] as const;
export type BudgetWindow = (typeof BUDGET_WINDOWS)[number];

export const DECISION_RECORD_SCHEMA_VERSION = 1;

/** Why a pair was skipped; the one list every producer and reader of decisions uses. */
export const SKIP_REASONS = [
  'trace_not_sampled',
  'filter',
  'when',
  'sampling',
  'predicate_error',
  // Judge budgets (docs/spend-and-replay.md): a budget refused the run or one of its judge calls.
  'budget_exhausted',
  // OTLP input (docs/otlp.md): a trace that yielded no run. `runId` is then the trace id.
  'not_an_agent_trace',
  'incomplete_trace',
  'assembly_overflow',
  // Threads (docs/threads.md): a resumed thread's re-score refused by onResume 'once', maxRescores
  // or a thread that is full (maxTurns, maxThreadBytes).
  'rescore_refused',
  // Re-scoring on feedback (docs/feedback.md): the run event is no longer where its record says
  // (retention deleted it, or the message there is another run), so the pair cannot be scored again.
  'run_unavailable',
  // Escalation (docs/spend-and-replay.md, escalation): the earlier scores of the run did not call for this
  // binding, and the run is not in its sample; the decision's `escalation` says what was read.
  'not_escalated',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/**
 * Why a pair was put off: it failed transiently and waits on the retry topic (docs/delivery.md,
 * retries), or its binding's judge waits on a provider's batch (docs/spend-and-replay.md, the batch tier).
 */
export const DEFER_REASONS = ['deferred_retry', 'deferred_batch'] as const;

/**
 * Why a pair was scored with a caveat: the run lacks a part scorers read (an OTLP run whose spans
 * carried no user message or no final answer; the run's and the record's `missing` say which, docs/otlp.md).
 */
export const FLAG_REASONS = ['missing_content'] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** `skipped`: never scored; `deferred`: scored later, its record comes after the retry; `flagged`: scored, with a caveat. */
export const DECISIONS = ['skipped', 'deferred', 'flagged'] as const;

export const decisionRecordSchema = z.object({
  schemaVersion: z.literal(DECISION_RECORD_SCHEMA_VERSION),
  runId: idSchema,
  scorerId: idSchema,
  scorerVersion: z.string().optional(),
  /** The run's agent or workflow, when a run was read (absent for an OTLP trace that yielded none). */
  entity: entitySchema.optional(),
  /** The run's tenant (metadata.tenantId), when it has one: dashboards split skips by agent and tenant. */
  metadata: z.object({ tenantId: z.string().optional() }).optional(),
  decision: z.enum(DECISIONS),
  reason: z.enum([...SKIP_REASONS, ...DEFER_REASONS, ...FLAG_REASONS]),
  /** Human-readable detail, e.g. which filter rejected the run or the predicate's error message. */
  detail: z.string().optional(),
  sampling: samplingSchema.optional(),
  /** For `budget_exhausted`: the budget that refused, by its config name and window. */
  budget: z.object({ name: z.string().min(1), window: z.enum(BUDGET_WINDOWS) }).optional(),
  /** A binding with `escalate`: for `not_escalated`, the earlier scorers read and the sample the run was not in; on a `budget_exhausted` pair, the tier that had sent it. */
  escalation: escalationSchema.optional(),
  /** Set when a replay (scorestream replay) made this decision. */
  replay: replaySchema.optional(),
  trace: recordTraceSchema.optional(),
  source: sourceSchema,
  decidedAt: isoTimestampSchema,
  /** `deferred_retry` only: the failed attempts so far and when the next one is due. */
  retry: z.object({ attempt: z.number().int().min(1), dueAt: isoTimestampSchema }).optional(),
  /** Present on a decision about a re-score for feedback (docs/feedback.md, re-scoring): the feedback and why. */
  rescore: rescoreMarkSchema.optional(),
  /** Present on a thread scorer's decision (docs/threads.md): the thread and the turns it was about. `runId` is then the last turn's. */
  thread: threadRefSchema.optional(),
});
export type DecisionRecord = z.infer<typeof decisionRecordSchema>;
