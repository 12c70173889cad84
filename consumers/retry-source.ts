// The retry tiers' source (docs/delivery.md, retries): each tier topic holds pairs waiting to be
// scored again after a transient failure, due in the order they were written. A message is due at
// its header `scorestream-retry-due` (the consumer holds its partition until then, retry-gate.ts);
// once due it is one job — the pair scored again (src/engine/pipeline/score-retry.ts). A message that is
// not a RetryMessage is dead-lettered. The topics are the service's own: no loop guard applies.
import { formatProblems, problemsFromIssues } from '../src/kit/contracts/problems.ts';
import { retryMessageSchema } from '../src/kit/contracts/retry-message.ts';
import type { RetryMessage } from '../src/kit/contracts/retry-message.ts';
import { retryDueMs } from './retry-gate.ts';
import type { Decoding } from './run-source.ts';
import { statelessSource } from './run-source.ts';
import type { RunSource } from './run-source.ts';

export function decodeRetryMessage(value: Buffer | null): Decoding<RetryMessage> {
  const invalid = (message: string): Decoding<RetryMessage> => ({ success: false, reason: { code: 'schema_violation', message } });
  if (value === null) return invalid('the retry message has no value');
  let json: unknown;
  try {
    json = JSON.parse(value.toString('utf8'));
  } catch (error) {
    return invalid(`the retry message is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = retryMessageSchema.safeParse(json);
  if (!parsed.success) return invalid(`not a RetryMessage v1:\n${formatProblems(problemsFromIssues(parsed.error.issues))}`);
  return { success: true, decoded: parsed.data };
}

export const retrySource: RunSource<RetryMessage> = statelessSource<RetryMessage>({
  name: 'retry',
  internal: true,
  decode: decodeRetryMessage,
  dueAt: retryDueMs,
  job: (retry) => ({ kind: 'retry', retry }),
});
