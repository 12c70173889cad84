// The public API of Scorestream (`import ... from 'scorestream'`): every name is listed here on
// purpose, from the module that defines it; what is not listed is internal and may change.
// test/unit/src/index.test.ts pins the runtime names, so adding or dropping one is a decision.
// Test helpers (mockJudge, the agent test runs) are in the `scorestream/testing` entry; the
// producer SDK is in `scorestream/producer`.

// Configuring a deployment: `export default defineConfig({ ... })` in scorestream.config.ts.
export { defineConfig } from './engine/config/define-config.ts';
export type {
  DeliveryMode,
  SamplingOption,
  SaslConfig,
  ScorerBindingInput,
  ScorerLike,
  ScorestreamConfigInput,
  TlsConfig,
} from './engine/config/config-types.ts';
export type { ConfigProblem } from './engine/config/config-error.ts';
export type { BindingLevel } from './kit/scorer/binding-level.ts';
export type { OnResumeMode, ThreadOptionsInput as ThreadOptions } from './engine/threads/threads-schema.ts';
export type { Predicate } from './engine/eligibility/predicate-schema.ts';

// Writing scorers, as with Mastra's createScorer: steps, notScorable, the run and its result.
export { createScorer } from './kit/scorer/create-scorer.ts';
export { isNotScorable, notScorable } from './kit/scorer/not-scorable.ts';
export type { NotScorable } from './kit/scorer/not-scorable.ts';
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
} from './kit/scorer/types.ts';
export type { Trajectory, TrajectoryExpectation, TrajectoryStep } from './kit/scorer/agent-types.ts';

// filterRun: a declarative prepareRun that keeps only the messages a scorer should see.
export { filterRun } from './kit/filter-run/filter-run.ts';
export type { FilterableRun } from './kit/filter-run/filter-run.ts';
export type { FilterRunOptions } from './kit/filter-run/filter-run-options.ts';

// Mastra's scorer utils: reading the run's input and output messages, and number helpers.
export {
  extractInputMessages,
  getCombinedSystemPrompt,
  getConversationHistoryFromRunInput,
  getSystemMessagesFromRunInput,
  getUserMessageFromRunInput,
  isScorerRunInputForAgent,
} from './kit/utils/run-input.ts';
export type { ConversationHistoryOptions } from './kit/utils/run-input.ts';
export { extractAgentResponseMessages, getAssistantMessageFromRunOutput, getReasoningFromRunOutput } from './kit/utils/run-output.ts';
export { extractToolCalls } from './kit/utils/tool-calls.ts';
export type { ExtractedToolCalls, ToolCallInfo } from './kit/utils/tool-calls.ts';
export { getMessageText as getTextContentFromMastraDBMessage } from './kit/utils/message-text.ts';
export { isCloserTo, roundToTwoDecimals } from './kit/utils/numbers.ts';
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
} from './kit/utils/message-types.ts';

// LLM judges: a scorer's or a step's judge, the models behind string ids, and the evidence.
export { createOpenAICompatibleJudgeProvider, judgeModelsFromEnv } from './kit/judge/openai-compatible.ts';
export type { JudgeModelsFromEnv, OpenAICompatibleJudgeOptions } from './kit/judge/openai-compatible.ts';
export { getDefaultJudgeModels, setDefaultJudgeModels } from './kit/judge/model-resolution.ts';
export { layoutPrompt, type JudgePrompt, type LaidOutPrompt } from './kit/judge/prompt-layout.ts'; // for the providers' prompt caches
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
} from './kit/judge/types.ts';

// Classifiers: typed questions answered by a decision model or any chat model, and the scorer
// that turns one answer into a score.
export { Classifier } from './kit/classifier/classifier.ts';
export type { ClassifierOptions } from './kit/classifier/classifier.ts';
export { createClassifierScorer } from './kit/classifier/classifier-scorer.ts';
export type { ClassifierScorer, ClassifierScorerOptions, ClassifierScorerResults, ClassifierScorerRunOptions } from './kit/classifier/classifier-scorer.ts';
export type { ClassifierRegistry } from './kit/classifier/classifier-registry.ts';
export type { AnsweredEvidence, ClassifierEvidence } from './kit/classifier/classifier-projection.ts';
export type { RetryPolicy } from './kit/classifier/retry.ts';
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
} from './kit/classifier/types.ts';

