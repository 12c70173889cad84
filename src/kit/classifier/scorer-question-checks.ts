// Checks that a classifier scorer's question and scores mapping fit its classifier
// (docs/scorers.md, classifier scorers). They run when the scorer is created with a classifier
// instance, and again on every run (a classifier looked up by id is only known then). The texts are
// Mastra's, word for word.

import type { Classifier } from './classifier.ts';
import type { Question } from './types.ts';

export function assertScorerQuestion(
  classifier: Pick<Classifier, 'id' | 'questions'>,
  scorerId: string,
  questionId: string,
  scores: Record<string, number> | undefined,
): Question {
  if (classifier.questions === undefined) {
    throw new TypeError(
      `Classifier '${classifier.id}' used by scorer '${scorerId}' must be constructed with configured questions.`,
    );
  }
  const question = Object.hasOwn(classifier.questions, questionId) ? classifier.questions[questionId] : undefined;
  if (question === undefined) {
    throw new TypeError(`Question '${questionId}' is not configured on classifier '${classifier.id}' for scorer '${scorerId}'.`);
  }
  if (question.type !== 'choice') {
    if (scores !== undefined) {
      throw new TypeError(`Scorer '${scorerId}' cannot provide scores for ${question.type} question '${questionId}'.`);
    }
    return question;
  }
  if (scores === null || typeof scores !== 'object' || Array.isArray(scores)) {
    throw new TypeError(
      `Scorer '${scorerId}' must provide an exhaustive numeric scores mapping for choice question '${questionId}'.`,
    );
  }
  const problems = scoresMappingProblems(Object.keys(question.criteria), scores);
  if (problems !== '') {
    throw new TypeError(`Invalid scores mapping for choice question '${questionId}' on scorer '${scorerId}'.${problems}`);
  }
  return question;
}

/** Every problem of a choice mapping, in Mastra's order (Missing, Unknown, Non-numeric, Outside 0-1); '' when there is none. */
export function scoresMappingProblems(options: string[], scores: Record<string, unknown>): string {
  const missing = options.filter((option) => !Object.hasOwn(scores, option));
  const unknown = Object.keys(scores).filter((key) => !options.includes(key));
  // A missing option has no number either, so it is listed under both.
  const nonNumeric = options.filter((option) => !isFiniteNumber(scores[option]));
  const outside = options.filter((option) => {
    const score = scores[option];
    return isFiniteNumber(score) && (score < 0 || score > 1);
  });
  return (
    (missing.length > 0 ? ` Missing: ${missing.join(', ')}.` : '') +
    (unknown.length > 0 ? ` Unknown: ${unknown.join(', ')}.` : '') +
    (nonNumeric.length > 0 ? ` Non-numeric: ${nonNumeric.join(', ')}.` : '') +
    (outside.length > 0 ? ` Outside 0-1: ${outside.join(', ')}.` : '')
  );
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
