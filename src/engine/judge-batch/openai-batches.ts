// OpenAI's Batch API (and any OpenAI-compatible server that offers it): the requests as a JSONL
// file (`POST /files`, purpose `batch`), one batch over it (`POST /batches`, window 24 h), polled
// (`GET /batches/{id}`), its answers read from the output and error files by custom id. Each line
// carries the body the live call would have sent, spliced in as the provider wrote it.
import type { BatchAnswer, BatchRequest } from './batch-request.ts';
import { createBatchHttp, jsonLines } from './batch-http.ts';
import type { BatchAnswers, BatchCaps, BatchProvider, BatchProviderOptions, BatchState } from './batch-provider.ts';
import { assertOneBatch } from './split-batches.ts';


type OpenAIBatch = {
  id: string;
  status: string;
  output_file_id?: string | null;
  error_file_id?: string | null;
  input_file_id?: string;
  errors?: { data?: Array<{ code?: string; message?: string; line?: number | null }> } | null;
};
type OutputLine = { custom_id?: string; response?: { status_code?: number; body?: unknown } | null; error?: { code?: string; message?: string } | null };

const ENDED = new Set(['completed', 'expired', 'cancelled', 'failed']);
/** Requests the batch did not get to: submitted again, not failed. */
const UNANSWERED_CODES = new Set(['batch_expired', 'batch_cancelled']);

export function createOpenAIBatches(options: BatchProviderOptions): BatchProvider {
  const http = createBatchHttp({
    provider: 'openai',
    baseURL: options.baseURL,
    headers: { ...(options.apiKey === undefined ? {} : { authorization: `Bearer ${options.apiKey}` }), ...options.headers },
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  // OpenAI's caps: 50,000 requests and 200 MB per batch.
  const caps: BatchCaps = { maxRequests: options.caps?.maxRequests ?? 50_000, maxBytes: options.caps?.maxBytes ?? 200 * 1024 * 1024 };
  // A batch line names its endpoint from the API's root: the base URL's path (/v1) and the request's.
  const root = new URL(options.baseURL).pathname.replace(/\/+$/, '');
  const state = (batch: OpenAIBatch): BatchState => ({ id: batch.id, phase: ENDED.has(batch.status) ? 'ended' : 'in_progress', providerStatus: batch.status });

  return {
    name: 'openai',
    caps,
    probe: () => http.probe('/batches?limit=1'),
    async submit(requests: readonly BatchRequest[]) {
      const first = assertOneBatch(requests, caps);
      const url = `${root}${first.path}`;
      const jsonl = requests.map((request) => `{"custom_id":${JSON.stringify(request.customId)},"method":"POST","url":${JSON.stringify(url)},"body":${request.body}}`).join('\n');
      const form = new FormData();
      form.append('purpose', 'batch');
      form.append('file', new Blob([`${jsonl}\n`], { type: 'application/jsonl' }), 'scorestream-judge-batch.jsonl');
      const file = await http.json<{ id: string }>('POST', '/files', form);
      const batch = await http.json<OpenAIBatch>('POST', '/batches', JSON.stringify({ input_file_id: file.id, endpoint: url, completion_window: '24h', metadata: { origin: 'scorestream' } }), 'application/json');
      return state(batch);
    },
    async poll(batchId: string) {
      return state(await http.json<OpenAIBatch>('GET', `/batches/${encodeURIComponent(batchId)}`));
    },
    async answers(batchId: string) {
      const batch = await http.json<OpenAIBatch>('GET', `/batches/${encodeURIComponent(batchId)}`);
      if (!ENDED.has(batch.status)) throw new TypeError(`batch ${batchId} has not ended (${batch.status}): poll until it has`);
      const answers = new Map<string, BatchAnswer>();
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (typeof fileId !== 'string' || fileId === '') continue;
        for (const line of jsonLines(await http.text('GET', `/files/${encodeURIComponent(fileId)}/content`)) as OutputLine[]) {
          const answer = answerOfLine(line);
          if (answer !== undefined && typeof line.custom_id === 'string') answers.set(line.custom_id, answer);
        }
      }
      if (batch.status === 'failed') await failedLines(batch, answers);
      return answers as BatchAnswers;
    },
    async cancel(batchId: string) {
      await http.json('POST', `/batches/${encodeURIComponent(batchId)}/cancel`);
    },
  };

  /** A batch that failed validation: the lines it names are failed (a bad request stays bad); the others were not run, and go again. */
  async function failedLines(batch: OpenAIBatch, answers: Map<string, BatchAnswer>): Promise<void> {
    const named = (batch.errors?.data ?? []).filter((error) => typeof error.line === 'number');
    if (named.length === 0 || typeof batch.input_file_id !== 'string') return;
    const input = jsonLines(await http.text('GET', `/files/${encodeURIComponent(batch.input_file_id)}/content`)) as Array<{ custom_id?: string }>;
    for (const error of named) {
      const customId = input[error.line! - 1]?.custom_id;
      if (typeof customId === 'string') answers.set(customId, { status: 'failed', statusCode: 400, error: `${error.code ?? 'invalid_request'}: ${error.message ?? 'refused by the batch'}` });
    }
  }
}

function answerOfLine(line: OutputLine): BatchAnswer | undefined {
  const response = line.response;
  if (response !== undefined && response !== null && typeof response.status_code === 'number') {
    if (response.status_code >= 200 && response.status_code < 300) return { status: 'succeeded', body: response.body };
    return { status: 'failed', statusCode: response.status_code, error: errorMessage(response.body) ?? `HTTP ${response.status_code}` };
  }
  const code = line.error?.code ?? '';
  if (UNANSWERED_CODES.has(code)) return undefined;
  return { status: 'failed', statusCode: 500, error: `${code === '' ? 'error' : code}: ${line.error?.message ?? 'the batch gave no response'}` };
}

function errorMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: { message?: unknown } }).error;
  return typeof error?.message === 'string' ? error.message : undefined;
}
