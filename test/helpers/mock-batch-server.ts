// A batch-API server for tests (node:http) in both providers' shapes: OpenAI's Batch API (`POST
// /v1/files` multipart with purpose `batch`, `POST /v1/batches`, `GET /v1/batches/{id}`, `GET
// /v1/files/{id}/content`, cancel) and Anthropic's Message Batches (`POST /v1/messages/batches`,
// `GET /v1/messages/batches/{id}`, `GET …/results`, cancel). Each request is answered as the live
// mock judges answer it (fault-judge-server.ts, anthropic-judge-server.ts), so a batch answer and
// a live answer to the same body agree. What a test controls: when batches end (by hand, or after
// a time), which requests fail inside a batch, which expire, and whether the server offers batches
// at all. It counts what it was sent, so a test can assert that nothing was submitted twice.
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicMessageFor } from './anthropic-judge-server.ts';
import type { AnthropicRequestBody } from './anthropic-judge-server.ts';
import { chatCompletionFor, readBody } from './fault-judge-server.ts';
import type { OpenAIRequestBody } from './fault-judge-server.ts';

type Shape = 'openai' | 'anthropic';
type Line = { customId: string; body: unknown };
type Outcome = 'succeeded' | 'failed' | 'expired';
type Batch = { id: string; shape: Shape; url: string; lines: Line[]; inputFileId?: string; createdAt: number; ended: boolean; cancelled: boolean; outcomes: Map<string, Outcome>; rejected?: number[] };

export type MockBatchServerOptions = {
  /** When a batch ends: by hand (`complete`), or on the first poll this long after its creation (default 0: at once). */
  completeAfterMs?: number | 'manual';
  /** Which requests fail inside their batch (400 from OpenAI, an `errored` invalid_request_error from Anthropic), by custom id and position over the server's life. */
  fails?: (customId: string, index: number) => boolean;
  /** OpenAI shape: the HTTP status a failed request's line carries (default 400; 500 or 429 for a transient failure). */
  failStatus?: number;
  /** Which requests expire when their batch ends (OpenAI's batch_expired, Anthropic's `expired`): not answered. */
  expires?: (customId: string, index: number) => boolean;
  /** OpenAI only: lines its validation refuses — the whole batch then fails at once (status `failed`, the lines named in `errors`), running nothing. */
  rejects?: (customId: string) => boolean;
  /** No batch API at all: every batch route answers 404, as a plain OpenAI-compatible server does. */
  refuse?: boolean;
};

export type MockBatchServer = {
  /** e.g. http://127.0.0.1:PORT/v1, the provider's base URL. */
  readonly baseURL: string;
  readonly batchesCreated: number;
  readonly polls: number;
  /** Live chat completions it answered outside any batch. */
  readonly liveCalls: number;
  /** How many times each custom id was submitted, over every batch. */
  readonly submissions: ReadonlyMap<string, number>;
  /** The batches as created, with their lines' custom ids and bodies. */
  readonly batches: ReadonlyArray<{ id: string; shape: Shape; customIds: string[]; bodies: unknown[] }>;
  /** Ends the batch (or every open batch): its requests answered but for those that fail or expire. */
  complete(batchId?: string): void;
  close(): Promise<void>;
};

