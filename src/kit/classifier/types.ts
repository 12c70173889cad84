// The shapes a Classifier works with: questions it asks, answers it accepts, and the result it
// hands back. They restate the ai@7 decision-model contract (@ai-sdk/provider 4.0.38) in the terms
// of docs/scorers.md (classifiers), so callers never need the provider's Experimental_* names.

import type {
  Experimental_DecisionModelV4,
  Experimental_DecisionModelV4Input,
  Experimental_EvaluationModelV4,
  JSONValue,
  SharedV4Headers,
  SharedV4ProviderMetadata,
  SharedV4ProviderOptions,
  SharedV4Warning,
} from '@ai-sdk/provider';
import type { LanguageModel } from 'ai';

/** What the model judges. Must be JSON-compatible: finite numbers, no Date/Map/cycles/undefined. */
export type ClassifierState = JSONValue;

/** Text or JSON describing a question or one of its options. */
export type QuestionText = Experimental_DecisionModelV4Input;

/** Pick one option; `criteria` maps each option name to its description (null = none). */
export type ChoiceQuestion = {
  readonly type: 'choice';
  readonly instructions?: QuestionText | null;
  readonly criteria: Readonly<Record<string, QuestionText | null>>;
};

/** Place the state on an ordered scale of at least two levels, indexed from 0. */
export type ScoreQuestion = {
  readonly type: 'score';
  readonly instructions?: QuestionText | null;
  readonly criteria: readonly (QuestionText | null)[];
};

/** Estimate P(true). */
export type BooleanQuestion = {
  readonly type: 'boolean';
  readonly instructions?: QuestionText | null;
  readonly criteria?: {
    readonly true?: QuestionText | null;
    readonly false?: QuestionText | null;
  } | null;
};

export type Question = ChoiceQuestion | ScoreQuestion | BooleanQuestion;
export type QuestionType = Question['type'];
export type Questions = Readonly<Record<string, Question>>;

export type ChoiceAnswer = { type: 'choice'; choice: string; probabilities?: Record<string, number> };
/** `score` is a fractional level in [0, N − 1]; `probabilities` is keyed '0'..'N−1'. */
export type ScoreAnswer = { type: 'score'; score: number; probabilities?: Record<string, number> };
/** `probability` is P(true), not confidence in either outcome. */
export type BooleanAnswer = { type: 'boolean'; probability: number };
/** The model declined to answer this question. Valid for any question type. */
export type RefusalAnswer = { type: 'refusal' };
export type Answer = ChoiceAnswer | ScoreAnswer | BooleanAnswer | RefusalAnswer;

/** Decimal places the provider rounds to; widens the tolerance of the answer checks. */
export type ClassifierRounding = { probabilityDecimals?: number; scoreDecimals?: number };

/** `totalTokens` is input + output, a missing side counted as 0. */
export type ClassifierUsage = { inputTokens?: number; outputTokens?: number; totalTokens: number };

export type ClassifierResult = {
  answers: Record<string, Answer>;
  usage: ClassifierUsage;
  warnings: SharedV4Warning[];
  rounding?: ClassifierRounding;
  providerMetadata?: SharedV4ProviderMetadata;
  /** `timestamp` defaults to now and `modelId` to the model's id when the provider omits them. */
  response: { id?: string; timestamp: Date; modelId: string; headers?: SharedV4Headers; body?: unknown };
};

/** An ai@7 decision model; the deprecated `doEvaluate` form is accepted too. */
export type DecisionModel = Experimental_DecisionModelV4 | Experimental_EvaluationModelV4;

/** A chat model instance (V2–V4), turned into a decision model by the language-model decider. */
export type ChatModel = Exclude<LanguageModel, string>;

/** What `new Classifier({ model })` accepts: a decision model, a chat model, or a model id. */
export type ClassifierModel = DecisionModel | ChatModel | string;

/** Turns a model id into a model instance; needed only when `model` is a string. */
export type ClassifierModelResolver = (modelId: string) => DecisionModel | ChatModel;

export type DecideOptions = {
  state: ClassifierState;
  /** Only for a classifier constructed without questions. */
  questions?: Questions;
  /** Retries of retryable provider API errors. Default 2. */
  maxRetries?: number;
  providerOptions?: SharedV4ProviderOptions;
  abortSignal?: AbortSignal;
  /**
   * Runs each call to the decision model (every attempt, retries included), e.g. inside a
   * per-model concurrency cap. Default: the call is made directly.
   */
  callModel?: <T>(call: () => PromiseLike<T>) => Promise<T>;
};
