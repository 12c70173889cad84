// Barrel of src/contracts, for the rest of the repository (the public API is src/index.ts): the
// wire contracts as zod schemas (types inferred from them), parse functions that report every
// problem with its path, deterministic score ids, and the dead-letter builder.
export {
  AGENT_RUN_EVENT_SCHEMA_VERSION,
  AGENT_RUN_EVENT_TYPE,
  agentRunEventSchema,
  agentRunInputSchema,
  runTraceSchema,
  runUsageSchema,
} from './agent-run-event.ts';
export type { AgentRunEvent, AgentRunEventInput, AgentRunInput, RunTrace, RunUsage } from './agent-run-event.ts';
export { buildDeadLetter } from './build-dead-letter.ts';
export type { BuildDeadLetterOptions, RawHeaders, RawMessage } from './build-dead-letter.ts';
export {
  entitySchema,
  isoTimestampSchema,
  recordTraceSchema,
  runMetadataSchema,
  samplingSchema,
  sourceSchema,
  spanIdSchema,
  traceIdSchema,
} from './common.ts';
export type { Entity, RecordTrace, RunMetadata, Sampling, Source } from './common.ts';
export { DEAD_LETTER_CODES, DEAD_LETTER_SCHEMA_VERSION, deadLetterSchema, encodedBytesSchema } from './dead-letter.ts';
export type { DeadLetter, DeadLetterCode, EncodedBytes } from './dead-letter.ts';
export { DECISION_RECORD_SCHEMA_VERSION, SKIP_REASONS, decisionRecordSchema } from './decision-record.ts';
export type { DecisionRecord, SkipReason } from './decision-record.ts';
export { decodeBytes, decodeUtf8, encodeBytes } from './encoded-bytes.ts';
export { contractJsonSchemas, serializeJsonSchema } from './json-schemas.ts';
export { judgeExecutionSchema, judgeResultsSchema, judgeUsageSchema } from './judge-execution.ts';
export type { JudgeExecution, JudgeResults, JudgeUsage } from './judge-execution.ts';
export { isPipelineStage, PIPELINE_STAGES, SCORER_STEPS } from './scorer-steps.ts';
export type { PipelineStage, StepName } from './scorer-steps.ts';
export {
  coreSystemMessageSchema,
  dbMessageSchema,
  MESSAGE_PART_TYPES,
  MESSAGE_ROLES,
  messageContentSchema,
  messagePartSchema,
  TOOL_INVOCATION_STATES,
  toolInvocationSchema,
} from './messages.ts';
// The message types (DbMessage, MessagePart, ...) are exported by src/utils under Mastra's names.
export type { DbMessageInput } from './messages.ts';
export {
  decodeAgentRunEvent,
  parseAgentRunEvent,
  parseDeadLetter,
  parseDecisionRecord,
  parseScoreRecord,
  parseWith,
} from './parse.ts';
export type { DecodeFailureCode, DecodeOptions, DecodeResult, ParseResult } from './parse.ts';
export { formatPath, formatProblems, problemsFromIssues } from './problems.ts';
export type { Problem } from './problems.ts';
export { scoreIdFor } from './score-id.ts';
export type { ScoreIdParts } from './score-id.ts';
export {
  notScorableSchema,
  SCORE_RECORD_SCHEMA_VERSION,
  SCORE_STATUSES,
  scoreErrorSchema,
  scoreRecordSchema,
} from './score-record.ts';
export type {
  FailedScoreRecord,
  NotScorableOutcome,
  NotScorableRecord,
  ScoredRecord,
  ScoreError,
  ScoreRecord,
  ScoreStatus,
} from './score-record.ts';
