// The retry tiers' source (docs/delivery.md, retries): each tier topic holds pairs waiting to be
// scored again after a transient failure, due in the order they were written. A message is due at
// its header `scorestream-retry-due` (the consumer holds its partition until then, retry-gate.ts);
// once due it is one job — the pair scored again (src/engine/pipeline/score-retry.ts). A message that is
// not a RetryMessage is dead-lettered. The topics are the service's own: no loop guard applies.
import { decodeRecord } from '../src/kit/contracts/decode-record.ts';
import { parseWith } from '../src/kit/contracts/parse.ts';
import { RETRY_MESSAGE_SCHEMA_VERSION, retryMessageSchema } from '../src/kit/contracts/retry-message.ts';
import type { RetryMessage } from '../src/kit/contracts/retry-message.ts';
import { retryDueMs } from './retry-gate.ts';
import type { Decoding } from './run-source.ts';
import { statelessSource } from './run-source.ts';
import type { RunSource } from './run-source.ts';

const retryMessageContract = { name: 'RetryMessage', noun: 'retry message', version: RETRY_MESSAGE_SCHEMA_VERSION, parse: (value: unknown) => parseWith(retryMessageSchema, value) };

export function decodeRetryMessage(value: Buffer | null): Decoding<RetryMessage> {
  return decodeRecord(value, {}, retryMessageContract);
}

export const retrySource: RunSource<RetryMessage> = statelessSource<RetryMessage>({
  name: 'retry',
  internal: true,
  decode: decodeRetryMessage,
  dueAt: retryDueMs,
  job: (retry) => ({ kind: 'retry', retry }),
});
