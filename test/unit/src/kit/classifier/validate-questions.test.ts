import { Experimental_DecisionUnsupportedQuestionTypeError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { validateQuestions } from '../../../../../src/kit/classifier/validate-questions.ts';
import { questions } from './fixtures.ts';

const model = { provider: 'p', modelId: 'm', supportedQuestionTypes: ['choice', 'score', 'boolean'] };
const check = (value: unknown, support = model) => () => validateQuestions(value, support);

describe('validateQuestions', () => {
  it('accepts choice, score and boolean questions', () => {
    expect(check(questions)).not.toThrow();
    expect(check({ flag: { type: 'boolean' } })).not.toThrow();
    expect(check({ flag: { type: 'boolean', criteria: null } })).not.toThrow();
  });

  it.each([[{}], [undefined], [null], [[]], ['questions']])('rejects %j as the questions record', (value) => {
    expect(check(value)).toThrow(new TypeError('Questions must be a non-empty object.'));
  });

  it('rejects an empty question id', () => {
    expect(check({ '': { type: 'boolean' } })).toThrow('Question ids must be non-empty strings.');
  });

  it.each([[{ type: 'box' }], [{ type: 'rating' }], [{}], ['choice']])('rejects the question %j as unsupported', (question) => {
    expect(check({ q: question })).toThrow(TypeError);
    expect(check({ q: question })).toThrow(/Question 'q' has unsupported type/);
  });

  it("throws the provider's UnsupportedQuestionTypeError for a type the model does not support", () => {
    let error: unknown;
    try {
      validateQuestions(questions, { ...model, supportedQuestionTypes: ['choice', 'boolean'] });
    } catch (caught) {
      error = caught;
    }
    expect(Experimental_DecisionUnsupportedQuestionTypeError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ questionId: 'helpfulness', questionType: 'score', provider: 'p', modelId: 'm' });
  });

  it('requires at least two score levels', () => {
    expect(check({ q: { type: 'score', criteria: ['only'] } })).toThrow(
      new TypeError("Score question 'q' criteria must contain at least two levels."),
    );
    expect(check({ q: { type: 'score', criteria: [] } })).toThrow('at least two levels');
    expect(check({ q: { type: 'score' } })).toThrow('at least two levels');
  });

  it('rejects holes and undefined among score levels but allows null', () => {
    expect(check({ q: { type: 'score', criteria: new Array(3) } })).toThrow("Score question 'q' level 0 is missing");
    expect(check({ q: { type: 'score', criteria: ['a', undefined] } })).toThrow('level 1 is missing');
    expect(check({ q: { type: 'score', criteria: [null, null] } })).not.toThrow();
  });

  it('requires a non-empty options object for a choice question', () => {
    expect(check({ q: { type: 'choice', criteria: {} } })).toThrow(
      "Choice question 'q' criteria must be a non-empty object of options.",
    );
    expect(check({ q: { type: 'choice', criteria: ['a', 'b'] } })).toThrow('non-empty object of options');
    expect(check({ q: { type: 'choice', criteria: { '': 'x' } } })).toThrow('option names must be non-empty');
  });

  it('lets boolean criteria describe only true and false', () => {
    expect(check({ q: { type: 'boolean', criteria: { maybe: 'x' } } })).toThrow(
      "Boolean question 'q' criteria may only describe 'true' and 'false', not 'maybe'.",
    );
    expect(check({ q: { type: 'boolean', criteria: 'yes' } })).toThrow("Boolean question 'q' criteria must be an object.");
  });

  it('rejects instructions and criteria that are not JSON-compatible', () => {
    expect(check({ q: { type: 'boolean', instructions: { at: new Date() } } })).toThrow(
      "Question 'q' instructions must contain only JSON-compatible values.",
    );
    expect(check({ q: { type: 'choice', criteria: { a: { n: Number.NaN } } } })).toThrow(
      "Choice question 'q' option 'a' must contain only JSON-compatible values.",
    );
    expect(check({ q: { type: 'score', criteria: ['a', { n: Infinity }] } })).toThrow('level 1 must contain only JSON');
    expect(check({ q: { type: 'boolean', criteria: { true: new Map() } } })).toThrow("criterion 'true' must contain only JSON");
  });
});
