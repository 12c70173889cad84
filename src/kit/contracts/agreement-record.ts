// AgreementRecord v1: how a judge agrees with people, on the agreements topic. Two kinds:
//   pair    one (feedback, score record) pair of a run or of a thread: what the judge said, what
//           the person said, both as labels of one scale, and whether they agree;
//   window  per scorer version and time window: Cohen's κ, weighted κ (ordinal scales),
//           accuracy, the confusion counts and the number of labelled pairs (src/engine/agreement/).
// The feedback join publishes them (docs/feedback.md, service/agreement-join.ts); the dashboard's
// feedback view reads them. Keyed by agreementRecordKey (agreement-id.ts).
import { z } from 'zod';
import { entitySchema, idSchema, isoTimestampSchema, runMetadataSchema } from './common.ts';
import { feedbackCorrectionSchema, FEEDBACK_SOURCES, feedbackSubmitterSchema, feedbackValueSchema } from './feedback-record.ts';

export const AGREEMENT_RECORD_SCHEMA_VERSION = 1;

/** The agreements topic when none is configured. */
export const DEFAULT_AGREEMENTS_TOPIC = 'agent-score-agreements';

const labelSchema = z.string().min(1, 'expected a non-empty label');
const countSchema = z.number().int().nonnegative();
/** κ and accuracy are undefined on some inputs (no pairs; every label the same): null on the wire. */
const figureSchema = z.number().nullable();

export const agreementPairSchema = z.object({
  schemaVersion: z.literal(AGREEMENT_RECORD_SCHEMA_VERSION),
  kind: z.literal('pair'),
  /** agreementIdFor({ feedbackId, scoreId }), a thread's threadAgreementIdFor: the same pair measured again has the same id. */
  agreementId: idSchema,
  feedbackId: idSchema,
  scoreId: idSchema,
  /** The run; for a thread pair, the last turn's of the compared version (as on its score record). */
  runId: idSchema,
  /**
   * Present on a pair of thread feedback and a thread score (docs/feedback.md, feedback on a
   * thread): the thread and the version of its score the feedback is compared with. A later
   * version that becomes the compared one replaces the pair under the same agreementId.
   */
  thread: z.object({ id: idSchema, key: idSchema, version: z.number().int().min(1) }).optional(),
  scorerId: idSchema,
  scorerVersion: z.string().optional(),
  entity: entitySchema.optional(),
  metadata: runMetadataSchema.optional(),
  /** The judge's score and the label it means on the compared scale (its verdict, or a label rule's). */
  judge: z.object({ score: z.number(), label: labelSchema }),
  /** The person's feedback as given, and the label it means on the same scale. */
  human: z.object({
    name: idSchema,
    value: feedbackValueSchema,
    label: labelSchema,
    source: z.enum(FEEDBACK_SOURCES),
    submitter: feedbackSubmitterSchema.optional(),
    comment: z.string().optional(),
    correction: feedbackCorrectionSchema.optional(),
  }),
  agree: z.boolean(),
  measuredAt: isoTimestampSchema,
  /**
   * Present when the pair was over the output's size limit (src/kit/contracts/fit-agreement-record.ts):
   * the person's comment was cut to `keptBytes` (0: dropped), and why.
   */
  truncated: z
    .object({
      /** The pair's JSON as built, in bytes. */
      originalBytes: z.number().int().nonnegative(),
      /** The limit it had to fit (`maxRecordBytes`, or below it when the broker refused a larger one). */
      limitBytes: z.number().int().positive(),
      comment: z.object({ keptBytes: z.number().int().nonnegative(), droppedBytes: z.number().int().nonnegative() }),
    })
    .optional(),
}).meta({ id: 'AgreementPair' });
export type AgreementPair = z.infer<typeof agreementPairSchema>;

export const agreementWindowSchema = z
  .object({
    schemaVersion: z.literal(AGREEMENT_RECORD_SCHEMA_VERSION),
    kind: z.literal('window'),
    scorerId: idSchema,
    scorerVersion: z.string().optional(),
    windowStart: isoTimestampSchema,
    windowEnd: isoTimestampSchema,
    /** Labelled pairs in the window. */
    n: countSchema,
    agreements: countSchema,
    accuracy: figureSchema,
    kappa: figureSchema,
    /** Only for ordinal scales (labels in order): disagreements weighted by their distance. */
    weightedKappa: z.object({ linear: figureSchema, quadratic: figureSchema }).optional(),
    /** counts[i][j]: pairs the person labelled labels[i] and the judge labels[j]. */
    confusion: z.object({ labels: z.array(labelSchema).min(1), counts: z.array(z.array(countSchema)) }),
    measuredAt: isoTimestampSchema,
  })
  .refine((window) => window.confusion.counts.length === window.confusion.labels.length && window.confusion.counts.every((row) => row.length === window.confusion.labels.length), {
    message: 'confusion.counts must be a square table with one row and one column per label',
    path: ['confusion', 'counts'],
  })
  .meta({ id: 'AgreementWindow' });
export type AgreementWindow = z.infer<typeof agreementWindowSchema>;

export const agreementRecordSchema = z.discriminatedUnion('kind', [agreementPairSchema, agreementWindowSchema]);
export type AgreementRecord = z.infer<typeof agreementRecordSchema>;