export async function startMockBatchServer(options: MockBatchServerOptions = {}): Promise<MockBatchServer> {
  const batches = new Map<string, Batch>();
  const files = new Map<string, string>();
  const submissions = new Map<string, number>();
  let requestIndex = 0;
  let polls = 0;
  let liveCalls = 0;
  let sequence = 0;
  let baseURL = '';

  const end = (batch: Batch) => {
    if (batch.ended) return;
    batch.ended = true;
    for (const line of batch.lines) {
      const index = requestIndex++;
      const outcome: Outcome = batch.cancelled || options.expires?.(line.customId, index) === true ? 'expired' : options.fails?.(line.customId, index) === true ? 'failed' : 'succeeded';
      batch.outcomes.set(line.customId, outcome);
    }
  };
  const settle = (batch: Batch) => {
    const after = options.completeAfterMs ?? 0;
    if (after !== 'manual' && Date.now() - batch.createdAt >= after) end(batch);
  };
  const create = (shape: Shape, url: string, lines: Line[], inputFileId?: string): Batch => {
    const id = shape === 'openai' ? `batch_${++sequence}` : `msgbatch_${++sequence}`;
    for (const line of lines) submissions.set(line.customId, (submissions.get(line.customId) ?? 0) + 1);
    const batch: Batch = { id, shape, url, lines, createdAt: Date.now(), ended: false, cancelled: false, outcomes: new Map(), ...(inputFileId === undefined ? {} : { inputFileId }) };
    batches.set(id, batch);
    return batch;
  };

  const openAIBatch = (batch: Batch) => {
    const count = (outcome: Outcome) => [...batch.outcomes.values()].filter((value) => value === outcome).length;
    if (batch.rejected !== undefined) {
      return { id: batch.id, object: 'batch', endpoint: batch.url, input_file_id: batch.inputFileId, status: 'failed', output_file_id: null, error_file_id: null, errors: { object: 'list', data: batch.rejected.map((line) => ({ code: 'invalid_request', message: 'the line is not a valid request', param: 'body', line })) } };
    }
    const status = !batch.ended ? 'in_progress' : batch.cancelled ? 'cancelled' : count('expired') > 0 ? 'expired' : 'completed';
    return {
      id: batch.id,
      object: 'batch',
      endpoint: batch.url,
      input_file_id: batch.inputFileId,
      completion_window: '24h',
      status,
      output_file_id: batch.ended ? `file-out-${batch.id}` : null,
      error_file_id: batch.ended && count('succeeded') < batch.lines.length ? `file-err-${batch.id}` : null,
      request_counts: { total: batch.lines.length, completed: count('succeeded'), failed: count('failed') + count('expired') },
    };
  };
  const anthropicBatch = (batch: Batch) => ({
    id: batch.id,
    type: 'message_batch',
    processing_status: batch.ended ? 'ended' : batch.cancelled ? 'canceling' : 'in_progress',
    request_counts: { processing: batch.ended ? 0 : batch.lines.length, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
    results_url: batch.ended ? `${baseURL}/messages/batches/${batch.id}/results` : null,
  });
  const openAIFile = (fileId: string): string | undefined => {
    const input = files.get(fileId);
    if (input !== undefined) return input;
    const match = /^file-(out|err)-(.+)$/.exec(fileId);
    const batch = match === null ? undefined : batches.get(match[2]!);
    if (batch === undefined || !batch.ended) return undefined;
    const lines = batch.lines.flatMap((line): object[] => {
      const outcome = batch.outcomes.get(line.customId);
      if (match![1] === 'out') return outcome === 'succeeded' ? [{ id: `req_${line.customId.slice(0, 8)}`, custom_id: line.customId, response: { status_code: 200, request_id: 'r', body: chatCompletionFor(line.body as OpenAIRequestBody) }, error: null }] : [];
      if (outcome === 'failed') {
        const status = options.failStatus ?? 400;
        const error = status === 400 ? { message: 'Invalid request inside the batch', type: 'invalid_request_error' } : { message: 'The server had an error while processing your request', type: 'server_error' };
        return [{ id: 'req', custom_id: line.customId, response: { status_code: status, request_id: 'r', body: { error } }, error: null }];
      }
      if (outcome === 'expired') return [{ id: 'req', custom_id: line.customId, response: null, error: { code: batch.cancelled ? 'batch_cancelled' : 'batch_expired', message: 'This request could not be executed before the completion window expired.' } }];
      return [];
    });
    return lines.map((line) => JSON.stringify(line)).join('\n');
  };
  const anthropicResults = (batch: Batch): string =>
    batch.lines
      .map((line) => {
        const outcome = batch.outcomes.get(line.customId);
        const result =
          outcome === 'succeeded' ? { type: 'succeeded', message: anthropicMessageFor(line.body as AnthropicRequestBody) }
          : outcome === 'failed' ? { type: 'errored', error: { type: 'error', error: { type: 'invalid_request_error', message: 'Invalid request inside the batch' } } }
          : { type: batch.cancelled ? 'canceled' : 'expired' };
        return JSON.stringify({ custom_id: line.customId, result });
      })
      .join('\n');

  const route = async (method: string, path: string, contentType: string, body: Buffer): Promise<[number, unknown]> => {
    if (options.refuse === true) return [404, { error: { message: `no route ${method} ${path}` } }];
    const anthropic = /^\/v1\/messages\/batches(?:\/([^/?]+))?(\/results|\/cancel)?(?:\?.*)?$/.exec(path);
    if (anthropic !== null) {
      const [, id, tail] = anthropic;
      if (id === undefined && method === 'GET') return [200, { data: [], has_more: false }];
      if (id === undefined && method === 'POST') {
        const requests = (JSON.parse(body.toString('utf8')) as { requests: Array<{ custom_id: string; params: unknown }> }).requests;
        return [200, anthropicBatch(create('anthropic', '/v1/messages', requests.map((request) => ({ customId: request.custom_id, body: request.params }))))];
      }
      const batch = batches.get(id ?? '');
      if (batch === undefined) return [404, { type: 'error', error: { type: 'not_found_error', message: `no batch ${id}` } }];
      if (tail === '/cancel') {
        batch.cancelled = true;
        end(batch);
        return [200, anthropicBatch(batch)];
      }
      if (tail === '/results') return batch.ended ? [200, anthropicResults(batch)] : [400, { type: 'error', error: { type: 'invalid_request_error', message: 'the batch has not ended' } }];
      polls += 1;
      settle(batch);
      return [200, anthropicBatch(batch)];
    }
    // A live call, as the provider answers one outside any batch (a binding's live fallback).
    if (method === 'POST' && path === '/v1/chat/completions') {
      liveCalls += 1;
      return [200, chatCompletionFor(JSON.parse(body.toString('utf8')) as OpenAIRequestBody)];
    }
    if (method === 'POST' && path === '/v1/files') {
      const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
      const file = form.get('file');
      if (form.get('purpose') !== 'batch' || !(file instanceof Blob)) return [400, { error: { message: 'purpose must be batch, with a file' } }];
      const id = `file-in-${++sequence}`;
      files.set(id, await file.text());
      return [200, { id, object: 'file', purpose: 'batch', bytes: file.size }];
    }
    const content = /^\/v1\/files\/([^/]+)\/content$/.exec(path);
    if (method === 'GET' && content !== null) {
      const text = openAIFile(content[1]!);
      return text === undefined ? [404, { error: { message: `no file ${content[1]}` } }] : [200, text];
    }
    const openai = /^\/v1\/batches(?:\/([^/?]+))?(\/cancel)?(?:\?.*)?$/.exec(path);
    if (openai === null) return [404, { error: { message: `no route ${method} ${path}` } }];
    const [, id, cancel] = openai;
    if (id === undefined && method === 'GET') return [200, { object: 'list', data: [] }];
    if (id === undefined && method === 'POST') {
      const request = JSON.parse(body.toString('utf8')) as { input_file_id: string; endpoint: string };
      const input = files.get(request.input_file_id);
      if (input === undefined) return [400, { error: { message: `no file ${request.input_file_id}` } }];
      const lines = input.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as { custom_id: string; url: string; body: unknown });
      if (lines.some((line) => line.url !== request.endpoint)) return [400, { error: { message: 'every line must name the batch endpoint' } }];
      const batch = create('openai', request.endpoint, lines.map((line) => ({ customId: line.custom_id, body: line.body })), request.input_file_id);
      const rejected = lines.flatMap((line, index) => (options.rejects?.(line.custom_id) === true ? [index + 1] : []));
      if (rejected.length > 0) {
        batch.rejected = rejected;
        batch.ended = true;
      }
      return [200, openAIBatch(batch)];
    }
    const batch = batches.get(id ?? '');
    if (batch === undefined) return [404, { error: { message: `no batch ${id}` } }];
    if (cancel !== undefined) {
      batch.cancelled = true;
      end(batch);
      return [200, openAIBatch(batch)];
    }
    polls += 1;
    settle(batch);
    return [200, openAIBatch(batch)];
  };

  const reply = (response: ServerResponse, status: number, payload: unknown) => {
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
    response.writeHead(status, { 'content-type': typeof payload === 'string' ? 'application/jsonl' : 'application/json' }).end(text);
  };
  const server = createServer((request, response) => {
    void (async () => {
      const body = Buffer.from(await readBody(request), 'utf8');
      const [status, payload] = await route(request.method ?? 'GET', request.url ?? '/', request.headers['content-type'] ?? '', body);
      reply(response, status, payload);
    })().catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, { error: { message: String(error) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    baseURL,
    get batchesCreated() {
      return batches.size;
    },
    get polls() {
      return polls;
    },
    get liveCalls() {
      return liveCalls;
    },
    submissions,
    get batches() {
      return [...batches.values()].map((batch) => ({ id: batch.id, shape: batch.shape, customIds: batch.lines.map((line) => line.customId), bodies: batch.lines.map((line) => line.body) }));
    },
    complete(batchId) {
      for (const batch of batches.values()) if (batchId === undefined || batch.id === batchId) end(batch);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