// Built-in scorers: code scorers, LLM-judge scorers, and their catalogue.
export { builtInScorers, createDefaultBuiltInScorers } from './kit/scorers/registry.ts';
export type {
  BuiltInCodeScorerEntry,
  BuiltInJudge,
  BuiltInLlmScorerEntry,
  BuiltInScorer,
  BuiltInScorerEntry,
  BuiltInScorerId,
} from './kit/scorers/registry.ts';
export { completenessScorerId, createCompletenessScorer } from './kit/scorers/code/completeness/index.ts';
export { contentSimilarityScorerId, createContentSimilarityScorer } from './kit/scorers/code/content-similarity/index.ts';
export type { ContentSimilarityOptions } from './kit/scorers/code/content-similarity/index.ts';
export { createKeywordCoverageScorer, keywordCoverageScorerId } from './kit/scorers/code/keyword-coverage/index.ts';
export type { KeywordCoverageOptions } from './kit/scorers/code/keyword-coverage/index.ts';
export { createTextualDifferenceScorer, textualDifferenceScorerId } from './kit/scorers/code/textual-difference/index.ts';
export type { TextualDifferenceOptions } from './kit/scorers/code/textual-difference/index.ts';
export { createToolCallAccuracyScorer, toolCallAccuracyScorerId } from './kit/scorers/code/tool-call-accuracy/index.ts';
export type { ToolCallAccuracyOptions } from './kit/scorers/code/tool-call-accuracy/index.ts';
export { createToolErrorRateScorer, toolErrorRateScorerId } from './kit/scorers/code/tool-error-rate/index.ts';
export type { FailedToolCall } from './kit/scorers/code/tool-error-rate/index.ts';
export { createToolArgumentValidityScorer, toolArgumentValidityScorerId } from './kit/scorers/code/tool-argument-validity/index.ts';
export type { InvalidToolCall, ToolArgumentValidityOptions, UncheckedToolCall, UncheckedWhy } from './kit/scorers/code/tool-argument-validity/index.ts';
export { createUnofferedToolCallsScorer, unofferedToolCallsScorerId } from './kit/scorers/code/unoffered-tool-calls/index.ts';
export type { UnofferedToolCall } from './kit/scorers/code/unoffered-tool-calls/index.ts';
export { createRepeatedToolCallsScorer, repeatedToolCallsScorerId } from './kit/scorers/code/repeated-tool-calls/index.ts';
export type { RepeatedCallGroup, RepeatedToolCallsOptions, ToolCallCycle } from './kit/scorers/code/repeated-tool-calls/index.ts';
export { createToolErrorRecoveryScorer, failureAdmissionPatterns, toolErrorRecoveryScorerId } from './kit/scorers/code/tool-error-recovery/index.ts';
export type { RecoveryOutcome, ToolFailure } from './kit/scorers/code/tool-error-recovery/index.ts';
export { createStepBudgetScorer, stepBudgetScorerId } from './kit/scorers/code/step-budget/index.ts';
export type { BudgetCheck, BudgetMeasure, StepBudgetMeasures, StepBudgetOptions, StepBudgetResult } from './kit/scorers/code/step-budget/index.ts';
export { createTrajectoryMatchScorer, trajectoryMatchScorerId } from './kit/scorers/code/trajectory-match/index.ts';
export type { ExpectedStep, MissingStep, TrajectoryMatchOptions, TrajectoryMatchResult, TrajectoryMode, UnexpectedStep } from './kit/scorers/code/trajectory-match/index.ts';
export { answerRelevancyScorerId, createAnswerRelevancyScorer } from './kit/scorers/llm/answer-relevancy/index.ts';
export type { AnswerRelevancyOptions } from './kit/scorers/llm/answer-relevancy/index.ts';
export { biasScorerId, createBiasScorer } from './kit/scorers/llm/bias/index.ts';
export type { BiasOptions } from './kit/scorers/llm/bias/index.ts';
export { createFaithfulnessScorer, faithfulnessScorerId } from './kit/scorers/llm/faithfulness/index.ts';
export type { FaithfulnessOptions } from './kit/scorers/llm/faithfulness/index.ts';
export { createHallucinationScorer, hallucinationScorerId } from './kit/scorers/llm/hallucination/index.ts';
export type { HallucinationOptions } from './kit/scorers/llm/hallucination/index.ts';
export { createToxicityScorer, toxicityScorerId } from './kit/scorers/llm/toxicity/index.ts';
export type { ToxicityOptions } from './kit/scorers/llm/toxicity/index.ts';
export { createTaskCompletionScorer, taskCompletionScorerId } from './kit/scorers/llm/task-completion/index.ts';
export type { TaskCompletionOptions } from './kit/scorers/llm/task-completion/index.ts';
export { createToolSelectionScorer, toolSelectionScorerId } from './kit/scorers/llm/tool-selection/index.ts';
export type { ToolSelectionOptions } from './kit/scorers/llm/tool-selection/index.ts';
export type { LlmScorerConfig } from './kit/scorers/shared/llm-scorer-config.ts';
// Built-in thread scorers (docs/threads.md): bind them with level: 'thread'.
export { createTurnCountScorer, turnCountScorerId } from './kit/scorers/code/turn-count/index.ts';
export { createThreadToolErrorRateScorer, threadToolErrorRateScorerId } from './kit/scorers/code/thread-tool-error-rate/index.ts';
export type { ThreadToolFailure } from './kit/scorers/code/thread-tool-error-rate/index.ts';
export { createRunScoreMeanScorer, createRunScoreMinScorer, runScoreMeanScorerId, runScoreMinScorerId } from './kit/scorers/code/run-score-stats/index.ts';
export type { RunScoreStatsOptions } from './kit/scorers/code/run-score-stats/index.ts';
export { conversationResolutionScorerId, createConversationResolutionScorer } from './kit/scorers/llm/conversation-resolution/index.ts';
export type { ConversationResolutionOptions } from './kit/scorers/llm/conversation-resolution/index.ts';
export { createUserFrustrationScorer, userFrustrationScorerId } from './kit/scorers/llm/user-frustration/index.ts';
export type { UserFrustrationOptions } from './kit/scorers/llm/user-frustration/index.ts';
export { createKnowledgeRetentionScorer, knowledgeRetentionScorerId } from './kit/scorers/llm/knowledge-retention/index.ts';
export type { KnowledgeRetentionOptions } from './kit/scorers/llm/knowledge-retention/index.ts';
// Writing thread scorers: the conversation a thread scorer's run holds.
export { threadRunOf } from './kit/scorer/thread-run.ts';
export type { ThreadRunInfo, ThreadRunView, ThreadScorerRun, ThreadTurnRun } from './kit/scorer/thread-run.ts';

