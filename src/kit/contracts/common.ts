// Building blocks shared by several wire contracts: timestamps, trace ids, the scored entity,
// run metadata and the Kafka source position. Each contract file composes these so that one
// field means the same thing (and validates the same way) in every payload.
import { z } from 'zod';

/** An ISO 8601 date-time with `Z` or an offset, kept as a string (what travels on the wire). */
export const isoTimestampSchema = z.iso.datetime({
  offset: true,
  error: 'expected an ISO 8601 date-time such as 2025-01-31T12:00:00.000Z',
});

/** A W3C trace id: 32 lowercase hex digits. */
export const traceIdSchema = z.string().regex(/^[0-9a-f]{32}$/, 'expected a W3C trace id: 32 lowercase hex digits');

/** A W3C span id: 16 lowercase hex digits. */
export const spanIdSchema = z.string().regex(/^[0-9a-f]{16}$/, 'expected a W3C span id: 16 lowercase hex digits');

/** A non-empty string; ids that are empty would silently collide downstream. */
export const idSchema = z.string().min(1, 'expected a non-empty string');

/** What produced the run: an agent or a workflow, with its registered id. */
export const entitySchema = z.object({
  type: z.enum(['agent', 'workflow']),
  id: idSchema,
  name: z.string().optional(),
  version: z.string().optional(),
}).meta({ id: 'Entity' });
export type Entity = z.infer<typeof entitySchema>;

/** Run metadata: a few well-known keys, everything else free-form and passed through. */
export const runMetadataSchema = z.looseObject({
  tenantId: z.string().optional(),
  environment: z.string().optional(),
  tags: z.array(z.string()).optional(),
}).meta({ id: 'RunMetadata' });
export type RunMetadata = z.infer<typeof runMetadataSchema>;

/** Marks a record made by a replay (`scorestream replay`): its id names the replay and its consumer group. */
export const replaySchema = z.object({ id: z.string().min(1) }).meta({ id: 'Replay' });
export type Replay = z.infer<typeof replaySchema>;

/** Where a record's input came from in Kafka; offsets are strings as kafkajs reports them (64-bit). */
export const sourceSchema = z.object({
  topic: z.string().min(1),
  partition: z.number().int().nonnegative(),
  offset: z.string().regex(/^\d+$/, 'expected a Kafka offset as a decimal string'),
}).meta({ id: 'Source' });
export type Source = z.infer<typeof sourceSchema>;

/**
 * A deterministic sampling decision: `bucket` is the run's hash position in [0, 1) and the run is
 * sampled when `bucket < rate`.
 */
export const samplingSchema = z.object({
  rate: z.number().min(0).max(1),
  bucket: z.number().min(0).max(1),
}).meta({ id: 'Sampling' });
export type Sampling = z.infer<typeof samplingSchema>;

/** The trace a record belongs to: the agent run's trace, its span, and (for scores) the score span. */
export const recordTraceSchema = z.object({
  traceId: traceIdSchema,
  parentSpanId: spanIdSchema.optional(),
  spanId: spanIdSchema.optional(),
  /** `false` when the propagated trace context was not sampled (its spans were not recorded); absent otherwise. */
  sampled: z.boolean().optional(),
}).meta({ id: 'RecordTrace' });
export type RecordTrace = z.infer<typeof recordTraceSchema>;

/** A JSON object (string keys, any JSON values). */
export const jsonObjectSchema = z.record(z.string(), z.unknown());
