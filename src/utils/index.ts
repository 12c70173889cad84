// Barrel of src/utils, for the rest of the repository: the Mastra-compatible scorer utils and
// the message types they read. The public API (src/index.ts) lists them one by one.
export {
  getUserMessageFromRunInput,
  getSystemMessagesFromRunInput,
  getCombinedSystemPrompt,
  extractInputMessages,
  getConversationHistoryFromRunInput,
  isScorerRunInputForAgent,
} from './run-input.ts';
export type { ConversationHistoryOptions } from './run-input.ts';
export {
  getAssistantMessageFromRunOutput,
  getReasoningFromRunOutput,
  extractAgentResponseMessages,
} from './run-output.ts';
export { extractToolCalls } from './tool-calls.ts';
export type { ToolCallInfo, ExtractedToolCalls } from './tool-calls.ts';
export { getMessageText as getTextContentFromMastraDBMessage } from './message-text.ts';
export { roundToTwoDecimals, isCloserTo } from './numbers.ts';
export type {
  DbMessage,
  MastraDBMessage,
  MessageContent,
  MessagePart,
  MessageRole,
  TextPart,
  ReasoningPart,
  ReasoningDetail,
  ToolInvocationPart,
  StepStartPart,
  SourcePart,
  SourceDocumentPart,
  FilePart,
  ErrorPart,
  DataPart,
  ToolInvocation,
  ToolInvocationState,
  CoreSystemMessage,
  ScorerRunInputForAgent,
  ScorerRunOutputForAgent,
} from './message-types.ts';
