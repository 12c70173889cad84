// The public API of Scorestream (`import ... from 'scorestream'`): every name is listed here on
// purpose, from the module that defines it; what is not listed is internal and may change.
// test/unit/src/index.test.ts pins the runtime names, so adding or dropping one is a decision.
// Test helpers (mockJudge, the agent test runs) are in the `scorestream/testing` entry; the
// producer SDK is in `scorestream/producer`.

// Configuring a deployment: `export default defineConfig({ ... })` in scorestream.config.ts.
export { defineConfig } from './config/define-config.ts';
export type {
  DeliveryMode,
  SamplingOption,
  SaslConfig,
  ScorerBindingInput,
  ScorerLike,
  ScorestreamConfigInput,
  TlsConfig,
} from './config/config-types.ts';
export type { ConfigProblem } from './config/config-error.ts';
export type { BindingLevel, OnResumeMode, ThreadOptionsInput as ThreadOptions } from './threads/threads-schema.ts';
export type { Predicate } from './eligibility/predicate-schema.ts';

// Writing scorers, as with Mastra's createScorer: steps, notScorable, the run and its result.
export { createScorer } from './scorer/create-scorer.ts';
export { isNotScorable, notScorable } from './scorer/not-scorable.ts';
export type { NotScorable } from './scorer/not-scorable.ts';
export type {
  AgentScorer,
  FunctionStep,
  GenerateReasonContext,
  NotScorableRunResult,
  PreparedScorerRun,
  PromptStepSchema,
  ReasonPromptStep,
  RequestContextLike,
  ScorePromptStep,
  ScoredRunResult,
  Scorer,
  ScorerConfig,
  ScorerRun,
  ScorerRunOptions,
  ScorerRunResult,
  ScorerRunResultSnapshot,
  ScorerType,
  StepContext,
  StepDefinition,
  StepInfo,
  StepResults,
  StructuredPromptStep,
  TrajectoryScorer,
} from './scorer/types.ts';
export type { Trajectory, TrajectoryExpectation, TrajectoryStep } from './scorer/agent-types.ts';

// filterRun: a declarative prepareRun that keeps only the messages a scorer should see.
export { filterRun } from './filter-run/filter-run.ts';
export type { FilterableRun } from './filter-run/filter-run.ts';
export type { FilterRunOptions } from './filter-run/filter-run-options.ts';

// Mastra's scorer utils: reading the run's input and output messages, and number helpers.
export {
  extractInputMessages,
  getCombinedSystemPrompt,
  getConversationHistoryFromRunInput,
  getSystemMessagesFromRunInput,
  getUserMessageFromRunInput,
  isScorerRunInputForAgent,
} from './utils/run-input.ts';
export type { ConversationHistoryOptions } from './utils/run-input.ts';
export { extractAgentResponseMessages, getAssistantMessageFromRunOutput, getReasoningFromRunOutput } from './utils/run-output.ts';
export { extractToolCalls } from './utils/tool-calls.ts';
export type { ExtractedToolCalls, ToolCallInfo } from './utils/tool-calls.ts';
export { getMessageText as getTextContentFromMastraDBMessage } from './utils/message-text.ts';
export { isCloserTo, roundToTwoDecimals } from './utils/numbers.ts';
// The agent messages scorers read, under Mastra's names.
export type {
  CoreSystemMessage,
  DataPart,
  DbMessage,
  ErrorPart,
  FilePart,
  MastraDBMessage,
  MessageContent,
  MessagePart,
  MessageRole,
  ReasoningDetail,
  ReasoningPart,
  ScorerRunInputForAgent,
  ScorerRunOutputForAgent,
  SourceDocumentPart,
  SourcePart,
  StepStartPart,
  TextPart,
  ToolInvocation,
  ToolInvocationPart,
  ToolInvocationState,
} from './utils/message-types.ts';

