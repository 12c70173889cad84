// Construction-time checks of a classifier's questions (docs/scorers.md, classifiers): a bad
// question is a programming error, so it fails when the classifier is built, before any model call.

import { Experimental_DecisionUnsupportedQuestionTypeError } from '@ai-sdk/provider';
import { isJsonCompatible, isPlainObject } from './json.ts';
import type { Questions, QuestionType } from './types.ts';

const knownQuestionTypes: readonly string[] = ['choice', 'score', 'boolean'] satisfies QuestionType[];

/** The parts of a decision model the checks need. */
export type QuestionTypeSupport = {
  readonly provider: string;
  readonly modelId: string;
  readonly supportedQuestionTypes: readonly string[];
};

export function validateQuestions(questions: unknown, model: QuestionTypeSupport): asserts questions is Questions {
  if (!isPlainObject(questions) || Object.keys(questions).length === 0) {
    throw new TypeError('Questions must be a non-empty object.');
  }
  for (const [questionId, question] of Object.entries(questions)) {
    if (questionId.length === 0) throw new TypeError('Question ids must be non-empty strings.');
    const type = isPlainObject(question) ? question.type : undefined;
    if (!isPlainObject(question) || typeof type !== 'string' || !knownQuestionTypes.includes(type)) {
      throw new TypeError(
        `Question '${questionId}' has unsupported type '${String(type)}'. Use 'choice', 'score' or 'boolean'.`,
      );
    }
    if (!model.supportedQuestionTypes.includes(type)) {
      throw new Experimental_DecisionUnsupportedQuestionTypeError({
        questionId,
        questionType: type,
        provider: model.provider,
        modelId: model.modelId,
      });
    }
    if (question.instructions != null) requireJson(question.instructions, `Question '${questionId}' instructions`);
    if (type === 'choice') validateChoiceCriteria(questionId, question.criteria);
    else if (type === 'score') validateScoreCriteria(questionId, question.criteria);
    else validateBooleanCriteria(questionId, question.criteria);
  }
}

function validateChoiceCriteria(questionId: string, criteria: unknown): void {
  if (!isPlainObject(criteria) || Object.keys(criteria).length === 0) {
    throw new TypeError(`Choice question '${questionId}' criteria must be a non-empty object of options.`);
  }
  for (const [option, description] of Object.entries(criteria)) {
    if (option.length === 0) throw new TypeError(`Choice question '${questionId}' option names must be non-empty.`);
    if (description !== null) requireJson(description, `Choice question '${questionId}' option '${option}'`);
  }
}

function validateScoreCriteria(questionId: string, criteria: unknown): void {
  if (!Array.isArray(criteria) || criteria.length < 2) {
    throw new TypeError(`Score question '${questionId}' criteria must contain at least two levels.`);
  }
  // Indexed rather than forEach(), which skips holes: `new Array(3)` has three levels and no rubric.
  for (let index = 0; index < criteria.length; index++) {
    const description: unknown = criteria[index];
    if (!(index in criteria) || description === undefined) {
      throw new TypeError(`Score question '${questionId}' level ${index} is missing; use null for a level without a description.`);
    }
    if (description !== null) requireJson(description, `Score question '${questionId}' level ${index}`);
  }
}

function validateBooleanCriteria(questionId: string, criteria: unknown): void {
  if (criteria == null) return;
  if (!isPlainObject(criteria)) throw new TypeError(`Boolean question '${questionId}' criteria must be an object.`);
  for (const [key, description] of Object.entries(criteria)) {
    if (key !== 'true' && key !== 'false') {
      throw new TypeError(`Boolean question '${questionId}' criteria may only describe 'true' and 'false', not '${key}'.`);
    }
    if (description != null) requireJson(description, `Boolean question '${questionId}' criterion '${key}'`);
  }
}

function requireJson(value: unknown, label: string): void {
  if (!isJsonCompatible(value)) throw new TypeError(`${label} must contain only JSON-compatible values.`);
}
