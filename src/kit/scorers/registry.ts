// The catalogue of built-in scorers: which exist, whether they need a judge model, whether they
// score runs or whole conversations (threads), and how to build each. A config can use it
// (createDefaultBuiltInScorers) to bind the code scorers always and the LLM scorers when a judge
// model is configured.
import type { AgentScorer } from '../scorer/types.ts';
import type { JudgeModel, JudgeModelSettings } from '../judge/types.ts';
import type { BindingLevel } from '../scorer/binding-level.ts';
import { createCompletenessScorer, completenessScorerId } from './code/completeness/index.ts';
import { createContentSimilarityScorer, contentSimilarityScorerId } from './code/content-similarity/index.ts';
import { createKeywordCoverageScorer, keywordCoverageScorerId } from './code/keyword-coverage/index.ts';
import { createTextualDifferenceScorer, textualDifferenceScorerId } from './code/textual-difference/index.ts';
import { createToolCallAccuracyScorer, toolCallAccuracyScorerId } from './code/tool-call-accuracy/index.ts';
import { createToolErrorRateScorer, toolErrorRateScorerId } from './code/tool-error-rate/index.ts';
import { createToolArgumentValidityScorer, toolArgumentValidityScorerId } from './code/tool-argument-validity/index.ts';
import { createUnofferedToolCallsScorer, unofferedToolCallsScorerId } from './code/unoffered-tool-calls/index.ts';
import { createRepeatedToolCallsScorer, repeatedToolCallsScorerId } from './code/repeated-tool-calls/index.ts';
import { createToolErrorRecoveryScorer, toolErrorRecoveryScorerId } from './code/tool-error-recovery/index.ts';
import { createStepBudgetScorer, stepBudgetScorerId } from './code/step-budget/index.ts';
import { createTrajectoryMatchScorer, trajectoryMatchScorerId } from './code/trajectory-match/index.ts';
import { createRunScoreMeanScorer, createRunScoreMinScorer, runScoreMeanScorerId, runScoreMinScorerId } from './code/run-score-stats/index.ts';
import { createThreadToolErrorRateScorer, threadToolErrorRateScorerId } from './code/thread-tool-error-rate/index.ts';
import { createTurnCountScorer, turnCountScorerId } from './code/turn-count/index.ts';
import { answerRelevancyScorerId, createAnswerRelevancyScorer } from './llm/answer-relevancy/index.ts';
import { biasScorerId, createBiasScorer } from './llm/bias/index.ts';
import { createTaskCompletionScorer, taskCompletionScorerId } from './llm/task-completion/index.ts';
import { createToolSelectionScorer, toolSelectionScorerId } from './llm/tool-selection/index.ts';
import { createFaithfulnessScorer, faithfulnessScorerId } from './llm/faithfulness/index.ts';
import { createHallucinationScorer, hallucinationScorerId } from './llm/hallucination/index.ts';
import { createToxicityScorer, toxicityScorerId } from './llm/toxicity/index.ts';
import { conversationResolutionScorerId, createConversationResolutionScorer } from './llm/conversation-resolution/index.ts';
import { createKnowledgeRetentionScorer, knowledgeRetentionScorerId } from './llm/knowledge-retention/index.ts';
import { createUserFrustrationScorer, userFrustrationScorerId } from './llm/user-frustration/index.ts';

/** A built-in scorer, whatever its step results. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type BuiltInScorer = AgentScorer<any>;

export type BuiltInJudge = { model: JudgeModel; modelSettings?: JudgeModelSettings };

type EntryBase = {
  id: string;
  /** `run`: bound as usual; `thread`: scores whole conversations, bind it with level: 'thread' (docs/threads.md). */
  level: BindingLevel;
  /** Whether higher scores are better ('higher') or worse ('lower', e.g. toxicity). */
  better: 'higher' | 'lower';
};

export type BuiltInCodeScorerEntry = EntryBase & {
  kind: 'code';
  /**
   * The factory, called with no arguments for a scorer with default options. Undefined for a
   * scorer that cannot work without options (tool-call-accuracy needs the expected tools,
   * step-budget its limits).
   */
  createDefault: (() => BuiltInScorer) | undefined;
  factory: (...args: never[]) => BuiltInScorer;
};

export type BuiltInLlmScorerEntry = EntryBase & {
  kind: 'llm';
  /** Builds the scorer with its default options around the given judge. */
  createDefault: (judge: BuiltInJudge) => BuiltInScorer;
  factory: (...args: never[]) => BuiltInScorer;
};

export type BuiltInScorerEntry = BuiltInCodeScorerEntry | BuiltInLlmScorerEntry;

