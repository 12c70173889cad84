// The rescore topic's source (docs/feedback.md, re-scoring): each message is the feedback join's
// request to score a pair again for a feedback that disagrees with it. Once decoded it is one job
// (perform-job.ts: admitted by the binding's `rescoreOn`, the run event read back from the runs
// topic, the pair scored through the retry path's scoring and the one emitter). A message that is
// not a RescoreRequest is dead-lettered. The topic is the service's own: no loop guard applies.
import { decodeRecord } from '../src/kit/contracts/decode-record.ts';
import { parseWith } from '../src/kit/contracts/parse.ts';
import { RESCORE_REQUEST_SCHEMA_VERSION, rescoreRequestSchema } from '../src/kit/contracts/rescore-request.ts';
import type { RescoreRequest } from '../src/kit/contracts/rescore-request.ts';
import type { Decoding } from './run-source.ts';
import { statelessSource } from './run-source.ts';
import type { RunSource } from './run-source.ts';

const rescoreRequestContract = { name: 'RescoreRequest', noun: 're-score request', version: RESCORE_REQUEST_SCHEMA_VERSION, parse: (value: unknown) => parseWith(rescoreRequestSchema, value) };

export function decodeRescoreRequest(value: Buffer | null): Decoding<RescoreRequest> {
  return decodeRecord(value, {}, rescoreRequestContract);
}

export const rescoreSource: RunSource<RescoreRequest> = statelessSource<RescoreRequest>({
  name: 'rescore',
  internal: true,
  decode: decodeRescoreRequest,
  job: (request) => ({ kind: 'rescore', request }),
});
