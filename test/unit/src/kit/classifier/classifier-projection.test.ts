import { Experimental_DecisionRefusalError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { classifierReason, projectScore, selectEvidence } from '../../../../../src/kit/classifier/classifier-projection.ts';
import type { ClassifierResult, ScoreQuestion } from '../../../../../src/kit/classifier/types.ts';
import { goodAnswers, questions } from './fixtures.ts';

const levels = (count: number): ScoreQuestion => ({ type: 'score', criteria: Array.from({ length: count }, (_, index) => `level ${index}`) });
const tones = { polite: 1, neutral: 0.5, rude: 0 };

describe('projectScore', () => {
  it.each([
    [1.7, 3, 0.85],
    [3, 5, 0.75],
    [1, 2, 1],
    [0, 4, 0],
  ])('maps score level %d of %d levels to %d', (score, count, expected) => {
    expect(projectScore(levels(count), { type: 'score', score }, undefined)).toBeCloseTo(expected, 12);
  });

  it('maps a choice through the scores mapping, without assuming an order', () => {
    expect(projectScore(questions.tone, { type: 'choice', choice: 'neutral' }, tones)).toBe(0.5);
    expect(projectScore(questions.tone, { type: 'choice', choice: 'rude' }, { polite: 0, neutral: 0, rude: 1 })).toBe(1);
  });

  it('fails for a choice without a configured score (no fallback)', () => {
    expect(() => projectScore(questions.tone, { type: 'choice', choice: 'rude' }, { polite: 1 })).toThrow(
      "No numeric score is configured for the classifier choice 'rude'.",
    );
  });

  it('uses P(true) as is for a boolean', () => {
    expect(projectScore(questions.resolved, { type: 'boolean', probability: 0.37 }, undefined)).toBe(0.37);
  });

  it('refuses to score a refusal or a mismatched answer', () => {
    expect(() => projectScore(questions.resolved, { type: 'refusal' }, undefined)).toThrow(TypeError);
    expect(() => projectScore(questions.resolved, { type: 'score', score: 1 }, undefined)).toThrow(TypeError);
  });
});

describe('classifierReason', () => {
  it('phrases each answer type as the spec fixes it', () => {
    expect(classifierReason('tone', { type: 'choice', choice: 'polite' }, 1)).toBe(
      "Classifier question 'tone' selected 'polite' (score: 1).",
    );
    expect(classifierReason('tone', { type: 'choice', choice: 'neutral' }, 0.5)).toBe(
      "Classifier question 'tone' selected 'neutral' (score: 0.5).",
    );
    expect(classifierReason('helpfulness', { type: 'score', score: 1.7 }, 0.85)).toBe(
      "Classifier question 'helpfulness' returned score 1.7.",
    );
    expect(classifierReason('resolved', { type: 'boolean', probability: 0.9 }, 0.9)).toBe(
      "Classifier question 'resolved' returned P(true)=0.9.",
    );
  });
});

describe('selectEvidence', () => {
  const result: ClassifierResult = {
    answers: goodAnswers as ClassifierResult['answers'],
    usage: { inputTokens: 3, totalTokens: 3 },
    warnings: [{ type: 'other', message: 'w' }],
    rounding: undefined,
    providerMetadata: { judge: { plan: 'x' } },
    response: {
      id: 'r1',
      timestamp: new Date('2025-01-01T00:00:00Z'),
      modelId: 'judge-1',
      headers: { authorization: 'Bearer planted-secret' },
      body: { raw: 'planted-secret' },
    },
  };
  const names = { classifierId: 'quality', questionId: 'tone', scorerId: 'tone-scorer', provider: 'p' };

  it('keeps the answer, usage, warnings, rounding, metadata and a response without headers or body', () => {
    const evidence = selectEvidence(result, names);
    expect(evidence).toEqual({
      question: 'tone',
      answer: goodAnswers.tone,
      usage: { inputTokens: 3, totalTokens: 3 },
      warnings: [{ type: 'other', message: 'w' }],
      rounding: undefined,
      providerMetadata: { judge: { plan: 'x' } },
      response: { id: 'r1', timestamp: new Date('2025-01-01T00:00:00Z'), modelId: 'judge-1' },
    });
    expect(Object.keys(evidence)).toEqual(['question', 'answer', 'usage', 'warnings', 'rounding', 'providerMetadata', 'response']);
    expect(JSON.stringify(evidence)).not.toContain('planted-secret');
  });

  it('fails when the selected question has no answer', () => {
    expect(() => selectEvidence({ ...result, answers: {} }, names)).toThrow(
      new TypeError("Classifier 'quality' did not return question 'tone' for scorer 'tone-scorer'."),
    );
  });

  it('fails with a refusal error naming classifier, question and scorer', () => {
    let error: unknown;
    try {
      selectEvidence({ ...result, answers: { ...result.answers, tone: { type: 'refusal' } } }, names);
    } catch (caught) {
      error = caught;
    }
    expect(Experimental_DecisionRefusalError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      message: "Classifier 'quality' refused question 'tone' for scorer 'tone-scorer'.",
      questionIds: ['tone'],
      provider: 'p',
      modelId: 'judge-1',
    });
  });

  it('ignores a refusal on another question', () => {
    const evidence = selectEvidence({ ...result, answers: { ...result.answers, resolved: { type: 'refusal' } } }, names);
    expect(evidence.answer).toEqual(goodAnswers.tone);
  });
});
