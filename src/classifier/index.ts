// Barrel of src/classifier: the Classifier (typed questions answered by a decision model or any
// chat model) and the classifier scorer built on it.
export { Classifier } from './classifier.ts';
export type { ClassifierOptions } from './classifier.ts';
export { createClassifierScorer } from './classifier-scorer.ts';
export type {
  ClassifierScorer,
  ClassifierScorerOptions,
  ClassifierScorerResults,
  ClassifierScorerRunOptions,
} from './classifier-scorer.ts';
export type { ClassifierRegistry } from './classifier-registry.ts';
export type { AnsweredEvidence, ClassifierEvidence } from './classifier-projection.ts';
export { createLanguageModelDecider } from './language-model-decider.ts';
export type { LanguageModelDeciderOptions } from './language-model-decider.ts';
export type { RetryPolicy, Sleep } from './retry.ts';
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
} from './types.ts';
