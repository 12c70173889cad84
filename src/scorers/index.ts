// Barrel of src/scorers, for the rest of the repository: the built-in scorers (code scorers and
// LLM-judge scorers), their catalogue. The text algorithms under ./text stay internal (generic names, no stable contract).
export {
  builtInScorers,
  createDefaultBuiltInScorers,
} from './registry.ts';
export type {
  BuiltInCodeScorerEntry,
  BuiltInJudge,
  BuiltInLlmScorerEntry,
  BuiltInScorer,
  BuiltInScorerEntry,
  BuiltInScorerId,
} from './registry.ts';

export { createToolCallAccuracyScorer, toolCallAccuracyScorerId } from './code/tool-call-accuracy/index.ts';
export type { ToolCallAccuracyOptions } from './code/tool-call-accuracy/index.ts';
export { createToolErrorRateScorer, toolErrorRateScorerId } from './code/tool-error-rate/index.ts';
export type { FailedToolCall } from './code/tool-error-rate/index.ts';
export { createCompletenessScorer, completenessScorerId } from './code/completeness/index.ts';
export { createKeywordCoverageScorer, keywordCoverageScorerId } from './code/keyword-coverage/index.ts';
export type { KeywordCoverageOptions } from './code/keyword-coverage/index.ts';
export { createTextualDifferenceScorer, textualDifferenceScorerId } from './code/textual-difference/index.ts';
export type { TextualDifferenceOptions } from './code/textual-difference/index.ts';
export { createContentSimilarityScorer, contentSimilarityScorerId } from './code/content-similarity/index.ts';
export type { ContentSimilarityOptions } from './code/content-similarity/index.ts';

export { createAnswerRelevancyScorer, answerRelevancyScorerId } from './llm/answer-relevancy/index.ts';
export type { AnswerRelevancyOptions } from './llm/answer-relevancy/index.ts';
export { createFaithfulnessScorer, faithfulnessScorerId } from './llm/faithfulness/index.ts';
export type { FaithfulnessOptions } from './llm/faithfulness/index.ts';
export { createHallucinationScorer, hallucinationScorerId } from './llm/hallucination/index.ts';
export type { HallucinationOptions } from './llm/hallucination/index.ts';
export { createToxicityScorer, toxicityScorerId } from './llm/toxicity/index.ts';
export type { ToxicityOptions } from './llm/toxicity/index.ts';
export { createBiasScorer, biasScorerId } from './llm/bias/index.ts';
export type { BiasOptions } from './llm/bias/index.ts';
export type { LlmScorerConfig } from './shared/llm-scorer-config.ts';
export { invalidScorerOptionsCode } from './shared/invalid-options.ts';
