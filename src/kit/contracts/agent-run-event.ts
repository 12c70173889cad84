// AgentRunEvent v1: one Kafka message per finished agent or workflow run, keyed by runId, on the
// `agent-runs` topic. It carries the Mastra agent-scorer input and output (messages.ts) plus what
// eligibility filters and dashboards need (entity, request context, metadata, usage).
import { z } from 'zod';
import { entitySchema, idSchema, isoTimestampSchema, jsonObjectSchema, runMetadataSchema } from './common.ts';
import { coreSystemMessageSchema, dbMessageSchema } from './messages.ts';

export const AGENT_RUN_EVENT_TYPE = 'agent.run.completed';
export const AGENT_RUN_EVENT_SCHEMA_VERSION = 1;

export const agentRunInputSchema = z.object({
  /** The messages sent in this turn (usually user messages). */
  inputMessages: z.array(dbMessageSchema),
  /** Memory or history recalled for the turn, oldest first. */
  rememberedMessages: z.array(dbMessageSchema),
  /** Agent instructions and other system prompts. */
  systemMessages: z.array(coreSystemMessageSchema),
  /** Tag → system messages (e.g. `memory`). */
  taggedSystemMessages: z.record(z.string(), z.array(coreSystemMessageSchema)),
});
export type AgentRunInput = z.output<typeof agentRunInputSchema>;

export const runUsageSchema = z.object({
  inputTokens: z.number().int().nonnegative().optional(),
  outputTokens: z.number().int().nonnegative().optional(),
  totalTokens: z.number().int().nonnegative().optional(),
  reasoningTokens: z.number().int().nonnegative().optional(),
  cachedInputTokens: z.number().int().nonnegative().optional(),
});
export type RunUsage = z.infer<typeof runUsageSchema>;

/**
 * Trace context in the body: the fallback for producers that cannot set Kafka headers. Kept
 * tolerant (any non-empty string): a malformed traceparent means "no parent", as with headers,
 * rather than a dead-lettered run.
 */
export const runTraceSchema = z.object({
  traceparent: z.string().min(1),
  tracestate: z.string().optional(),
});
export type RunTrace = z.infer<typeof runTraceSchema>;

/** The parts of a run that scorers read and that a run may lack. */
export const RUN_PARTS = ['question', 'answer'] as const;

/**
 * A part its producer could not find, and why: an OTLP-assembled run whose spans carried no user
 * message or no final answer (docs/otlp.md, "Missing content"). Such a run is still scored; a
 * scorer that needs the part returns notScorable with `reason`.
 */
export const missingPartSchema = z.object({ part: z.enum(RUN_PARTS), reason: z.string().min(1) }).meta({ id: 'MissingPart' });
export type MissingPart = z.infer<typeof missingPartSchema>;

/**
 * A tool the agent was offered for this run, as the model saw it: its name, what it is for, and
 * the JSON Schema of its arguments. Producers copy what they passed to the model (AI SDK `tools`,
 * OpenTelemetry `gen_ai.tool.definitions`, OpenInference `llm.tools`); unknown keys are kept.
 */
export const toolDefinitionSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  /** JSON Schema (draft 2020-12 or 07) of the tool's arguments. */
  parameters: jsonObjectSchema.optional(),
}).meta({ id: 'ToolDefinition' });
export type ToolDefinition = z.output<typeof toolDefinitionSchema>;

export const agentRunEventSchema = z.object({
  schemaVersion: z.literal(AGENT_RUN_EVENT_SCHEMA_VERSION),
  type: z.literal(AGENT_RUN_EVENT_TYPE),
  runId: idSchema,
  /** When the run completed. */
  timestamp: isoTimestampSchema,
  entity: entitySchema,
  input: agentRunInputSchema,
  /** The response messages of this turn, in order. */
  output: z.array(dbMessageSchema),
  requestContext: jsonObjectSchema.default({}),
  groundTruth: z.unknown().optional(),
  expectedTrajectory: z.unknown().optional(),
  /**
   * The tools the agent was offered (absent: not known; `[]`: none offered). Scorers that check
   * calls against them say not_scorable when absent.
   */
  tools: z.array(toolDefinitionSchema).optional(),
  metadata: runMetadataSchema.optional(),
  usage: runUsageSchema.optional(),
  durationMs: z.number().nonnegative().optional(),
  /** Set when the run itself failed; the output then holds whatever was produced. */
  error: z.object({ name: z.string().optional(), message: z.string() }).optional(),
  /** Parts the producer could not find (absent when the run is whole). */
  missing: z.array(missingPartSchema).min(1).optional(),
  trace: runTraceSchema.optional(),
});

/** A run event as the consumer sees it after parsing (message `createdAt` values are Dates). */
export type AgentRunEvent = z.output<typeof agentRunEventSchema>;
/** A run event as it travels on the wire and as producers write it (ISO strings, defaults optional). */
export type AgentRunEventInput = z.input<typeof agentRunEventSchema>;
