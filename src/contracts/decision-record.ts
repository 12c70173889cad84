// DecisionRecord v1: why a (run, scorer) pair was not scored. Published when decisions are on,
// so "this run has no score" is explainable from the topic alone.
import { z } from 'zod';
import { idSchema, isoTimestampSchema, recordTraceSchema, samplingSchema, sourceSchema } from './common.ts';

export const DECISION_RECORD_SCHEMA_VERSION = 1;

/** Why a pair was skipped; the one list every producer and reader of decisions uses. */
export const SKIP_REASONS = [
  'trace_not_sampled',
  'filter',
  'when',
  'sampling',
  'predicate_error',
  // OTLP input (docs/otlp.md): a trace that yielded no run. `runId` is then the trace id.
  'not_an_agent_trace',
  'incomplete_trace',
  'assembly_overflow',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const decisionRecordSchema = z.object({
  schemaVersion: z.literal(DECISION_RECORD_SCHEMA_VERSION),
  runId: idSchema,
  scorerId: idSchema,
  scorerVersion: z.string().optional(),
  decision: z.literal('skipped'),
  reason: z.enum(SKIP_REASONS),
  /** Human-readable detail, e.g. which filter rejected the run or the predicate's error message. */
  detail: z.string().optional(),
  sampling: samplingSchema.optional(),
  trace: recordTraceSchema.optional(),
  source: sourceSchema,
  decidedAt: isoTimestampSchema,
});
export type DecisionRecord = z.infer<typeof decisionRecordSchema>;
