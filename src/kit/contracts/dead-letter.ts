// DeadLetter v1: a run event the consumer could not accept, kept whole (original key, value and
// headers) with the reason, on the dead-letter topic. Bytes that are valid UTF-8 stay readable
// text; anything else is base64, so nothing is lost or mangled on the way.
import { z } from 'zod';
import { isoTimestampSchema } from './common.ts';

export const DEAD_LETTER_SCHEMA_VERSION = 1;

/** Why a message was dead-lettered. */
export const DEAD_LETTER_CODES = [
  'invalid_json',
  'schema_violation',
  'unsupported_schema_version',
  'oversized',
  'processing_failed',
  // OTLP input: the value is not an ExportTraceServiceRequest in the configured encoding.
  'invalid_otlp',
] as const;
export type DeadLetterCode = (typeof DEAD_LETTER_CODES)[number];

export const encodedBytesSchema = z.object({
  encoding: z.enum(['utf8', 'base64']),
  data: z.string(),
}).meta({ id: 'EncodedBytes' });
export type EncodedBytes = z.infer<typeof encodedBytesSchema>;

export const problemSchema = z.object({ path: z.string(), message: z.string() });

export const deadLetterSchema = z.object({
  schemaVersion: z.literal(DEAD_LETTER_SCHEMA_VERSION),
  key: encodedBytesSchema.nullable(),
  /** The value as received, or as much of it as fits the dead-letter topic (see `truncated`). */
  value: encodedBytesSchema.nullable(),
  /** SHA-256 (hex) of the whole original value, kept or not; absent for a message without one. */
  valueSha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 as 64 lowercase hex digits').optional(),
  /** Present when the value (or the headers) did not fit `maxRecordBytes`: the value's first `keptBytes` bytes are kept. */
  truncated: z
    .object({
      keptBytes: z.number().int().nonnegative(),
      droppedBytes: z.number().int().nonnegative(),
      /** The headers were dropped too (they alone did not fit). */
      headersDropped: z.boolean().optional(),
    })
    .optional(),
  /** Header values as received; a repeated key keeps every value, in order, as an array. */
  headers: z.record(z.string(), z.union([encodedBytesSchema, z.array(encodedBytesSchema)])),
  source: z.object({
    topic: z.string().min(1),
    partition: z.number().int().nonnegative(),
    offset: z.string().regex(/^\d+$/, 'expected a Kafka offset as a decimal string'),
    /** The original message's Kafka timestamp, as an ISO 8601 date-time. */
    timestamp: z.string().optional(),
  }),
  error: z.object({
    code: z.enum(DEAD_LETTER_CODES),
    message: z.string(),
    problems: z.array(problemSchema).optional(),
  }),
  deadLetteredAt: isoTimestampSchema,
});
export type DeadLetter = z.infer<typeof deadLetterSchema>;
