// A Classifier asks a decision model a fixed set of typed questions (choice, score, boolean)
// about one state and returns checked answers (docs/scorers.md, classifiers). Everything is validated
// before any I/O; transient provider failures are retried; every call gets its own span.

import type { Experimental_DecisionModelV4, Experimental_DecisionModelV4Question, Experimental_DecisionModelV4State } from '@ai-sdk/provider';
import type { Tracer } from '@opentelemetry/api';
import { buildClassifierResult } from './build-result.ts';
import { defaultClassifierTracer, withClassifierSpan } from './classifier-span.ts';
import { isJsonCompatible } from './json.ts';
import { resolveDecisionModel } from './resolve-decision-model.ts';
import { callWithRetries, throwIfAborted } from './retry.ts';
import type { RetryPolicy } from './retry.ts';
import { validateAnswers } from './validate-answers.ts';
import { validateQuestions } from './validate-questions.ts';
import type {
  ClassifierModel,
  ClassifierModelResolver,
  ClassifierResult,
  ClassifierState,
  DecideOptions,
  Questions,
} from './types.ts';

export const defaultMaxRetries = 2;

export type ClassifierOptions = {
  id: string;
  /** A decision model (doDecide / doEvaluate), a chat model (doGenerate), or a model id for `resolveModel`. */
  model: ClassifierModel;
  /** The questions asked on every decide(). Omit only to pass questions per call. */
  questions?: Questions;
  resolveModel?: ClassifierModelResolver;
  /** Backoff of retries; tests inject `sleep` so no real time passes. */
  retry?: RetryPolicy;
  tracer?: Tracer;
  /** Epoch ms; the default response timestamp and the span's duration come from it. */
  now?: () => number;
};

const callDirectly = <T>(call: () => PromiseLike<T>): Promise<T> => Promise.resolve(call());

export class Classifier {
  readonly id: string;
  readonly questions: Questions | undefined;
  /** The decision model every decide() calls (a chat model appears wrapped). */
  readonly model: Experimental_DecisionModelV4;
  /** Built once: the language-model decider caches its prompt and schema by this object. */
  readonly #modelQuestions: Record<string, Experimental_DecisionModelV4Question> | undefined;
  readonly #retry: RetryPolicy;
  readonly #tracer: Tracer | undefined;
  readonly #now: () => number;

  constructor(options: ClassifierOptions) {
    if (typeof options?.id !== 'string' || options.id.trim().length === 0) {
      throw new TypeError('Classifier id must be a non-empty string.');
    }
    this.id = options.id;
    this.model = resolveDecisionModel(options.id, options.model, options.resolveModel);
    if (!Array.isArray(this.model.supportedQuestionTypes)) {
      throw new TypeError(`Classifier '${options.id}': its model does not list supportedQuestionTypes.`);
    }
    if (options.questions !== undefined) validateQuestions(options.questions, this.model);
    this.questions = options.questions;
    this.#modelQuestions = options.questions === undefined ? undefined : toModelQuestions(options.questions);
    this.#retry = options.retry ?? {};
    this.#tracer = options.tracer;
    this.#now = options.now ?? Date.now;
  }

  async decide(options: DecideOptions): Promise<ClassifierResult> {
    const questions = this.#questionsFor(options);
    if (!isJsonCompatible(options.state)) throw new TypeError('state must contain only JSON-compatible values.');
    const maxRetries = options.maxRetries ?? defaultMaxRetries;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new TypeError('maxRetries must be a non-negative integer.');
    throwIfAborted(options.abortSignal);

    const modelQuestions = this.#modelQuestions ?? toModelQuestions(questions);
    const state = toModelState(options.state);
    const tracer = this.#tracer ?? defaultClassifierTracer();
    const spanStart = {
      classifierId: this.id,
      provider: this.model.provider,
      modelId: this.model.modelId,
      questionCount: Object.keys(questions).length,
      questionTypes: [...new Set(Object.values(questions).map((question) => question.type))].sort(),
      maxRetries,
    };
    return withClassifierSpan(tracer, spanStart, this.#now, async (record) => {
      const callModel = options.callModel ?? callDirectly;
      const raw = await callWithRetries(
        () =>
          callModel(() =>
            this.model.doDecide({
              state,
              questions: modelQuestions,
              abortSignal: options.abortSignal,
              providerOptions: options.providerOptions,
            }),
          ),
        {
          now: this.#now,
          ...this.#retry,
          maxRetries,
          abortSignal: options.abortSignal,
          onAttempt: () => {
            record.attempts += 1;
          },
        },
      );
      throwIfAborted(options.abortSignal);
      const result = buildClassifierResult(raw, { modelId: this.model.modelId, now: this.#now });
      record.usage = result.usage;
      record.responseModelId = result.response.modelId;
      validateAnswers(questions, result.answers, result.rounding);
      return result;
    });
  }

  #questionsFor(options: DecideOptions): Questions {
    if (this.questions !== undefined) {
      if (options.questions !== undefined) {
        throw new TypeError(
          `Classifier '${this.id}' was constructed with questions; decide() takes no questions of its own.`,
        );
      }
      return this.questions;
    }
    if (options.questions === undefined) {
      throw new TypeError(
        `Classifier '${this.id}' was constructed without questions; pass questions to decide() or to the constructor.`,
      );
    }
    validateQuestions(options.questions, this.model);
    return options.questions;
  }
}

/** A question without instructions is sent with its id as the instructions. */
function toModelQuestions(questions: Questions): Record<string, Experimental_DecisionModelV4Question> {
  return Object.fromEntries(
    Object.entries(questions).map(([questionId, question]) => [
      questionId,
      { ...question, instructions: question.instructions ?? questionId },
    ]),
  );
}

function toModelState(state: ClassifierState): Experimental_DecisionModelV4State {
  return typeof state === 'string' ? [{ type: 'text', text: state }] : [{ type: 'json', value: state }];
}
