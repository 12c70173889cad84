// FeedbackRecord v1: what a person (or an automated check) said about a run — a thumbs-up, a
// rating, a label, a reviewer's correction of a judge — on the feedback topic, keyed like the
// run's score records (feedbackKeyFor, record-key.ts) so a run's feedback and scores share a
// partition. Field names are the contract (docs/feedback.md).
import { z } from 'zod';
import { idSchema, isoTimestampSchema, runMetadataSchema, spanIdSchema, traceIdSchema } from './common.ts';

export const FEEDBACK_RECORD_SCHEMA_VERSION = 1;

/** The feedback topic when none is configured. */
export const DEFAULT_FEEDBACK_TOPIC = 'agent-feedback';

/** Who gave it: the person using the agent, a reviewer (an annotation queue, a support lead), or a program. */
export const FEEDBACK_SOURCES = ['end_user', 'reviewer', 'automated'] as const;
export type FeedbackSource = (typeof FEEDBACK_SOURCES)[number];

/**
 * What the feedback is about: a run by its id; the agent run's span in its trace (what the OTLP
 * input makes a run of, docs/otlp.md); or a conversation thread.
 */
export const feedbackTargetSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('run'), runId: idSchema }),
    z.object({ type: z.literal('trace'), traceId: traceIdSchema, spanId: spanIdSchema }),
    z.object({ type: z.literal('thread'), threadId: idSchema }),
  ])
  .meta({ id: 'FeedbackTarget' });
export type FeedbackTarget = z.infer<typeof feedbackTargetSchema>;

/** A rating (number), a label (text), or a yes/no such as thumbs up (true) and down (false). */
export const feedbackValueSchema = z.union([z.boolean(), z.number(), z.string().min(1, 'expected a non-empty label')]).meta({ id: 'FeedbackValue' });
export type FeedbackValue = z.infer<typeof feedbackValueSchema>;

export const feedbackSubmitterSchema = z.object({ id: idSchema, name: z.string().optional() }).meta({ id: 'FeedbackSubmitter' });
export type FeedbackSubmitter = z.infer<typeof feedbackSubmitterSchema>;

/** A person's correction of one scorer: the score or label the judge should have given. */
export const feedbackCorrectionSchema = z
  .object({
    scorerId: idSchema,
    /** The binding's version the correction is about; absent: whichever version scored the run. */
    scorerVersion: z.string().optional(),
    score: z.number().optional(),
    label: z.string().min(1).optional(),
  })
  .refine((correction) => correction.score !== undefined || correction.label !== undefined, { message: 'a correction needs the expected score, the expected label, or both', path: ['score'] })
  .meta({ id: 'FeedbackCorrection' });
export type FeedbackCorrection = z.infer<typeof feedbackCorrectionSchema>;

export const feedbackRecordSchema = z.object({
  schemaVersion: z.literal(FEEDBACK_RECORD_SCHEMA_VERSION),
  /**
   * Chosen by the sender and stable across re-sends (feedbackIdFor gives one per target, name,
   * source and submitter): the same id again is the same feedback, a later one replaces it.
   */
  feedbackId: idSchema,
  target: feedbackTargetSchema,
  source: z.enum(FEEDBACK_SOURCES),
  submitter: feedbackSubmitterSchema.optional(),
  /** What was asked, e.g. `thumbs`, `helpfulness`, `correct`. */
  name: idSchema,
  value: feedbackValueSchema,
  comment: z.string().optional(),
  correction: feedbackCorrectionSchema.optional(),
  /** The run's tenant and environment when the sender knows them. */
  metadata: runMetadataSchema.optional(),
  submittedAt: isoTimestampSchema,
});
export type FeedbackRecord = z.infer<typeof feedbackRecordSchema>;
/** What senders may hand in (the wire form). */
export type FeedbackRecordInput = z.input<typeof feedbackRecordSchema>;