// LLM judges: a scorer's or a step's judge, the models behind string ids, and the evidence.
export { createOpenAICompatibleJudgeProvider, judgeModelsFromEnv } from './judge/openai-compatible.ts';
export type { JudgeModelsFromEnv, OpenAICompatibleJudgeOptions } from './judge/openai-compatible.ts';
export { getDefaultJudgeModels, setDefaultJudgeModels } from './judge/model-resolution.ts';
export type {
  JsonPromptInjection,
  JudgeConfig,
  JudgeExecution,
  JudgeExecutionFailure,
  JudgeExecutionSuccess,
  JudgeModel,
  JudgeModelResolver,
  JudgeModelSettings,
  JudgeResults,
  JudgeUsage,
  StepJudgeConfig,
} from './judge/types.ts';

// Classifiers: typed questions answered by a decision model or any chat model, and the scorer
// that turns one answer into a score.
export { Classifier } from './classifier/classifier.ts';
export type { ClassifierOptions } from './classifier/classifier.ts';
export { createClassifierScorer } from './classifier/classifier-scorer.ts';
export type { ClassifierScorer, ClassifierScorerOptions, ClassifierScorerResults, ClassifierScorerRunOptions } from './classifier/classifier-scorer.ts';
export type { ClassifierRegistry } from './classifier/classifier-registry.ts';
export type { AnsweredEvidence, ClassifierEvidence } from './classifier/classifier-projection.ts';
export type { RetryPolicy } from './classifier/retry.ts';
export type {
  Answer,
  BooleanAnswer,
  BooleanQuestion,
  ChatModel,
  ChoiceAnswer,
  ChoiceQuestion,
  ClassifierModel,
  ClassifierModelResolver,
  ClassifierResult,
  ClassifierRounding,
  ClassifierState,
  ClassifierUsage,
  DecideOptions,
  DecisionModel,
  Question,
  Questions,
  QuestionText,
  QuestionType,
  RefusalAnswer,
  ScoreAnswer,
  ScoreQuestion,
} from './classifier/types.ts';

// Built-in scorers: code scorers, LLM-judge scorers, and their catalogue.
export { builtInScorers, createDefaultBuiltInScorers } from './scorers/registry.ts';
export type {
  BuiltInCodeScorerEntry,
  BuiltInJudge,
  BuiltInLlmScorerEntry,
  BuiltInScorer,
  BuiltInScorerEntry,
  BuiltInScorerId,
} from './scorers/registry.ts';
export { completenessScorerId, createCompletenessScorer } from './scorers/code/completeness/index.ts';
export { contentSimilarityScorerId, createContentSimilarityScorer } from './scorers/code/content-similarity/index.ts';
export type { ContentSimilarityOptions } from './scorers/code/content-similarity/index.ts';
export { createKeywordCoverageScorer, keywordCoverageScorerId } from './scorers/code/keyword-coverage/index.ts';
export type { KeywordCoverageOptions } from './scorers/code/keyword-coverage/index.ts';
export { createTextualDifferenceScorer, textualDifferenceScorerId } from './scorers/code/textual-difference/index.ts';
export type { TextualDifferenceOptions } from './scorers/code/textual-difference/index.ts';
export { createToolCallAccuracyScorer, toolCallAccuracyScorerId } from './scorers/code/tool-call-accuracy/index.ts';
export type { ToolCallAccuracyOptions } from './scorers/code/tool-call-accuracy/index.ts';
export { createToolErrorRateScorer, toolErrorRateScorerId } from './scorers/code/tool-error-rate/index.ts';
export type { FailedToolCall } from './scorers/code/tool-error-rate/index.ts';
export { answerRelevancyScorerId, createAnswerRelevancyScorer } from './scorers/llm/answer-relevancy/index.ts';
export type { AnswerRelevancyOptions } from './scorers/llm/answer-relevancy/index.ts';
export { biasScorerId, createBiasScorer } from './scorers/llm/bias/index.ts';
export type { BiasOptions } from './scorers/llm/bias/index.ts';
export { createFaithfulnessScorer, faithfulnessScorerId } from './scorers/llm/faithfulness/index.ts';
export type { FaithfulnessOptions } from './scorers/llm/faithfulness/index.ts';
export { createHallucinationScorer, hallucinationScorerId } from './scorers/llm/hallucination/index.ts';
export type { HallucinationOptions } from './scorers/llm/hallucination/index.ts';
export { createToxicityScorer, toxicityScorerId } from './scorers/llm/toxicity/index.ts';
export type { ToxicityOptions } from './scorers/llm/toxicity/index.ts';
export type { LlmScorerConfig } from './scorers/shared/llm-scorer-config.ts';
// Built-in thread scorers (docs/threads.md): bind them with level: 'thread'.
export { createTurnCountScorer, turnCountScorerId } from './scorers/code/turn-count/index.ts';
export { createThreadToolErrorRateScorer, threadToolErrorRateScorerId } from './scorers/code/thread-tool-error-rate/index.ts';
export type { ThreadToolFailure } from './scorers/code/thread-tool-error-rate/index.ts';
export { createRunScoreMeanScorer, createRunScoreMinScorer, runScoreMeanScorerId, runScoreMinScorerId } from './scorers/code/run-score-stats/index.ts';
export type { RunScoreStatsOptions } from './scorers/code/run-score-stats/index.ts';
export { conversationResolutionScorerId, createConversationResolutionScorer } from './scorers/llm/conversation-resolution/index.ts';
export type { ConversationResolutionOptions } from './scorers/llm/conversation-resolution/index.ts';
export { createUserFrustrationScorer, userFrustrationScorerId } from './scorers/llm/user-frustration/index.ts';
export type { UserFrustrationOptions } from './scorers/llm/user-frustration/index.ts';
export { createKnowledgeRetentionScorer, knowledgeRetentionScorerId } from './scorers/llm/knowledge-retention/index.ts';
export type { KnowledgeRetentionOptions } from './scorers/llm/knowledge-retention/index.ts';
// Writing thread scorers: the conversation a thread scorer's run holds.
export { threadRunOf } from './scorer/thread-run.ts';
export type { ThreadRunInfo, ThreadRunView, ThreadScorerRun, ThreadTurnRun } from './scorer/thread-run.ts';

