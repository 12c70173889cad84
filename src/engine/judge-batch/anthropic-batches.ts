// Anthropic's Message Batches (`POST /messages/batches` with `{ requests: [{ custom_id, params }] }`,
// polled at `GET /messages/batches/{id}`, answers from its `results_url` as JSONL). The params of
// each request are the body the live `/messages` call would have sent, spliced in as written.
import type { BatchAnswer, BatchRequest } from './batch-request.ts';
import { createBatchHttp, jsonLines } from './batch-http.ts';
import type { BatchAnswers, BatchCaps, BatchProvider, BatchProviderOptions, BatchState } from './batch-provider.ts';
import { assertOneBatch } from './split-batches.ts';


type MessageBatch = { id: string; processing_status: string; results_url?: string | null };
type ResultLine = {
  custom_id?: string;
  result?: { type?: string; message?: unknown; error?: { error?: { type?: string; message?: string }; type?: string; message?: string } };
};

/** The HTTP status a live call would have had, by Anthropic's error type. */
const STATUS_OF: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

export function createAnthropicBatches(options: BatchProviderOptions): BatchProvider {
  const http = createBatchHttp({
    provider: 'anthropic',
    baseURL: options.baseURL,
    headers: { 'anthropic-version': '2023-06-01', ...(options.apiKey === undefined ? {} : { 'x-api-key': options.apiKey }), ...options.headers },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  // Anthropic's caps: 100,000 requests and 256 MB per batch.
  const caps: BatchCaps = { maxRequests: options.caps?.maxRequests ?? 100_000, maxBytes: options.caps?.maxBytes ?? 256 * 1024 * 1024 };
  const state = (batch: MessageBatch): BatchState => ({ id: batch.id, phase: batch.processing_status === 'ended' ? 'ended' : 'in_progress', providerStatus: batch.processing_status });

  return {
    name: 'anthropic',
    caps,
    probe: () => http.probe('/messages/batches?limit=1'),
    async submit(requests: readonly BatchRequest[]) {
      const first = assertOneBatch(requests, caps);
      if (first.path !== '/messages') throw new TypeError(`Anthropic batches carry /messages requests only, not ${first.path}`);
      const body = `{"requests":[${requests.map((request) => `{"custom_id":${JSON.stringify(request.customId)},"params":${request.body}}`).join(',')}]}`;
      return state(await http.json<MessageBatch>('POST', '/messages/batches', body, 'application/json'));
    },
    async poll(batchId: string) {
      return state(await http.json<MessageBatch>('GET', `/messages/batches/${encodeURIComponent(batchId)}`));
    },
    async answers(batchId: string) {
      const batch = await http.json<MessageBatch>('GET', `/messages/batches/${encodeURIComponent(batchId)}`);
      if (batch.processing_status !== 'ended') throw new TypeError(`batch ${batchId} has not ended (${batch.processing_status}): poll until it has`);
      const url = typeof batch.results_url === 'string' && batch.results_url !== '' ? batch.results_url : `/messages/batches/${encodeURIComponent(batchId)}/results`;
      const answers = new Map<string, BatchAnswer>();
      for (const line of jsonLines(await http.text('GET', url)) as ResultLine[]) {
        const answer = answerOfLine(line);
        if (answer !== undefined && typeof line.custom_id === 'string') answers.set(line.custom_id, answer);
      }
      return answers as BatchAnswers;
    },
    async cancel(batchId: string) {
      await http.json('POST', `/messages/batches/${encodeURIComponent(batchId)}/cancel`);
    },
  };
}

/** succeeded: the message; errored: failed with the status a live call would have had; expired, canceled: none (submitted again). */
function answerOfLine(line: ResultLine): BatchAnswer | undefined {
  const result = line.result;
  if (result?.type === 'succeeded') return { status: 'succeeded', body: result.message };
  if (result?.type !== 'errored') return undefined;
  const error = result.error?.error ?? result.error;
  const type = error?.type ?? 'api_error';
  return { status: 'failed', statusCode: STATUS_OF[type] ?? 500, error: `${type}: ${error?.message ?? 'the batch request failed'}` };
}
