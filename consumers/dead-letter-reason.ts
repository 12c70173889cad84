// Why a consumed message is dead-lettered, in the shape a dead letter carries (docs/contracts.md,
// the dead letter): its code, a message for people, and the contract's problems by path when
// there are any. Every task's decoder answers with the one Decoded<T> (src/kit/contracts/decode-record.ts);
// the message path turns its failure into this reason, once for every task.
import type { BuildDeadLetterOptions } from '../src/kit/contracts/build-dead-letter.ts';
import type { DecodeFailure } from '../src/kit/contracts/decode-record.ts';
import type { DeadLetterCode } from '../src/kit/contracts/dead-letter.ts';

export type DeadLetterReason = BuildDeadLetterOptions['error'];

/** A decoder's failure as a dead letter's reason: problems only when there are some. */
export function deadLetterReasonOf(failure: DecodeFailure<DeadLetterCode>): DeadLetterReason {
  return { code: failure.code, message: failure.message, ...(failure.problems.length === 0 ? {} : { problems: failure.problems }) };
}