// The wire contracts, for whoever produces or reads the topics: the schemas, their versions and
// enumerations, parse and decode functions that report every problem with its path, the
// deterministic score and feedback ids, and the JSON Schemas (also in schemas/).
export {
  AGENT_RUN_EVENT_SCHEMA_VERSION,
  AGENT_RUN_EVENT_TYPE,
  agentRunEventSchema,
} from './contracts/agent-run-event.ts';
export type { AgentRunEvent, AgentRunEventInput, AgentRunInput, RunTrace, RunUsage } from './contracts/agent-run-event.ts';
export type { DbMessageInput } from './contracts/messages.ts';
export { SCORE_RECORD_SCHEMA_VERSION, SCORE_STATUSES, scoreRecordSchema, VERDICTS } from './contracts/score-record.ts';
export type {
  FailedScoreRecord,
  NotScorableOutcome,
  NotScorableRecord,
  ScoredRecord,
  ScoreError,
  ScoreRecord,
  ScoreStatus,
  Verdict,
} from './contracts/score-record.ts';
export { ALERT_KINDS, ALERT_RECORD_SCHEMA_VERSION, alertRecordSchema } from './contracts/alert-record.ts';
export type { AlertKind, AlertRecord } from './contracts/alert-record.ts';
export type { PassCriterion } from './verdict/pass-criterion.ts';
export type { MonitorInput } from './monitors/monitor-schema.ts';
export { PIPELINE_STAGES, SCORER_STEPS } from './contracts/scorer-steps.ts';
export type { PipelineStage, StepName } from './contracts/scorer-steps.ts';
export { DECISION_RECORD_SCHEMA_VERSION, decisionRecordSchema, SKIP_REASONS } from './contracts/decision-record.ts';
export type { DecisionRecord, SkipReason } from './contracts/decision-record.ts';
export { DEFAULT_FEEDBACK_TOPIC, FEEDBACK_RECORD_SCHEMA_VERSION, FEEDBACK_SOURCES, feedbackRecordSchema } from './contracts/feedback-record.ts';
export type {
  FeedbackCorrection,
  FeedbackRecord,
  FeedbackRecordInput,
  FeedbackSource,
  FeedbackSubmitter,
  FeedbackTarget,
  FeedbackValue,
} from './contracts/feedback-record.ts';
export { feedbackIdFor } from './contracts/feedback-id.ts';
export type { FeedbackIdParts } from './contracts/feedback-id.ts';
export { AGREEMENT_RECORD_SCHEMA_VERSION, agreementRecordSchema, DEFAULT_AGREEMENTS_TOPIC } from './contracts/agreement-record.ts';
export type { AgreementPair, AgreementRecord, AgreementWindow } from './contracts/agreement-record.ts';
export { DEAD_LETTER_CODES, DEAD_LETTER_SCHEMA_VERSION, deadLetterSchema } from './contracts/dead-letter.ts';
export type { DeadLetter, DeadLetterCode, EncodedBytes } from './contracts/dead-letter.ts';
export type { Entity, RecordTrace, RunMetadata, Sampling, Source } from './contracts/common.ts';
export {
  decodeAgentRunEvent,
  decodeFeedbackRecord,
  parseAgentRunEvent,
  parseAgreementRecord,
  parseAlertRecord,
  parseDeadLetter,
  parseDecisionRecord,
  parseFeedbackRecord,
  parseScoreRecord,
} from './contracts/parse.ts';
export type { DecodeFailureCode, DecodeOptions, DecodeResult, ParseResult } from './contracts/parse.ts';
export { formatProblems } from './contracts/problems.ts';
export type { Problem } from './contracts/problems.ts';
export { decodeBytes } from './contracts/encoded-bytes.ts';
export { rescoreIdFor, scoreIdFor } from './contracts/score-id.ts';
export { RESCORE_REASONS, RESCORE_REQUEST_SCHEMA_VERSION, rescoreRequestSchema } from './contracts/rescore-request.ts';
export type { RescoreMark, RescoreReason, RescoreRequest } from './contracts/rescore-request.ts';
export type { ScoreIdParts } from './contracts/score-id.ts';
export { contractJsonSchemas } from './contracts/json-schemas.ts';
// Threads on the wire (docs/threads.md): the end event producers send, the re-keyed turn, the
// thread block of records, and the thread's ids.
export { THREAD_ENDED_SCHEMA_VERSION, THREAD_ENDED_TYPE, threadEndedEventSchema } from './contracts/thread-ended.ts';
export type { ThreadEndedEvent, ThreadEndedEventInput } from './contracts/thread-ended.ts';
export { THREAD_TURN_SCHEMA_VERSION, THREAD_TURN_TYPE, threadTurnSchema } from './contracts/thread-turn.ts';
export type { RunScoreStatus, RunScoreSummary, ThreadTurn, ThreadTurnInput, ThreadTurnShed, TurnTrace } from './contracts/thread-turn.ts';
export { THREAD_CLOSE_REASONS, THREAD_SCOPES } from './contracts/thread-ref.ts';
export type { ThreadCloseReason, ThreadRef, ThreadScope, ThreadVersion } from './contracts/thread-ref.ts';
export { threadKeyFor, threadScoreIdFor, threadScoreViewKeyFor, threadVersionIdFor } from './contracts/thread-ids.ts';
export type { ThreadScoreIdParts, ThreadScoreViewParts } from './contracts/thread-ids.ts';

// Errors. Ours are ScorestreamErrors with a stable `code` and `canRetry`; JudgeTimeoutError is an
// AI SDK APICallError, so the SDK's retry loop retries it. Test with `SomeError.isInstance(error)`,
// which also works across copies of the library.
export { ScorestreamError } from './errors.ts';
export type { ScorestreamErrorOptions } from './errors.ts';
export { ConfigError } from './config/config-error.ts';
export { ScorerError } from './scorer/scorer-error.ts';
export { ScorerRunError } from './scorer/scorer-run-error.ts';
export { JudgeTimeoutError } from './judge/judge-errors.ts';
