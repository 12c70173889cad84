import { describe, expect, it } from 'vitest';
import { validateAnswers } from '../../../../../src/kit/classifier/validate-answers.ts';
import { goodAnswers, questions } from './fixtures.ts';

const check = (answers: unknown, rounding?: unknown) => () => validateAnswers(questions, answers, rounding);
const withAnswer = (questionId: string, answer: unknown) => ({ ...goodAnswers, [questionId]: answer });

describe('validateAnswers', () => {
  it('accepts a complete, consistent set of answers', () => {
    expect(check(goodAnswers)).not.toThrow();
  });

  it('accepts answers without probabilities', () => {
    expect(
      check({
        tone: { type: 'choice', choice: 'rude' },
        helpfulness: { type: 'score', score: 2 },
        resolved: { type: 'boolean', probability: 0 },
      }),
    ).not.toThrow();
  });

  it('accepts a refusal for any question type', () => {
    expect(
      check({ tone: { type: 'refusal' }, helpfulness: { type: 'refusal' }, resolved: { type: 'refusal' } }),
    ).not.toThrow();
  });

  it.each([
    ['a missing answer', { tone: goodAnswers.tone, helpfulness: goodAnswers.helpfulness }],
    ['an extra answer', { ...goodAnswers, extra: { type: 'boolean', probability: 1 } }],
    ['an answer under another id', { tone: goodAnswers.tone, helpfulness: goodAnswers.helpfulness, other: goodAnswers.resolved }],
  ])('rejects %s', (_label, answers) => {
    expect(check(answers)).toThrow(new TypeError('The evaluation model must return exactly one answer per question.'));
  });

  it('rejects answers that are not an object', () => {
    expect(check(null)).toThrow(TypeError);
    expect(check([])).toThrow(TypeError);
  });

  it('rejects an answer of the wrong type', () => {
    expect(check(withAnswer('resolved', { type: 'score', score: 1 }))).toThrow(
      new TypeError("Answer 'resolved' does not match its question type."),
    );
    expect(check(withAnswer('resolved', 'yes'))).toThrow("Answer 'resolved' does not match its question type.");
  });

  describe('choice', () => {
    it('rejects an unknown option', () => {
      expect(check(withAnswer('tone', { type: 'choice', choice: 'sarcastic' }))).toThrow(
        new TypeError("Choice answer 'tone' selected an unknown option."),
      );
    });

    it('rejects an inherited property name as an option', () => {
      expect(check(withAnswer('tone', { type: 'choice', choice: 'toString' }))).toThrow('selected an unknown option');
    });

    it('rejects an incomplete distribution', () => {
      expect(check(withAnswer('tone', { type: 'choice', choice: 'polite', probabilities: { polite: 0.8, rude: 0.2 } }))).toThrow(
        "Answer 'tone' probabilities must cover exactly the options of its question.",
      );
    });

    it('rejects a distribution with unknown keys', () => {
      const probabilities = { polite: 0.5, neutral: 0.25, rude: 0.25, other: 0 };
      expect(check(withAnswer('tone', { type: 'choice', choice: 'polite', probabilities }))).toThrow(
        'must cover exactly the options',
      );
    });

    it('rejects probabilities outside [0, 1] or not finite', () => {
      for (const bad of [-0.1, 1.1, Number.NaN, '0.5']) {
        const probabilities = { polite: bad, neutral: 0.5, rude: 0.5 };
        expect(check(withAnswer('tone', { type: 'choice', choice: 'neutral', probabilities }))).toThrow(
          "Answer 'tone' probabilities must be finite numbers between 0 and 1.",
        );
      }
    });

    it('rejects a distribution that does not sum to 1', () => {
      const probabilities = { polite: 0.6, neutral: 0.3, rude: 0.3 };
      expect(check(withAnswer('tone', { type: 'choice', choice: 'polite', probabilities }))).toThrow(
        "Answer 'tone' probabilities sum to 1.2",
      );
    });

    it('allows float noise of up to 1e-6 in the sum', () => {
      const probabilities = { polite: 0.7, neutral: 0.2, rude: 0.1000009 };
      expect(check(withAnswer('tone', { type: 'choice', choice: 'polite', probabilities }))).not.toThrow();
    });

    it('rejects a choice that is not among the most probable', () => {
      const probabilities = { polite: 0.3, neutral: 0.6, rude: 0.1 };
      expect(check(withAnswer('tone', { type: 'choice', choice: 'polite', probabilities }))).toThrow(
        new TypeError("Choice answer 'tone' did not select a highest-probability option."),
      );
    });

    it('accepts a choice tied for the highest probability', () => {
      const probabilities = { polite: 0.4, neutral: 0.4, rude: 0.2 };
      expect(check(withAnswer('tone', { type: 'choice', choice: 'neutral', probabilities }))).not.toThrow();
    });

    it('widens the sum tolerance by half a unit per rounded probability', () => {
      // Rounded to 1 decimal, each of 3 values may be off by 0.05: a sum of 1.1 is within 0.15.
      const probabilities = { polite: 0.4, neutral: 0.4, rude: 0.3 };
      const answers = withAnswer('tone', { type: 'choice', choice: 'polite', probabilities });
      expect(check(answers)).toThrow('sum to');
      expect(check(answers, { probabilityDecimals: 1 })).not.toThrow();
      expect(check(answers, { probabilityDecimals: 2 })).toThrow('sum to');
    });

    it('widens the highest-option check by the rounding of both compared values', () => {
      const probabilities = { polite: 0.4, neutral: 0.5, rude: 0.1 };
      const answers = withAnswer('tone', { type: 'choice', choice: 'polite', probabilities });
      expect(check(answers, { probabilityDecimals: 1 })).not.toThrow();
      expect(check(answers, { probabilityDecimals: 2 })).toThrow('highest-probability');
    });
  });

  describe('score', () => {
    it.each([-0.01, 2.01, Number.NaN, Number.POSITIVE_INFINITY, '1'])('rejects score %s outside [0, N-1]', (score) => {
      expect(check(withAnswer('helpfulness', { type: 'score', score }))).toThrow(
        new TypeError("Score answer 'helpfulness' must be a number in [0, 2]."),
      );
    });

    it('accepts the bounds and fractional levels', () => {
      for (const score of [0, 0.3, 2]) expect(check(withAnswer('helpfulness', { type: 'score', score }))).not.toThrow();
    });

    it('rejects a score that differs from its probability-weighted mean', () => {
      const answer = { type: 'score', score: 1, probabilities: { '0': 0, '1': 0.5, '2': 0.5 } };
      expect(check(withAnswer('helpfulness', answer))).toThrow(
        "Score answer 'helpfulness' is 1 but its probability-weighted mean is 1.5; they must match.",
      );
    });

    it('rejects level keys that are not the indices', () => {
      const answer = { type: 'score', score: 1, probabilities: { '1': 0.5, '2': 0.5, '3': 0 } };
      expect(check(withAnswer('helpfulness', answer))).toThrow('must cover exactly the options');
    });

    it('honours scoreDecimals and probabilityDecimals in the mean check', () => {
      // mean 1.55, score rounded to 1 decimal: 1.6 (off by 0.05 = half a unit).
      const answer = { type: 'score', score: 1.6, probabilities: { '0': 0, '1': 0.45, '2': 0.55 } };
      expect(check(withAnswer('helpfulness', answer))).toThrow('probability-weighted mean');
      expect(check(withAnswer('helpfulness', answer), { scoreDecimals: 1 })).not.toThrow();
      // Probabilities rounded to 1 decimal move the mean by up to 0.05 · (0 + 1 + 2) = 0.15.
      const rounded = { type: 'score', score: 1.4, probabilities: { '0': 0.1, '1': 0.3, '2': 0.6 } };
      expect(check(withAnswer('helpfulness', rounded))).toThrow('probability-weighted mean');
      expect(check(withAnswer('helpfulness', rounded), { probabilityDecimals: 1 })).not.toThrow();
    });
  });

  describe('boolean', () => {
    it.each([-0.5, 1.5, Number.NaN, undefined, '0.5'])('rejects P(true) = %s', (probability) => {
      expect(check(withAnswer('resolved', { type: 'boolean', probability }))).toThrow(
        new TypeError("Boolean answer 'resolved' probability must be a finite number between 0 and 1."),
      );
    });

    it('accepts 0 and 1', () => {
      expect(check(withAnswer('resolved', { type: 'boolean', probability: 0 }))).not.toThrow();
      expect(check(withAnswer('resolved', { type: 'boolean', probability: 1 }))).not.toThrow();
    });
  });

  it.each([{ probabilityDecimals: -1 }, { scoreDecimals: 1.5 }, { scoreDecimals: 16 }, { digits: 2 }, 'two'])(
    'rejects malformed rounding %j',
    (rounding) => {
      expect(check(goodAnswers, rounding)).toThrow(TypeError);
    },
  );
});
