// The Mastra agent message shapes (docs/contracts.md, messages) as plain TypeScript types, for
// scorer code and the scorer utils. They describe what a well-formed run carries; the utils
// themselves accept `unknown` and never throw on odd shapes, because scorers run on whatever the
// event held.

export type ToolInvocationState =
  | 'partial-call'
  | 'call'
  | 'result'
  | 'output-error'
  | 'output-denied'
  | 'approval-requested'
  | 'approval-responded';

export type ToolInvocation = {
  toolCallId: string;
  toolName: string;
  args: unknown;
  state: ToolInvocationState;
  result?: unknown;
  /** Set with state 'result' when the tool reported failure. */
  isError?: boolean;
  /** Set with state 'output-error' (the tool threw). */
  errorText?: string;
  rawInput?: unknown;
  approval?: { id: string; approved?: boolean; reason?: string };
  step?: number;
};

/** Fields any part may carry besides its own. */
type PartExtras = {
  providerMetadata?: Record<string, unknown>;
  /** Epoch milliseconds. */
  createdAt?: number;
};

export type TextPart = { type: 'text'; text: string } & PartExtras;

export type ReasoningDetail = { type: 'text'; text: string; signature?: string } | { type: 'redacted'; data: string };

export type ReasoningPart = { type: 'reasoning'; reasoning: string; details: ReasoningDetail[] } & PartExtras;

export type ToolInvocationPart = {
  type: 'tool-invocation';
  toolInvocation: ToolInvocation;
  providerExecuted?: boolean;
  title?: string;
} & PartExtras;

export type StepStartPart = { type: 'step-start'; model?: string } & PartExtras;

export type SourcePart = {
  type: 'source';
  source: { sourceType: 'url'; id: string; url: string; title?: string };
} & PartExtras;

export type SourceDocumentPart = {
  type: 'source-document';
  sourceId: string;
  mediaType: string;
  title: string;
  filename?: string;
} & PartExtras;

export type FilePart = { type: 'file'; mimeType: string; data: string } & PartExtras;

export type ErrorPart = { type: 'error'; error: { name: string; message: string } } & PartExtras;

export type DataPart = { type: `data-${string}`; data: unknown; id?: string } & PartExtras;

export type MessagePart =
  | TextPart
  | ReasoningPart
  | ToolInvocationPart
  | StepStartPart
  | SourcePart
  | SourceDocumentPart
  | FilePart
  | ErrorPart
  | DataPart;

export type MessageRole = 'user' | 'assistant' | 'system' | 'signal';

export type MessageContent = {
  format: 2;
  parts: MessagePart[];
  /** Legacy flattened text; takes precedence over the parts in the message-text rule. */
  content?: string;
  /** Legacy mirror of the tool parts (may hold calls not in parts, or vice versa). */
  toolInvocations?: ToolInvocation[];
  /** Legacy reasoning text. */
  reasoning?: string;
  experimental_attachments?: unknown[];
  annotations?: unknown[];
  /** Live output carries `{ modelId, provider }`; signal messages carry `signal`. */
  metadata?: Record<string, unknown>;
  providerMetadata?: Record<string, unknown>;
};

export type DbMessage = {
  id: string;
  role: MessageRole;
  createdAt: Date;
  threadId?: string;
  resourceId?: string;
  /** Used by 'signal' messages to carry their semantic role. */
  type?: string;
  content: MessageContent;
};

/** Mastra's name for the same shape. */
export type MastraDBMessage = DbMessage;

export type CoreSystemMessage = {
  role: 'system';
  content: string | { type: 'text'; text: string }[];
  providerOptions?: Record<string, unknown>;
};

export type ScorerRunInputForAgent = {
  /** The messages sent in this turn (usually user messages). */
  inputMessages: DbMessage[];
  /** Memory recalled for the turn, oldest first. */
  rememberedMessages: DbMessage[];
  /** Agent instructions and other system prompts. */
  systemMessages: CoreSystemMessage[];
  /** Tag -> system messages (e.g. memory). */
  taggedSystemMessages: Record<string, CoreSystemMessage[]>;
};

/** The response messages of the turn, in order. */
export type ScorerRunOutputForAgent = DbMessage[];
