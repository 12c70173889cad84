import { describe, expect, it } from 'vitest';
import { InvalidFeedbackError, validateFeedback } from '../../../producers/feedback-validation.ts';
import { ScorestreamError } from '../../../src/kit/errors.ts';
import { wireFeedback } from '../src/kit/contracts/fixtures.ts';

describe('validateFeedback', () => {
  it('returns the JSON to send, its key and the parsed record', () => {
    const [validated] = validateFeedback([wireFeedback()], { batch: false });
    expect(validated).toMatchObject({ index: 0, feedbackId: 'fb-1', key: 'run-1', feedback: { value: false } });
    expect(JSON.parse(validated!.value)).toEqual(wireFeedback());
  });

  it('lists every problem of a single record with its path, as a ScorestreamError that cannot be retried', () => {
    let error: unknown;
    try {
      validateFeedback([{ ...wireFeedback(), value: null, submittedAt: 'now' } as never], { batch: false });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidFeedbackError.isInstance(error)).toBe(true);
    expect(ScorestreamError.isInstance(error)).toBe(true);
    const invalid = error as InvalidFeedbackError;
    expect(invalid).toMatchObject({ code: 'invalid_feedback', canRetry: false });
    expect(invalid.problems.map((problem) => problem.path)).toEqual(['value', 'submittedAt']);
    expect(invalid.message).toMatch(/^the feedback is not a valid FeedbackRecord v1; nothing was sent\. Fix these problems:\n {2}- value: /);
  });

  it('says what cannot be sent at all', () => {
    const cyclic: Record<string, unknown> = { ...wireFeedback() };
    cyclic.self = cyclic;
    expect(() => validateFeedback([cyclic as never, undefined as never], { batch: true })).toThrow(/feedback\[0\] \(feedbackId "fb-1"\) \(root\): cannot be serialised to JSON[\s\S]*feedback\[1\] \(root\): expected a feedback object, received nothing serialisable/);
  });
});
