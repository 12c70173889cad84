// createClassifierScorer (docs/scorers.md, the classifier): an ordinary scorer with three
// function steps. analyze asks the classifier every configured question and keeps the selected
// answer as evidence; generateScore projects that answer to [0, 1]; generateReason states it in
// words.
//
// A classifier named by id is looked up at run time. Scorestream has no Mastra instance to
// hold classifiers, so the registry comes from the run's services (run(input, { classifiers }))
// or, failing that, from the scorer's own `classifiers` option. The steps read the run's
// services, abort signal and decision-call cap from their step context.

import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import { createScorer } from '../scorer/create-scorer.ts';
import type { AnyValue, Scorer, ScorerConfig, ScorerRunOptions, ScorerType, StepContext } from '../scorer/types.ts';
import type { ScorerRunInputForAgent, ScorerRunOutputForAgent } from '../scorer/agent-types.ts';
import type { Classifier } from './classifier.ts';
import { classifierReason, projectScore, selectEvidence } from './classifier-projection.ts';
import type { AnsweredEvidence } from './classifier-projection.ts';
import { resolveRegisteredClassifier } from './classifier-registry.ts';
import type { ClassifierRegistry } from './classifier-registry.ts';
import { assertScorerQuestion } from './scorer-question-checks.ts';
import type { ScorerServices } from '../scorer-services.ts';
import type { ClassifierState, Question } from './types.ts';

export type ClassifierScorerOptions<TInput = AnyValue, TOutput = AnyValue> = {
  id: string;
  name?: string;
  /** Default: `Scores question '<question>' with a configured classifier`. */
  description?: string;
  /** A classifier instance, or the id of one found in a classifier registry at run time. */
  classifier: Classifier | string;
  /** The question (a key of the classifier's questions) this scorer turns into a score. */
  question: string;
  /** Required and exhaustive for a choice question (values in [0, 1]); forbidden otherwise. */
  scores?: Record<string, number>;
  type?: ScorerType;
  /** Builds the JSON state the classifier judges from the step context (run, requestContext, ...). */
  state: (context: StepContext<TInput, TOutput>) => ClassifierState | Promise<ClassifierState>;
  /** Retries of the classifier call on transient provider errors; default 2. */
  maxRetries?: number;
  providerOptions?: SharedV4ProviderOptions;
  prepareRun?: ScorerConfig<TInput, TOutput>['prepareRun'];
  /** Where a classifier named by id is looked up when the run brings no registry of its own. */
  classifiers?: ClassifierRegistry;
};

export type ClassifierScorerResults = {
  analyzeStepResult: AnsweredEvidence;
  generateScoreStepResult: number;
  generateReasonStepResult: string;
};

/** A classifier scorer's run options are any scorer's: `classifiers` is one of the run's services. */
export type ClassifierScorerRunOptions = ScorerRunOptions;

export type ClassifierScorer<TInput = AnyValue, TOutput = AnyValue> = Scorer<TInput, TOutput, ClassifierScorerResults> & {
  /** For a choice question: its choices (the keys of `scores`), which a binding's `pass.labels` may name. */
  readonly choices: readonly string[] | undefined;
};

export function createClassifierScorer(
  options: ClassifierScorerOptions<ScorerRunInputForAgent, ScorerRunOutputForAgent> & { type: 'agent' },
): ClassifierScorer<ScorerRunInputForAgent, ScorerRunOutputForAgent>;
export function createClassifierScorer<TInput = AnyValue, TOutput = AnyValue>(
  options: ClassifierScorerOptions<TInput, TOutput>,
): ClassifierScorer<TInput, TOutput>;
export function createClassifierScorer(options: ClassifierScorerOptions): ClassifierScorer {
  const base = createScorer({
    id: options.id,
    name: options.name,
    description: options.description ?? `Scores question '${options.question}' with a configured classifier`,
    type: options.type,
    prepareRun: options.prepareRun,
  });
  const scorerId = options.id;
  const { question: questionId, scores } = options;
  assertOptions(options);
  const inline = typeof options.classifier === 'string' ? undefined : options.classifier;
  if (inline !== undefined) assertScorerQuestion(inline, scorerId, questionId, scores);

  /** The classifier and the checked question for this run (a registry may hold anything). */
  const resolve = (services: ScorerServices | undefined): { classifier: Classifier; question: Question } => {
    const classifier =
      inline ?? resolveRegisteredClassifier(options.classifier as string, scorerId, services?.classifiers ?? options.classifiers);
    return { classifier, question: assertScorerQuestion(classifier, scorerId, questionId, scores) };
  };

  const scorer = base
    .analyze(async (context: StepContext): Promise<AnsweredEvidence> => {
      const { classifier } = resolve(context.services);
      const state = await options.state(context);
      const limit = context.services?.limitDecisionCall;
      const result = await classifier.decide({
        state,
        maxRetries: options.maxRetries,
        providerOptions: options.providerOptions,
        abortSignal: context.abortSignal,
        callModel: limit === undefined ? undefined : (call) => limit(classifier.model, call),
      });
      return selectEvidence(result, {
        classifierId: classifier.id,
        questionId,
        scorerId,
        provider: classifier.model?.provider ?? 'unknown',
      });
    })
    .generateScore(({ results, services }) => projectScore(resolve(services).question, results.analyzeStepResult.answer, scores))
    .generateReason(({ results, score }) => classifierReason(questionId, results.analyzeStepResult.answer, score));
  // `scores` is required and exhaustive for a choice question (checked above, or on each run for a
  // classifier named by id) and forbidden otherwise, so its keys are the question's choices.
  const choices = scores === undefined ? undefined : Object.freeze(Object.keys(scores));
  return Object.assign(scorer, { choices });
}

/** Mistakes that could only fail every run are reported when the scorer is created. */
function assertOptions(options: ClassifierScorerOptions): void {
  const scorerId = options.id;
  const classifier: unknown = options.classifier;
  const isClassifierLike =
    typeof classifier === 'object' && classifier !== null && typeof (classifier as Classifier).decide === 'function';
  if (!(typeof classifier === 'string' && classifier.length > 0) && !isClassifierLike) {
    throw new TypeError(`Scorer '${scorerId}' needs a Classifier instance or a non-empty classifier id as its classifier.`);
  }
  if (typeof options.question !== 'string' || options.question.length === 0) {
    throw new TypeError(`Scorer '${scorerId}' needs the question to score, as the key of one of the classifier's questions.`);
  }
  if (typeof options.state !== 'function') {
    throw new TypeError(`Scorer '${scorerId}' needs a state function that builds what the classifier judges from the run.`);
  }
  const maxRetries = options.maxRetries;
  if (maxRetries !== undefined && (!Number.isInteger(maxRetries) || maxRetries < 0)) {
    throw new TypeError('maxRetries must be a non-negative integer.');
  }
}
