// Mastra's agent message shapes (docs/contracts.md, messages) as zod schemas, so that scorers
// written for Mastra and its scorer utils read our run events unchanged. Permissive where Mastra
// is: every message, content and part object keeps unknown keys. Strict where scorers depend on the
// shape: roles, part kinds, tool-invocation states.
//
// `createdAt` travels as an ISO string and is decoded to a `Date`, because Mastra's DbMessage
// has `createdAt: Date` and ported scorer code may call `createdAt.getTime()`. The JSON Schema is
// generated for the input side (`io: 'input'`), where it is a date-time string.
import { z } from 'zod';

const isoDateSchema = z.codec(
  z.iso.datetime({ offset: true, error: 'expected an ISO 8601 date-time such as 2025-01-31T12:00:00.000Z' }),
  z.date(),
  { decode: (text) => new Date(text), encode: (date) => date.toISOString() },
);

/** Fields every part may carry besides its own. */
const partExtras = {
  providerMetadata: z.record(z.string(), z.unknown()).optional(),
  /** Epoch milliseconds. */
  createdAt: z.number().optional(),
};

export const TOOL_INVOCATION_STATES = [
  'partial-call',
  'call',
  'result',
  'output-error',
  'output-denied',
  'approval-requested',
  'approval-responded',
] as const;

export const toolInvocationSchema = z.looseObject({
  toolCallId: z.string().min(1),
  toolName: z.string().min(1),
  args: z.unknown(),
  state: z.enum(TOOL_INVOCATION_STATES),
  result: z.unknown().optional(),
  /** Set with state 'result' when the tool reported failure. */
  isError: z.boolean().optional(),
  /** Set with state 'output-error' (the tool threw). */
  errorText: z.string().optional(),
  rawInput: z.unknown().optional(),
  approval: z
    .looseObject({ id: z.string(), approved: z.boolean().optional(), reason: z.string().optional() })
    .optional(),
  step: z.number().int().nonnegative().optional(),
}).meta({ id: 'ToolInvocation' });
export type ToolInvocation = z.infer<typeof toolInvocationSchema>;

export const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string(), ...partExtras });

export const reasoningPartSchema = z.looseObject({
  type: z.literal('reasoning'),
  reasoning: z.string(),
  // Mastra's type requires `details`; producers may omit it and scorers still find an array.
  details: z
    .array(
      z.discriminatedUnion('type', [
        z.looseObject({ type: z.literal('text'), text: z.string(), signature: z.string().optional() }),
        z.looseObject({ type: z.literal('redacted'), data: z.string() }),
      ]),
    )
    .default([]),
  ...partExtras,
});

export const toolInvocationPartSchema = z.looseObject({
  type: z.literal('tool-invocation'),
  toolInvocation: toolInvocationSchema,
  providerExecuted: z.boolean().optional(),
  title: z.string().optional(),
  ...partExtras,
});

export const stepStartPartSchema = z.looseObject({ type: z.literal('step-start'), model: z.string().optional(), ...partExtras });

export const sourcePartSchema = z.looseObject({
  type: z.literal('source'),
  source: z.looseObject({ sourceType: z.literal('url'), id: z.string(), url: z.string(), title: z.string().optional() }),
  ...partExtras,
});

export const sourceDocumentPartSchema = z.looseObject({
  type: z.literal('source-document'),
  sourceId: z.string(),
  mediaType: z.string(),
  title: z.string(),
  filename: z.string().optional(),
  ...partExtras,
});

export const filePartSchema = z.looseObject({ type: z.literal('file'), mimeType: z.string(), data: z.string(), ...partExtras });

export const errorPartSchema = z.looseObject({
  type: z.literal('error'),
  error: z.looseObject({ name: z.string(), message: z.string() }),
  ...partExtras,
});

/** Custom data parts: `data-<name>` with any payload. */
export const dataPartSchema = z.looseObject({
  type: z.templateLiteral(['data-', z.string().min(1)]),
  data: z.unknown(),
  id: z.string().optional(),
  ...partExtras,
});

export const MESSAGE_PART_TYPES = [
  'text',
  'reasoning',
  'tool-invocation',
  'step-start',
  'source',
  'source-document',
  'file',
  'error',
  'data-<name>',
] as const;

// zod cannot discriminate on a template literal, so the fixed kinds form a discriminated union
// and `data-*` is the second branch; contract problems are reported from the branch whose `type`
// matched (see problems.ts).
export const messagePartSchema = z.union(
  [
    z.discriminatedUnion('type', [
      textPartSchema,
      reasoningPartSchema,
      toolInvocationPartSchema,
      stepStartPartSchema,
      sourcePartSchema,
      sourceDocumentPartSchema,
      filePartSchema,
      errorPartSchema,
    ]),
    dataPartSchema,
  ],
  { error: `unknown or missing part type: expected one of ${MESSAGE_PART_TYPES.join(', ')}` },
).meta({ id: 'MessagePart' });
export type MessagePart = z.infer<typeof messagePartSchema>;

export const messageContentSchema = z.looseObject({
  format: z.literal(2),
  parts: z.array(messagePartSchema),
  /** Legacy flattened text; some Mastra helpers prefer it over the parts. */
  content: z.string().optional(),
  /** Legacy mirror of the tool parts (may hold calls not in parts, or vice versa). */
  toolInvocations: z.array(toolInvocationSchema).optional(),
  reasoning: z.string().optional(),
  experimental_attachments: z.array(z.unknown()).optional(),
  annotations: z.array(z.unknown()).optional(),
  /** Live output carries `{ modelId, provider }`. */
  metadata: z.record(z.string(), z.unknown()).optional(),
  providerMetadata: z.record(z.string(), z.unknown()).optional(),
});

export const MESSAGE_ROLES = ['user', 'assistant', 'system', 'signal'] as const;

export const dbMessageSchema = z.looseObject({
  id: z.string().min(1),
  role: z.enum(MESSAGE_ROLES),
  createdAt: isoDateSchema,
  threadId: z.string().optional(),
  resourceId: z.string().optional(),
  /** Used by 'signal' messages to carry their semantic role. */
  type: z.string().optional(),
  content: messageContentSchema,
}).meta({ id: 'DbMessage' });
/** A message as scorers see it (`createdAt` is a Date). */
export type DbMessage = z.output<typeof dbMessageSchema>;
/** A message as it travels on the wire (`createdAt` is an ISO string). */
export type DbMessageInput = z.input<typeof dbMessageSchema>;

export const coreSystemMessageSchema = z.looseObject({
  role: z.literal('system'),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.literal('text'), text: z.string() }))]),
  providerOptions: z.record(z.string(), z.unknown()).optional(),
}).meta({ id: 'CoreSystemMessage' });
export type CoreSystemMessage = z.infer<typeof coreSystemMessageSchema>;