/** Every built-in scorer; each entry keeps its factory's exact type (`builtInScorers[i].factory`). */
export const builtInScorers = [
  {
    id: toolCallAccuracyScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: undefined,
    factory: createToolCallAccuracyScorer,
  },
  {
    id: toolErrorRateScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: () => createToolErrorRateScorer(),
    factory: createToolErrorRateScorer,
  },
  {
    id: toolArgumentValidityScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: () => createToolArgumentValidityScorer(),
    factory: createToolArgumentValidityScorer,
  },
  {
    id: unofferedToolCallsScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: () => createUnofferedToolCallsScorer(),
    factory: createUnofferedToolCallsScorer,
  },
  {
    id: repeatedToolCallsScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: () => createRepeatedToolCallsScorer(),
    factory: createRepeatedToolCallsScorer,
  },
  {
    id: toolErrorRecoveryScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: () => createToolErrorRecoveryScorer(),
    factory: createToolErrorRecoveryScorer,
  },
  {
    id: stepBudgetScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: undefined,
    factory: createStepBudgetScorer,
  },
  {
    id: trajectoryMatchScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: () => createTrajectoryMatchScorer(),
    factory: createTrajectoryMatchScorer,
  },
  {
    id: completenessScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: () => createCompletenessScorer(),
    factory: createCompletenessScorer,
  },
  {
    id: keywordCoverageScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: () => createKeywordCoverageScorer(),
    factory: createKeywordCoverageScorer,
  },
  {
    id: textualDifferenceScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: () => createTextualDifferenceScorer(),
    factory: createTextualDifferenceScorer,
  },
  {
    id: contentSimilarityScorerId,
    kind: 'code',
    level: 'run',
    better: 'higher',
    createDefault: () => createContentSimilarityScorer(),
    factory: createContentSimilarityScorer,
  },
  {
    id: answerRelevancyScorerId,
    kind: 'llm',
    level: 'run',
    better: 'higher',
    createDefault: (judge) => createAnswerRelevancyScorer(judge),
    factory: createAnswerRelevancyScorer,
  },
  {
    id: faithfulnessScorerId,
    kind: 'llm',
    level: 'run',
    better: 'higher',
    createDefault: (judge) => createFaithfulnessScorer(judge),
    factory: createFaithfulnessScorer,
  },
  {
    id: hallucinationScorerId,
    kind: 'llm',
    level: 'run',
    better: 'lower',
    createDefault: (judge) => createHallucinationScorer(judge),
    factory: createHallucinationScorer,
  },
  {
    id: toxicityScorerId,
    kind: 'llm',
    level: 'run',
    better: 'lower',
    createDefault: (judge) => createToxicityScorer(judge),
    factory: createToxicityScorer,
  },
  {
    id: biasScorerId,
    kind: 'llm',
    level: 'run',
    better: 'lower',
    createDefault: (judge) => createBiasScorer(judge),
    factory: createBiasScorer,
  },
  {
    id: taskCompletionScorerId,
    kind: 'llm',
    level: 'run',
    better: 'higher',
    createDefault: (judge) => createTaskCompletionScorer(judge),
    factory: createTaskCompletionScorer,
  },
  {
    id: toolSelectionScorerId,
    kind: 'llm',
    level: 'run',
    better: 'higher',
    createDefault: (judge) => createToolSelectionScorer(judge),
    factory: createToolSelectionScorer,
  },
  {
    id: turnCountScorerId,
    kind: 'code',
    level: 'thread',
    better: 'lower',
    createDefault: () => createTurnCountScorer(),
    factory: createTurnCountScorer,
  },
  {
    id: threadToolErrorRateScorerId,
    kind: 'code',
    level: 'thread',
    better: 'higher',
    createDefault: () => createThreadToolErrorRateScorer(),
    factory: createThreadToolErrorRateScorer,
  },
  {
    id: runScoreMeanScorerId,
    kind: 'code',
    level: 'thread',
    better: 'higher',
    createDefault: undefined,
    factory: createRunScoreMeanScorer,
  },
  {
    id: runScoreMinScorerId,
    kind: 'code',
    level: 'thread',
    better: 'higher',
    createDefault: undefined,
    factory: createRunScoreMinScorer,
  },
  {
    id: conversationResolutionScorerId,
    kind: 'llm',
    level: 'thread',
    better: 'higher',
    createDefault: (judge) => createConversationResolutionScorer(judge),
    factory: createConversationResolutionScorer,
  },
  {
    id: userFrustrationScorerId,
    kind: 'llm',
    level: 'thread',
    better: 'lower',
    createDefault: (judge) => createUserFrustrationScorer(judge),
    factory: createUserFrustrationScorer,
  },
  {
    id: knowledgeRetentionScorerId,
    kind: 'llm',
    level: 'thread',
    better: 'higher',
    createDefault: (judge) => createKnowledgeRetentionScorer(judge),
    factory: createKnowledgeRetentionScorer,
  },
] as const satisfies readonly BuiltInScorerEntry[];

export type BuiltInScorerId = (typeof builtInScorers)[number]['id'];

/**
 * The built-in scorers of one level (default `run`) that work with default options: every code
 * scorer that needs no options, plus every LLM scorer when a judge is given. In catalogue order.
 * Bind the `thread` ones with level: 'thread'.
 */
export function createDefaultBuiltInScorers(options: { judge?: BuiltInJudge; level?: BindingLevel } = {}): BuiltInScorer[] {
  const scorers: BuiltInScorer[] = [];
  const level = options.level ?? 'run';
  for (const entry of builtInScorers) {
    if (entry.level !== level) continue;
    if (entry.kind === 'code') {
      if (entry.createDefault) scorers.push(entry.createDefault());
    } else if (options.judge) {
      scorers.push(entry.createDefault(options.judge));
    }
  }
  return scorers;
}
