// Mastra's agent message shapes as zod schemas, so that scorers written for Mastra and its scorer
// utils read our run events unchanged (docs/contracts.md, the run event). Permissive where Mastra
// is: every message, content and part object keeps unknown keys. Strict where scorers depend on
// the shape: roles, part kinds, tool-invocation states. The message types are derived from these
// schemas (their output side, as parsing hands them to scorers); src/kit/utils/message-types.ts
// gives them to scorer code under Mastra's names.
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
export type ToolInvocation = z.output<typeof toolInvocationSchema>;
export type ToolInvocationState = (typeof TOOL_INVOCATION_STATES)[number];

export const textPartSchema = z.looseObject({ type: z.literal('text'), text: z.string(), ...partExtras });
export type TextPart = z.output<typeof textPartSchema>;

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
export type ReasoningPart = z.output<typeof reasoningPartSchema>;
export type ReasoningDetail = ReasoningPart['details'][number];

export const toolInvocationPartSchema = z.looseObject({
  type: z.literal('tool-invocation'),
  toolInvocation: toolInvocationSchema,
  providerExecuted: z.boolean().optional(),
  title: z.string().optional(),
  ...partExtras,
});
export type ToolInvocationPart = z.output<typeof toolInvocationPartSchema>;

export const stepStartPartSchema = z.looseObject({ type: z.literal('step-start'), model: z.string().optional(), ...partExtras });
export type StepStartPart = z.output<typeof stepStartPartSchema>;

export const sourcePartSchema = z.looseObject({
  type: z.literal('source'),
  source: z.looseObject({ sourceType: z.literal('url'), id: z.string(), url: z.string(), title: z.string().optional() }),
  ...partExtras,
});
export type SourcePart = z.output<typeof sourcePartSchema>;

export const sourceDocumentPartSchema = z.looseObject({
  type: z.literal('source-document'),
  sourceId: z.string(),
  mediaType: z.string(),
  title: z.string(),
  filename: z.string().optional(),
  ...partExtras,
});
export type SourceDocumentPart = z.output<typeof sourceDocumentPartSchema>;

export const filePartSchema = z.looseObject({ type: z.literal('file'), mimeType: z.string(), data: z.string(), ...partExtras });
export type FilePart = z.output<typeof filePartSchema>;

export const errorPartSchema = z.looseObject({
  type: z.literal('error'),
  error: z.looseObject({ name: z.string(), message: z.string() }),
  ...partExtras,
});
export type ErrorPart = z.output<typeof errorPartSchema>;

/** Custom data parts: `data-<name>` with any payload. */
export const dataPartSchema = z.looseObject({
  type: z.templateLiteral(['data-', z.string().min(1)]),
  data: z.unknown(),
  id: z.string().optional(),
  ...partExtras,
});
export type DataPart = z.output<typeof dataPartSchema>;

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
export type MessagePart = z.output<typeof messagePartSchema>;

export const messageContentSchema = z.looseObject({
  format: z.literal(2),
  parts: z.array(messagePartSchema),
  /** Legacy flattened text; takes precedence over the parts in the message-text rule (src/kit/utils/message-text.ts). */
  content: z.string().optional(),
  /** Legacy mirror of the tool parts (may hold calls not in parts, or vice versa). */
  toolInvocations: z.array(toolInvocationSchema).optional(),
  /** Legacy reasoning text. */
  reasoning: z.string().optional(),
  experimental_attachments: z.array(z.unknown()).optional(),
  annotations: z.array(z.unknown()).optional(),
  /** Live output carries `{ modelId, provider }`; signal messages carry `signal`. */
  metadata: z.record(z.string(), z.unknown()).optional(),
  providerMetadata: z.record(z.string(), z.unknown()).optional(),
});
export type MessageContent = z.output<typeof messageContentSchema>;

export const MESSAGE_ROLES = ['user', 'assistant', 'system', 'signal'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

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
export type CoreSystemMessage = z.output<typeof coreSystemMessageSchema>;
