// The pure core of a classifier scorer (docs/scorers.md, classifier scorers): pick the selected
// question's answer, keep the evidence without raw provider data, project the answer to a
// score, and phrase the reason.

import { Experimental_DecisionRefusalError } from '@ai-sdk/provider';
import type { Answer, ClassifierResult, ClassifierUsage, Question, ScoreQuestion } from './types.ts';

/** What a classifier scorer stores as `analyzeStepResult`: never the response headers or body. */
export type ClassifierEvidence = {
  question: string;
  answer: Answer;
  usage: ClassifierUsage;
  warnings: ClassifierResult['warnings'];
  rounding: ClassifierResult['rounding'];
  providerMetadata: ClassifierResult['providerMetadata'];
  response: { id?: string; timestamp: Date; modelId: string };
};

export type AnsweredEvidence = ClassifierEvidence & { answer: Exclude<Answer, { type: 'refusal' }> };

type Names = { classifierId: string; questionId: string; scorerId: string; provider: string };

/** The selected answer as evidence; a missing answer or a refusal of this question fails the run. */
export function selectEvidence(result: ClassifierResult, names: Names): AnsweredEvidence {
  const { classifierId, questionId, scorerId } = names;
  const answer = Object.hasOwn(result.answers, questionId) ? result.answers[questionId] : undefined;
  if (answer === undefined) {
    throw new TypeError(`Classifier '${classifierId}' did not return question '${questionId}' for scorer '${scorerId}'.`);
  }
  if (answer.type === 'refusal') {
    throw new Experimental_DecisionRefusalError({
      questionIds: [questionId],
      provider: names.provider,
      modelId: result.response.modelId,
      message: `Classifier '${classifierId}' refused question '${questionId}' for scorer '${scorerId}'.`,
    });
  }
  return {
    question: questionId,
    answer,
    usage: result.usage,
    warnings: result.warnings,
    rounding: result.rounding,
    providerMetadata: result.providerMetadata,
    response: { id: result.response.id, timestamp: result.response.timestamp, modelId: result.response.modelId },
  };
}

/** score: level / (N − 1); choice: the configured score of the choice; boolean: P(true) as is. */
export function projectScore(question: Question, answer: Answer, scores: Record<string, number> | undefined): number {
  if (answer.type !== question.type) {
    throw new TypeError(`A '${answer.type}' answer cannot be scored for a ${question.type} question.`);
  }
  switch (answer.type) {
    case 'boolean':
      return answer.probability;
    case 'score':
      return answer.score / ((question as ScoreQuestion).criteria.length - 1);
    case 'choice': {
      const score = scores !== undefined && Object.hasOwn(scores, answer.choice) ? scores[answer.choice] : undefined;
      if (typeof score !== 'number') {
        throw new TypeError(`No numeric score is configured for the classifier choice '${answer.choice}'.`);
      }
      return score;
    }
    default:
      throw new TypeError('A refusal cannot be scored.');
  }
}

export function classifierReason(questionId: string, answer: Answer, score: number): string {
  if (answer.type === 'choice') return `Classifier question '${questionId}' selected '${answer.choice}' (score: ${String(score)}).`;
  if (answer.type === 'score') return `Classifier question '${questionId}' returned score ${String(answer.score)}.`;
  if (answer.type === 'boolean') return `Classifier question '${questionId}' returned P(true)=${String(answer.probability)}.`;
  return `Classifier question '${questionId}' was refused.`;
}
