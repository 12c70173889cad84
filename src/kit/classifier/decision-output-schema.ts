// The structured-output schema a chat model fills in when it stands in for a decision model:
// one entry per question id, shaped by the question's type. Range checks live in the schema so
// the AI SDK rejects an out-of-range answer before it reaches the classifier.

import { z } from 'zod';
import type { Question, Questions } from './types.ts';

const probability = z.number().min(0).max(1);

export function questionOutputSchema(question: Question): z.ZodType {
  if (question.type === 'choice') {
    const options = Object.keys(question.criteria) as [string, ...string[]];
    return z.object({
      choice: z.enum(options).describe('The name of the selected option.'),
      probabilities: z
        .object(Object.fromEntries(options.map((option) => [option, probability])))
        .optional()
        .describe('Optional: your probability for every option, summing to 1, highest for the selected option.'),
    });
  }
  if (question.type === 'score') {
    const lastLevel = question.criteria.length - 1;
    return z.object({
      score: z.number().min(0).max(lastLevel).describe(`The level from 0 to ${lastLevel}; fractions allowed.`),
    });
  }
  return z.object({ probability: probability.describe('Your probability, from 0 to 1, that the answer is true.') });
}

/** The object the model returns: `{ [questionId]: answer }`, every question required. */
export function decisionOutputSchema(questions: Questions): z.ZodType<Record<string, Record<string, unknown>>> {
  return z.object(
    Object.fromEntries(Object.entries(questions).map(([questionId, question]) => [questionId, questionOutputSchema(question)])),
  ) as unknown as z.ZodType<Record<string, Record<string, unknown>>>;
}
