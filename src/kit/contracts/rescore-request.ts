// Re-scoring on feedback (docs/feedback.md, re-scoring): a person disagreed with a judge — a
// thumbs-down on a run the judge passed, or a reviewer's correction — and the pair is scored once
// more, for that feedback. Two shapes, declared here once:
//   - the mark (`rescore: { feedbackId, reason }`) on every record the re-score yields — its score
//     record, its decision, its retry message — which also keys it (record-key.ts): one re-score
//     per (pair, feedback), so a duplicate feedback or a redelivered request collapses;
//   - RescoreRequest v1, what the feedback join (service/agreement-join.ts) asks the service for on
//     the rescore topic (`{runs}-rescore`; keyed like the re-score's records, partitioned by run id).
//     It names the run event by its position on the runs topic (the judged record's `source`), so
//     the service reads the run back from there; it carries no run content.
import { z } from 'zod';
import { idSchema, isoTimestampSchema, sourceSchema } from './common.ts';

export const RESCORE_REQUEST_SCHEMA_VERSION = 1;

/**
 * What feedback asks for a re-score: `thumbs-down`, feedback without a correction that says the run
 * failed (a `false`, a number below the pass threshold, the label `fail`) where the judge passed
 * it; `correction`, a reviewer's correction naming the scorer that disagrees with its score.
 */
export const RESCORE_REASONS = ['thumbs-down', 'correction'] as const;
export type RescoreReason = (typeof RESCORE_REASONS)[number];

export const rescoreMarkSchema = z.object({
  /** The feedback the pair was scored again for. */
  feedbackId: idSchema,
  reason: z.enum(RESCORE_REASONS),
}).meta({ id: 'Rescore' });
export type RescoreMark = z.infer<typeof rescoreMarkSchema>;

export const rescoreRequestSchema = z.object({
  schemaVersion: z.literal(RESCORE_REQUEST_SCHEMA_VERSION),
  runId: idSchema,
  scorerId: idSchema,
  scorerVersion: z.string().optional(),
  /** The judged record the person disagreed with. */
  scoreId: idSchema,
  /** The run event's position on the runs topic (the judged record's `source`): where it is read back from. */
  source: sourceSchema,
  rescore: rescoreMarkSchema,
  requestedAt: isoTimestampSchema,
});
export type RescoreRequest = z.infer<typeof rescoreRequestSchema>;