// The wire contracts, for whoever produces or reads the topics: the schemas, their versions and
// enumerations, parse and decode functions that report every problem with its path, the
// deterministic score and feedback ids, and the JSON Schemas (also in schemas/).
export {
  AGENT_RUN_EVENT_SCHEMA_VERSION,
  AGENT_RUN_EVENT_TYPE,
  agentRunEventSchema,
} from './kit/contracts/agent-run-event.ts';
export type { AgentRunEvent, AgentRunEventInput, AgentRunInput, RunTrace, RunUsage, ToolDefinition } from './kit/contracts/agent-run-event.ts';
export type { DbMessageInput } from './kit/contracts/messages.ts';
export { SCORE_RECORD_SCHEMA_VERSION, SCORE_STATUSES, scoreRecordSchema, VERDICTS } from './kit/contracts/score-record.ts';
export type {
  FailedScoreRecord,
  NotScorableOutcome,
  NotScorableRecord,
  ScoredRecord,
  ScoreError,
  ScoreRecord,
  ScoreStatus,
  Verdict,
} from './kit/contracts/score-record.ts';
export { ALERT_KINDS, ALERT_RECORD_SCHEMA_VERSION, alertRecordSchema } from './kit/contracts/alert-record.ts';
export type { AlertKind, AlertRecord } from './kit/contracts/alert-record.ts';
export type { PassCriterion } from './kit/verdict/pass-criterion.ts';
export type { MonitorInput } from './engine/monitors/monitor-schema.ts';
export { PIPELINE_STAGES, SCORER_STEPS } from './kit/contracts/scorer-steps.ts';
export type { PipelineStage, StepName } from './kit/contracts/scorer-steps.ts';
export { DECISION_RECORD_SCHEMA_VERSION, decisionRecordSchema, SKIP_REASONS } from './kit/contracts/decision-record.ts';
export type { DecisionRecord, SkipReason } from './kit/contracts/decision-record.ts';
export { DEFAULT_FEEDBACK_TOPIC, FEEDBACK_RECORD_SCHEMA_VERSION, FEEDBACK_SOURCES, feedbackRecordSchema } from './kit/contracts/feedback-record.ts';
export type {
  FeedbackCorrection,
  FeedbackRecord,
  FeedbackRecordInput,
  FeedbackSource,
  FeedbackSubmitter,
  FeedbackTarget,
  FeedbackValue,
} from './kit/contracts/feedback-record.ts';
export { feedbackIdFor } from './kit/contracts/feedback-id.ts';
export type { FeedbackIdParts } from './kit/contracts/feedback-id.ts';
export { AGREEMENT_RECORD_SCHEMA_VERSION, agreementRecordSchema, DEFAULT_AGREEMENTS_TOPIC } from './kit/contracts/agreement-record.ts';
export type { AgreementPair, AgreementRecord, AgreementWindow } from './kit/contracts/agreement-record.ts';
export { DEAD_LETTER_CODES, DEAD_LETTER_SCHEMA_VERSION, deadLetterSchema } from './kit/contracts/dead-letter.ts';
export type { DeadLetter, DeadLetterCode, EncodedBytes } from './kit/contracts/dead-letter.ts';
export type { Entity, RecordTrace, RunMetadata, Sampling, Source } from './kit/contracts/common.ts';
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
} from './kit/contracts/parse.ts';
export type { DecodeFailureCode, DecodeOptions, DecodeResult } from './kit/contracts/parse.ts';
export { formatProblems } from './kit/contracts/problems.ts';
export type { ParseResult, Problem } from './kit/contracts/problems.ts';
export { decodeBytes } from './kit/contracts/encoded-bytes.ts';
export { rescoreIdFor, scoreIdFor } from './kit/contracts/score-id.ts';
export { RESCORE_REASONS, RESCORE_REQUEST_SCHEMA_VERSION, rescoreRequestSchema } from './kit/contracts/rescore-request.ts';
export type { RescoreMark, RescoreReason, RescoreRequest } from './kit/contracts/rescore-request.ts';
export type { ScoreIdParts } from './kit/contracts/score-id.ts';
export { contractJsonSchemas } from './kit/contracts/json-schemas.ts';
// Threads on the wire (docs/threads.md): the end event producers send, the re-keyed turn, the
// thread block of records, and the thread's ids.
export { THREAD_ENDED_SCHEMA_VERSION, THREAD_ENDED_TYPE, threadEndedEventSchema } from './kit/contracts/thread-ended.ts';
export type { ThreadEndedEvent, ThreadEndedEventInput } from './kit/contracts/thread-ended.ts';
export { THREAD_TURN_SCHEMA_VERSION, THREAD_TURN_TYPE, threadTurnSchema } from './kit/contracts/thread-turn.ts';
export type { RunScoreStatus, RunScoreSummary, ThreadTurn, ThreadTurnInput, ThreadTurnShed, TurnTrace } from './kit/contracts/thread-turn.ts';
export { THREAD_CLOSE_REASONS, THREAD_SCOPES } from './kit/contracts/thread-ref.ts';
export type { ThreadCloseReason, ThreadRef, ThreadScope, ThreadVersion } from './kit/contracts/thread-ref.ts';
export { threadKeyFor, threadScoreIdFor, threadScoreViewKeyFor, threadVersionIdFor } from './kit/contracts/thread-ids.ts';
export type { ThreadScoreIdParts, ThreadScoreViewParts } from './kit/contracts/thread-ids.ts';

// Errors. Ours are ScorestreamErrors with a stable `code` and `canRetry`; JudgeTimeoutError is an
// AI SDK APICallError, so the SDK's retry loop retries it. Test with `SomeError.isInstance(error)`,
// which also works across copies of the library.
export { ScorestreamError } from './kit/errors.ts';
export type { ScorestreamErrorOptions } from './kit/errors.ts';
export { ConfigError } from './engine/config/config-error.ts';
export { ScorerError } from './kit/scorer/scorer-error.ts';
export { ScorerRunError } from './kit/scorer/scorer-run-error.ts';
export { JudgeTimeoutError } from './kit/judge/judge-errors.ts';
