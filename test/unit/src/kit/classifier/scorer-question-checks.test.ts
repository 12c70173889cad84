import { describe, expect, it } from 'vitest';
import { assertScorerQuestion, scoresMappingProblems } from '../../../../../src/kit/classifier/scorer-question-checks.ts';
import type { Questions } from '../../../../../src/kit/classifier/types.ts';
import { questions } from './fixtures.ts';

const classifier = { id: 'quality', questions };
const check = (questionId: string, scores?: unknown, target: { id: string; questions: Questions | undefined } = classifier) => () =>
  assertScorerQuestion(target, 'tone-scorer', questionId, scores as Record<string, number> | undefined);

describe('assertScorerQuestion', () => {
  it('returns the question when question and scores fit', () => {
    expect(check('tone', { polite: 1, neutral: 0.5, rude: 0 })()).toBe(questions.tone);
    expect(check('helpfulness')()).toBe(questions.helpfulness);
    expect(check('resolved')()).toBe(questions.resolved);
  });

  it('requires a classifier constructed with questions', () => {
    expect(check('tone', {}, { id: 'bare', questions: undefined })).toThrow(
      new TypeError("Classifier 'bare' used by scorer 'tone-scorer' must be constructed with configured questions."),
    );
  });

  it('rejects a question the classifier does not have', () => {
    expect(check('empathy')).toThrow(
      new TypeError("Question 'empathy' is not configured on classifier 'quality' for scorer 'tone-scorer'."),
    );
    expect(check('toString')).toThrow("Question 'toString' is not configured");
  });

  it('forbids scores for score and boolean questions, even {}', () => {
    expect(check('helpfulness', {})).toThrow(
      new TypeError("Scorer 'tone-scorer' cannot provide scores for score question 'helpfulness'."),
    );
    expect(check('resolved', { true: 1 })).toThrow(
      new TypeError("Scorer 'tone-scorer' cannot provide scores for boolean question 'resolved'."),
    );
  });

  it.each([[undefined], [null], [[1, 0, 0]], ['all']])('requires a scores object for a choice question, not %j', (scores) => {
    expect(check('tone', scores)).toThrow(
      new TypeError("Scorer 'tone-scorer' must provide an exhaustive numeric scores mapping for choice question 'tone'."),
    );
  });

  it('lists every mapping problem in one message, in order', () => {
    expect(check('tone', { polite: 1.5, neutral: 'half', extra: 1, other: 0 })).toThrow(
      new TypeError(
        "Invalid scores mapping for choice question 'tone' on scorer 'tone-scorer'. Missing: rude. Unknown: extra, other. Non-numeric: neutral, rude. Outside 0-1: polite.",
      ),
    );
  });

  it('accepts 0 and 1 exactly', () => {
    expect(check('tone', { polite: 1, neutral: 0, rude: 0 })).not.toThrow();
  });
});

describe('scoresMappingProblems', () => {
  const options = ['a', 'b', 'c'];

  it('is empty for a valid mapping', () => {
    expect(scoresMappingProblems(options, { a: 0, b: 0.5, c: 1 })).toBe('');
  });

  it('lists a missing option under Missing and Non-numeric', () => {
    expect(scoresMappingProblems(options, { a: 0, b: 1 })).toBe(' Missing: c. Non-numeric: c.');
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '1', null, undefined])(
    'counts %j as non-numeric',
    (value) => {
      expect(scoresMappingProblems(options, { a: value, b: 0, c: 0 })).toBe(' Non-numeric: a.');
    },
  );

  it('lists values below 0 and above 1 as outside', () => {
    expect(scoresMappingProblems(options, { a: -0.1, b: 1.01, c: 1 })).toBe(' Outside 0-1: a, b.');
  });

  it('lists unknown keys', () => {
    expect(scoresMappingProblems(options, { a: 0, b: 0, c: 0, d: 0 })).toBe(' Unknown: d.');
  });
});
