// The agent message types under Mastra's names, for scorer code and the scorer utils. They are the
// wire contract's types (derived from the zod schemas in src/kit/contracts/messages.ts), as a parsed
// run hands them to scorers: `createdAt` is a Date and a reasoning part always has `details`.
// They describe a well-formed run; the utils themselves accept `unknown` and never throw on odd
// shapes, because scorers run on whatever the event held.
import type { AgentRunInput } from '../contracts/agent-run-event.ts';
import type { DbMessage } from '../contracts/messages.ts';

export type {
  CoreSystemMessage,
  DataPart,
  DbMessage,
  ErrorPart,
  FilePart,
  MessageContent,
  MessagePart,
  MessageRole,
  ReasoningDetail,
  ReasoningPart,
  SourceDocumentPart,
  SourcePart,
  StepStartPart,
  TextPart,
  ToolInvocation,
  ToolInvocationPart,
  ToolInvocationState,
} from '../contracts/messages.ts';

/** Mastra's name for a stored message. */
export type MastraDBMessage = DbMessage;

/** What an agent scorer gets as `run.input`: the run event's `input`. */
export type ScorerRunInputForAgent = AgentRunInput;

/** What an agent scorer gets as `run.output`: the response messages of the turn, in order. */
export type ScorerRunOutputForAgent = DbMessage[];
