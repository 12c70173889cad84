// Builders for scorer tests, as Mastra's scorer test utils: messages, tool invocations and whole
// agent runs in Mastra's shape. Exposed through the `scorestream/testing` entry, not the main one.
import { randomUUID } from 'node:crypto';
import type {
  CoreSystemMessage,
  DbMessage,
  MessagePart,
  MessageRole,
  ScorerRunInputForAgent,
  ScorerRunOutputForAgent,
  ToolInvocation,
  ToolInvocationState,
} from '../utils/message-types.ts';

export type CreateTestMessageOptions = {
  /** The message text; also the single text part unless `parts` is given. */
  content: string;
  role: MessageRole;
  id?: string;
  toolInvocations?: ToolInvocation[];
  parts?: MessagePart[];
  /** Defaults to now. */
  createdAt?: Date;
};

/** A DbMessage with `content.content` set and, unless `parts` is given, one text part. */
export function createTestMessage(options: CreateTestMessageOptions): DbMessage {
  const { content, role, id = 'test-message', toolInvocations, parts, createdAt = new Date() } = options;
  return {
    id,
    role,
    content: {
      format: 2,
      parts: parts ?? [{ type: 'text', text: content }],
      content,
      // Like Mastra: the legacy mirror appears only when there is something in it.
      ...(toolInvocations !== undefined && toolInvocations.length > 0 ? { toolInvocations } : {}),
    },
    createdAt,
  };
}

export type CreateToolInvocationOptions = {
  toolCallId: string;
  toolName: string;
  args?: unknown;
  result?: unknown;
  state?: ToolInvocationState;
};

/** A tool invocation, in state 'result' unless told otherwise. */
export function createToolInvocation(options: CreateToolInvocationOptions): ToolInvocation {
  const { toolCallId, toolName, args = {}, result = {}, state = 'result' } = options;
  return { toolCallId, toolName, args, result, state };
}

/** Mastra's RequestContext is Map-like (get/set/entries); a Map stands in for it. */
export type TestRequestContext = Map<string, unknown> | Record<string, unknown>;

export type CreateAgentTestRunOptions = {
  inputMessages?: DbMessage[];
  output: ScorerRunOutputForAgent;
  rememberedMessages?: DbMessage[];
  systemMessages?: CoreSystemMessage[];
  taggedSystemMessages?: Record<string, CoreSystemMessage[]>;
  /** Defaults to an empty Map (standing in for Mastra's `new RequestContext()`). */
  requestContext?: TestRequestContext;
  /** Defaults to a random v4 UUID. */
  runId?: string;
};

export type AgentTestRun = {
  input: ScorerRunInputForAgent;
  output: ScorerRunOutputForAgent;
  requestContext: TestRequestContext;
  runId: string;
};

/** The run object a `type: 'agent'` scorer receives. */
export function createAgentTestRun(options: CreateAgentTestRunOptions): AgentTestRun {
  const {
    inputMessages = [],
    output,
    rememberedMessages = [],
    systemMessages = [],
    taggedSystemMessages = {},
    requestContext = new Map<string, unknown>(),
    runId = randomUUID(),
  } = options;
  return {
    input: { inputMessages, rememberedMessages, systemMessages, taggedSystemMessages },
    output,
    requestContext,
    runId,
  };
}
