// The public runtime API, pinned: adding or dropping an export of 'scorestream' (or of
// 'scorestream/testing') must be a decision, made here and in the entry file together. Types
// are erased at run time; `npm run typecheck` checks the ones the example config uses.
import { describe, expect, it } from 'vitest';
import * as publicApi from '../../../src/index.ts';
import * as testingApi from '../../../src/kit/testing/index.ts';

const publicRuntimeNames = [
  // Configuring a deployment
  'defineConfig',
  // Writing scorers
  'createScorer',
  'filterRun',
  'isNotScorable',
  'notScorable',
  // Mastra's scorer utils
  'extractAgentResponseMessages',
  'extractInputMessages',
  'extractToolCalls',
  'getAssistantMessageFromRunOutput',
  'getCombinedSystemPrompt',
  'getConversationHistoryFromRunInput',
  'getReasoningFromRunOutput',
  'getSystemMessagesFromRunInput',
  'getTextContentFromMastraDBMessage',
  'getUserMessageFromRunInput',
  'isCloserTo',
  'isScorerRunInputForAgent',
  'roundToTwoDecimals',
  // LLM judges
  'createOpenAICompatibleJudgeProvider',
  'judgeModelsFromEnv',
  'getDefaultJudgeModels',
  'setDefaultJudgeModels',
  'layoutPrompt',
  // Classifiers
  'Classifier',
  'createClassifierScorer',
  // Built-in scorers
  'answerRelevancyScorerId',
  'biasScorerId',
  'builtInScorers',
  'completenessScorerId',
  'contentSimilarityScorerId',
  'createAnswerRelevancyScorer',
  'createBiasScorer',
  'createCompletenessScorer',
  'createContentSimilarityScorer',
  'createDefaultBuiltInScorers',
  'createFaithfulnessScorer',
  'createHallucinationScorer',
  'createKeywordCoverageScorer',
  'createTextualDifferenceScorer',
  'createToolCallAccuracyScorer',
  'createToolErrorRateScorer',
  'createToxicityScorer',
  'faithfulnessScorerId',
  'hallucinationScorerId',
  'keywordCoverageScorerId',
  'textualDifferenceScorerId',
  'toolCallAccuracyScorerId',
  'toolErrorRateScorerId',
  'toxicityScorerId',
  // Built-in trajectory scorers (no judge)
  'createRepeatedToolCallsScorer',
  'createTaskCompletionScorer',
  'createToolSelectionScorer',
  'taskCompletionScorerId',
  'toolSelectionScorerId',
  'createStepBudgetScorer',
  'createToolArgumentValidityScorer',
  'createToolErrorRecoveryScorer',
  'createTrajectoryMatchScorer',
  'createUnofferedToolCallsScorer',
  'failureAdmissionPatterns',
  'repeatedToolCallsScorerId',
  'stepBudgetScorerId',
  'toolArgumentValidityScorerId',
  'toolErrorRecoveryScorerId',
  'trajectoryMatchScorerId',
  'unofferedToolCallsScorerId',
  // Built-in thread scorers, and reading a thread scorer's run
  'conversationResolutionScorerId',
  'createConversationResolutionScorer',
  'createKnowledgeRetentionScorer',
  'createRunScoreMeanScorer',
  'createRunScoreMinScorer',
  'createThreadToolErrorRateScorer',
  'createTurnCountScorer',
  'createUserFrustrationScorer',
  'knowledgeRetentionScorerId',
  'runScoreMeanScorerId',
  'runScoreMinScorerId',
  'threadRunOf',
  'threadToolErrorRateScorerId',
  'turnCountScorerId',
  'userFrustrationScorerId',
  // Wire contracts
  'AGENT_RUN_EVENT_SCHEMA_VERSION',
  'AGENT_RUN_EVENT_TYPE',
  'DEAD_LETTER_CODES',
  'DEAD_LETTER_SCHEMA_VERSION',
  'DECISION_RECORD_SCHEMA_VERSION',
  'AGREEMENT_RECORD_SCHEMA_VERSION',
  'DEFAULT_AGREEMENTS_TOPIC',
  'DEFAULT_FEEDBACK_TOPIC',
  'FEEDBACK_RECORD_SCHEMA_VERSION',
  'FEEDBACK_SOURCES',
  'agreementRecordSchema',
  'feedbackRecordSchema',
  'feedbackIdFor',
  'decodeFeedbackRecord',
  'parseAgreementRecord',
  'parseFeedbackRecord',
  'PIPELINE_STAGES',
  'SCORER_STEPS',
  'SCORE_RECORD_SCHEMA_VERSION',
  'SCORE_STATUSES',
  'VERDICTS',
  'ALERT_KINDS',
  'ALERT_RECORD_SCHEMA_VERSION',
  'alertRecordSchema',
  'SKIP_REASONS',
  'agentRunEventSchema',
  'contractJsonSchemas',
  'deadLetterSchema',
  'decisionRecordSchema',
  'decodeAgentRunEvent',
  'formatProblems',
  'decodeBytes',
  'parseAgentRunEvent',
  'parseDeadLetter',
  'parseDecisionRecord',
  'parseScoreRecord',
  'parseAlertRecord',
  'scoreIdFor',
  'scoreRecordSchema',
  // Re-scoring on feedback (docs/feedback.md)
  'rescoreIdFor',
  'RESCORE_REASONS',
  'RESCORE_REQUEST_SCHEMA_VERSION',
  'rescoreRequestSchema',
  // Threads on the wire
  'THREAD_CLOSE_REASONS',
  'THREAD_ENDED_SCHEMA_VERSION',
  'THREAD_ENDED_TYPE',
  'THREAD_SCOPES',
  'THREAD_TURN_SCHEMA_VERSION',
  'THREAD_TURN_TYPE',
  'threadEndedEventSchema',
  'threadKeyFor',
  'threadScoreIdFor',
  'threadScoreViewKeyFor',
  'threadTurnSchema',
  'threadVersionIdFor',
  // Errors
  'ConfigError',
  'JudgeTimeoutError',
  'ScorerError',
  'ScorerRunError',
  'ScorestreamError',
];

describe("the public API ('scorestream')", () => {
  it('exports exactly the listed names', () => {
    expect(Object.keys(publicApi).sort()).toEqual([...publicRuntimeNames].sort());
  });

  it('lists each name once and exports nothing undefined', () => {
    expect(new Set(publicRuntimeNames).size).toBe(publicRuntimeNames.length);
    for (const name of publicRuntimeNames) expect(publicApi[name as keyof typeof publicApi], name).toBeDefined();
  });
});

describe("the testing entry ('scorestream/testing')", () => {
  it('exports exactly the test helpers', () => {
    expect(Object.keys(testingApi).sort()).toEqual(
      ['createAgentTestRun', 'createTestMessage', 'createToolInvocation', 'judgeReply', 'mockJudge', 'providerError'].sort(),
    );
  });
});
