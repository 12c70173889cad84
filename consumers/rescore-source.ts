// The rescore topic's source (docs/feedback.md, re-scoring): each message is the feedback join's
// request to score a pair again for a feedback that disagrees with it. Once decoded it is one job
// (perform-job.ts: admitted by the binding's `rescoreOn`, the run event read back from the runs
// topic, the pair scored through the retry path's scoring and the one emitter). A message that is
// not a RescoreRequest is dead-lettered. The topic is the service's own: no loop guard applies.
import { formatProblems, problemsFromIssues } from '../src/kit/contracts/problems.ts';
import { rescoreRequestSchema } from '../src/kit/contracts/rescore-request.ts';
import type { RescoreRequest } from '../src/kit/contracts/rescore-request.ts';
import type { Decoding } from './run-source.ts';
import { statelessSource } from './run-source.ts';
import type { RunSource } from './run-source.ts';

export function decodeRescoreRequest(value: Buffer | null): Decoding<RescoreRequest> {
  const invalid = (message: string): Decoding<RescoreRequest> => ({ success: false, reason: { code: 'schema_violation', message } });
  if (value === null) return invalid('the re-score request has no value');
  let json: unknown;
  try {
    json = JSON.parse(value.toString('utf8'));
  } catch (error) {
    return invalid(`the re-score request is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = rescoreRequestSchema.safeParse(json);
  if (!parsed.success) return invalid(`not a RescoreRequest v1:\n${formatProblems(problemsFromIssues(parsed.error.issues))}`);
  return { success: true, decoded: parsed.data };
}

export const rescoreSource: RunSource<RescoreRequest> = statelessSource<RescoreRequest>({
  name: 'rescore',
  internal: true,
  decode: decodeRescoreRequest,
  job: (request) => ({ kind: 'rescore', request }),
});
