// Shared fixtures for the classifier tests: questions of every type, a decision mock model that
// answers from a list or a function, and a provider API error factory.

import { APICallError } from '@ai-sdk/provider';
import type { Experimental_DecisionModelV4CallOptions, Experimental_DecisionModelV4Result } from '@ai-sdk/provider';
import { Experimental_DecisionMockModelV4 } from 'ai/test';
import type { Questions } from '../../../../../src/kit/classifier/types.ts';

export const questions = {
  tone: {
    type: 'choice',
    instructions: 'How does the reply sound?',
    criteria: { polite: 'Courteous', neutral: null, rude: 'Insulting' },
  },
  helpfulness: { type: 'score', criteria: ['not helpful', 'somewhat', 'very helpful'] },
  resolved: { type: 'boolean', instructions: 'Was the issue resolved?', criteria: { true: 'yes', false: 'no' } },
} as const satisfies Questions;

export const goodAnswers: Experimental_DecisionModelV4Result['answers'] = {
  tone: { type: 'choice', choice: 'polite', probabilities: { polite: 0.7, neutral: 0.2, rude: 0.1 } },
  helpfulness: { type: 'score', score: 1.5, probabilities: { '0': 0, '1': 0.5, '2': 0.5 } },
  resolved: { type: 'boolean', probability: 0.9 },
};

export function decisionResult(
  overrides: Partial<Experimental_DecisionModelV4Result> = {},
): Experimental_DecisionModelV4Result {
  return {
    answers: goodAnswers,
    usage: { inputTokens: 10, outputTokens: 4 },
    warnings: [],
    response: { id: 'resp-1', timestamp: new Date('2025-01-02T03:04:05Z'), modelId: 'judge-v1' },
    ...overrides,
  };
}

type Step = Experimental_DecisionModelV4Result | Error | (() => Experimental_DecisionModelV4Result | Promise<Experimental_DecisionModelV4Result>);

/** A decision mock that plays `steps` in order (the last one repeats) and records its calls. */
export function scriptedDecisionModel(steps: Step[], settings: { supportedQuestionTypes?: ('choice' | 'score' | 'boolean')[] } = {}) {
  const calls: Experimental_DecisionModelV4CallOptions[] = [];
  const model = new Experimental_DecisionMockModelV4({
    provider: 'mock-provider',
    modelId: 'mock-decider',
    supportedQuestionTypes: settings.supportedQuestionTypes ?? ['choice', 'score', 'boolean'],
    doDecide: async (options) => {
      calls.push(options);
      const step = steps[Math.min(calls.length - 1, steps.length - 1)];
      if (step instanceof Error) throw step;
      return typeof step === 'function' ? step() : (step as Experimental_DecisionModelV4Result);
    },
  });
  return { model, calls };
}

export function apiError(options: { isRetryable: boolean; statusCode?: number; headers?: Record<string, string> }): APICallError {
  return new APICallError({
    message: `provider said ${options.statusCode ?? 500}`,
    url: 'https://judge.example/decide',
    requestBodyValues: {},
    statusCode: options.statusCode ?? 500,
    responseHeaders: options.headers,
    isRetryable: options.isRetryable,
  });
}

/** A sleep that records the delays and returns at once. */
export function recordingSleep() {
  const delays: number[] = [];
  const sleep = async (delayMs: number) => {
    delays.push(delayMs);
  };
  return { delays, sleep };
}
