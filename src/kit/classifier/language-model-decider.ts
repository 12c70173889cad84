// Makes any chat model usable as a classifier's decision model: it asks the model for all
// answers in one structured-output call (generateText + Output.object) and maps the object to
// decision answers. ai@7 ships no such adapter; `experimental_decide` needs a real decision model.

import {
  Experimental_DecisionUnsupportedQuestionTypeError,
  type Experimental_DecisionModelV4,
  type Experimental_DecisionModelV4CallOptions,
  type Experimental_DecisionModelV4Result,
  type SharedV4Warning,
} from '@ai-sdk/provider';
import { generateText, Output } from 'ai';
import { decisionOutputSchema } from './decision-output-schema.ts';
import { decisionInstructions, decisionUserPrompt } from './decision-prompt.ts';
import type { Answer, ChatModel, Question, Questions } from './types.ts';

const supportedQuestionTypes = ['choice', 'score', 'boolean'] as const;

export type LanguageModelDeciderOptions = {
  /** Sampling temperature for the judge; default 0 (repeatable answers). */
  temperature?: number;
};

export function createLanguageModelDecider(
  model: ChatModel,
  options: LanguageModelDeciderOptions = {},
): Experimental_DecisionModelV4 {
  const provider = model.provider;
  const modelId = model.modelId;
  return {
    specificationVersion: 'v4',
    provider,
    modelId,
    supportedQuestionTypes,
    async doDecide(call: Experimental_DecisionModelV4CallOptions): Promise<Experimental_DecisionModelV4Result> {
      const questions = supportedQuestions(call.questions, provider, modelId);
      const { instructions, output } = preparedQuestions(questions);
      const result = await generateText({
        model,
        instructions,
        prompt: decisionUserPrompt(call.state),
        output,
        temperature: options.temperature ?? 0,
        maxOutputTokens: call.maxOutputTokens,
        reasoning: call.reasoning,
        abortSignal: call.abortSignal,
        headers: call.headers,
        providerOptions: call.providerOptions,
        // The classifier owns retries; a second layer here would multiply the attempts.
        maxRetries: 0,
      });
      const warnings: SharedV4Warning[] = [...((result.warnings ?? []) as SharedV4Warning[])];
      const answers = Object.fromEntries(
        Object.entries(questions).map(([questionId, question]) => [
          questionId,
          toAnswer(questionId, question, result.output[questionId] ?? {}, warnings),
        ]),
      );
      return {
        answers,
        usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens },
        warnings,
        providerMetadata: result.providerMetadata,
        response: {
          id: result.response.id,
          timestamp: result.response.timestamp,
          modelId: result.response.modelId,
          headers: result.response.headers,
          body: result.response.body,
        },
      };
    },
  };
}

type PreparedQuestions = { instructions: string; output: ReturnType<typeof decisionOutput> };

// A classifier sends the same questions object on every call, so its prompt and schema are
// built once; per-call question objects are simply collected with their entry.
const prepared = new WeakMap<object, PreparedQuestions>();

function preparedQuestions(questions: Questions): PreparedQuestions {
  let entry = prepared.get(questions);
  if (entry === undefined) {
    entry = { instructions: decisionInstructions(questions), output: decisionOutput(questions) };
    prepared.set(questions, entry);
  }
  return entry;
}

function decisionOutput(questions: Questions) {
  return Output.object({ schema: decisionOutputSchema(questions), name: 'decision' });
}

function supportedQuestions(
  questions: Experimental_DecisionModelV4CallOptions['questions'],
  provider: string,
  modelId: string,
): Questions {
  for (const [questionId, question] of Object.entries(questions)) {
    if (!(supportedQuestionTypes as readonly string[]).includes(question.type)) {
      throw new Experimental_DecisionUnsupportedQuestionTypeError({ questionId, questionType: question.type, provider, modelId });
    }
  }
  return questions as Questions;
}

/** Maps one schema-validated entry to an answer; the schema already fixed types and ranges. */
export function toAnswer(
  questionId: string,
  question: Question,
  output: Record<string, unknown>,
  warnings: SharedV4Warning[],
): Answer {
  if (question.type === 'score') return { type: 'score', score: output.score as number };
  if (question.type === 'boolean') return { type: 'boolean', probability: output.probability as number };
  const choice = output.choice as string;
  const probabilities = consistentProbabilities(choice, output.probabilities as Record<string, number> | undefined);
  if (output.probabilities !== undefined && probabilities === undefined) {
    warnings.push({
      type: 'other',
      message: `Question '${questionId}': the model's probabilities were dropped because they do not sum to more than 0 or do not favour its choice.`,
    });
  }
  return probabilities === undefined ? { type: 'choice', choice } : { type: 'choice', choice, probabilities };
}

/**
 * Chat models state probabilities loosely. A distribution that favours the chosen option is
 * normalised to sum to 1; one that contradicts the choice (or sums to 0) is dropped, never
 * invented, so the answer keeps only what the model actually said.
 */
export function consistentProbabilities(
  choice: string,
  probabilities: Record<string, number> | undefined,
): Record<string, number> | undefined {
  if (probabilities === undefined) return undefined;
  const sum = Object.values(probabilities).reduce((total, value) => total + value, 0);
  if (!(sum > 0)) return undefined;
  const highest = Math.max(...Object.values(probabilities));
  if ((probabilities[choice] ?? -1) < highest) return undefined;
  return Object.fromEntries(Object.entries(probabilities).map(([option, value]) => [option, value / sum]));
}
