// Validates feedback exactly as the feedback join will read it (validate-records.ts): against
// FeedbackRecord v1, a batch all-or-nothing, every problem reported in one error.
import type { FeedbackRecord, FeedbackRecordInput } from '../src/kit/contracts/feedback-record.ts';
import { FEEDBACK_RECORD_SCHEMA_VERSION } from '../src/kit/contracts/feedback-record.ts';
import { parseFeedbackRecord } from '../src/kit/contracts/parse.ts';
import type { Problem } from '../src/kit/contracts/problems.ts';
import { feedbackKeyFor } from '../src/kit/contracts/record-key.ts';
import { hasErrorMarker, ScorestreamError } from '../src/kit/errors.ts';
import { validateRecords } from './validate-records.ts';

export type ValidatedFeedback = { index: number; feedbackId: string; key: string; value: string; feedback: FeedbackRecord };

export type FeedbackProblem = Problem & { index: number; feedbackId?: string };

const marker = Symbol.for('scorestream.error.InvalidFeedbackError');

/** Feedback (or feedback of a batch) that breaks the contract; `problems` lists every one with its path. */
export class InvalidFeedbackError extends ScorestreamError {
  readonly [marker] = true;
  readonly problems: FeedbackProblem[];

  constructor(message: string, problems: FeedbackProblem[]) {
    super(message, { code: 'invalid_feedback', canRetry: false });
    this.name = 'InvalidFeedbackError';
    this.problems = problems;
  }

  /** True for an InvalidFeedbackError from any copy of this library. */
  static override isInstance(value: unknown): value is InvalidFeedbackError {
    return hasErrorMarker(value, marker);
  }
}

const feedbackContract = {
  name: `FeedbackRecord v${FEEDBACK_RECORD_SCHEMA_VERSION}`,
  noun: 'feedback',
  plural: 'feedback',
  idField: 'feedbackId',
  parse: parseFeedbackRecord,
};

/** Validates every feedback record; throws InvalidFeedbackError listing all problems when any is invalid. */
export function validateFeedback(items: readonly (FeedbackRecordInput | FeedbackRecord)[], options: { batch: boolean }): ValidatedFeedback[] {
  const { validated, problems, message } = validateRecords(items, feedbackContract, options);
  if (problems.length > 0) {
    throw new InvalidFeedbackError(message, problems.map(({ id, ...problem }) => (id === undefined ? problem : { ...problem, feedbackId: id })));
  }
  return validated.map(({ index, value, record }) => ({ index, feedbackId: record.feedbackId, key: feedbackKeyFor(record), value, feedback: record }));
}
