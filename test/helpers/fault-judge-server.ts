// A fault-injecting OpenAI-compatible judge server for tests and benchmarks (node:http): answers
// POST …/chat/completions in the OpenAI format, or fails the way real providers brown out — 429
// with Retry-After, 500/503, or a request that hangs until the client gives up. Structured calls
// (`response_format: json_schema`) get the smallest JSON instance of the requested schema (one
// item per array, mid-range numbers); text calls get a short sentence. Every request is counted
// by what it got, so a test can assert how many attempts the service made.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPromptCache } from './prompt-cache.ts';
import type { PromptCacheRule } from './prompt-cache.ts';

export type FaultMode = 'ok' | '429' | '500' | '503' | 'hang';

/** Decides each request's fate by its 1-based number (over the server's life). */
export type FaultPlan = (requestNumber: number) => FaultMode;

export type FaultJudgeServer = {
  /** e.g. http://127.0.0.1:PORT/v1, for SCORESTREAM_JUDGE_BASE_URL or createOpenAICompatibleJudgeProvider. */
  readonly baseURL: string;
  /** Requests received, by the mode they were answered with. */
  readonly counts: Record<FaultMode, number>;
  readonly requests: number;
  /** Every request's body as received, parsed, in order (the answered and the failed). */
  readonly bodies: readonly OpenAIRequestBody[];
  /** Requests hanging right now. */
  readonly hanging: number;
  /** Every following request gets `mode` (or the plan's decision). */
  setPlan(plan: FaultMode | FaultPlan): void;
  close(): Promise<void>;
};

/** The brownout: every 11th request 429 (Retry-After: 1), every 13th 500, every 37th hangs. */
export const brownoutPlan: FaultPlan = (n) => (n % 37 === 0 ? 'hang' : n % 13 === 0 ? '500' : n % 11 === 0 ? '429' : 'ok');

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minItems?: number;
};

/** The smallest plausible instance of a JSON Schema (the subset zod and the AI SDK emit). */
export function instanceOf(schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum !== undefined) return schema.enum[0];
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (variant !== undefined) return instanceOf(variant);
  const type = Array.isArray(schema.type) ? schema.type.find((candidate) => candidate !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) result[key] = instanceOf(property);
      return result;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => instanceOf(schema.items));
    case 'number':
    case 'integer': {
      const low = schema.minimum ?? 0;
      const high = schema.maximum ?? 1;
      return type === 'integer' ? Math.ceil((low + high) / 2) : (low + high) / 2;
    }
    case 'boolean':
      return true;
    case 'string':
      return 'yes';
    default:
      return null;
  }
}

/** A request's body as text. */
export function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** What an answer reports as its usage, in OpenAI's shape (`prompt_tokens_details.cached_tokens` for prompt-cache reads). */
export type OpenAIUsage = { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details?: { cached_tokens: number }; completion_tokens_details?: { reasoning_tokens: number } };

const defaultUsage: OpenAIUsage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };

function completion(model: string, content: string, usage: OpenAIUsage) {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage,
  };
}

/** The server's answer to a chat completions request: the schema's smallest instance for a structured call, a sentence for a text call. */
export function chatCompletionFor(body: OpenAIRequestBody, usage: OpenAIUsage = defaultUsage) {
  const format = body.response_format;
  const content = format?.type === 'json_schema' ? JSON.stringify(instanceOf(format.json_schema?.schema)) : format?.type === 'json_object' ? '{}' : 'The answer addresses the question.';
  return completion(body.model ?? 'judge', content, usage);
}

/** What the server reads of a chat completions request. */
export type OpenAIRequestBody = { model?: string; messages?: unknown[]; response_format?: { type?: string; json_schema?: { schema?: JsonSchema } } };

/** The text a provider renders a request's prompt as, for the cache: the output schema, then the messages. */
export function renderedPrompt(body: OpenAIRequestBody): string {
  return JSON.stringify(body.response_format ?? null) + JSON.stringify(body.messages ?? []);
}

export type FaultJudgeServerOptions = {
  /** The usage every answer reports (default 100 in, 10 out); ignored with `promptCache`. */
  usage?: OpenAIUsage;
  /** Report usage as a provider with this prompt cache would (prompt-cache.ts): prompt tokens by the mock's count, cached tokens by the rule. */
  promptCache?: PromptCacheRule;
};

export async function startFaultJudgeServer(initial: FaultMode | FaultPlan = 'ok', options: FaultJudgeServerOptions = {}): Promise<FaultJudgeServer> {
  const cache = options.promptCache === undefined ? undefined : createPromptCache(options.promptCache);
  const usageOf = (body: OpenAIRequestBody): OpenAIUsage => {
    if (cache === undefined) return options.usage ?? defaultUsage;
    const { promptTokens, cachedTokens } = cache.read(renderedPrompt(body));
    return { prompt_tokens: promptTokens, completion_tokens: 10, total_tokens: promptTokens + 10, prompt_tokens_details: { cached_tokens: cachedTokens } };
  };
  const bodies: OpenAIRequestBody[] = [];
  let plan: FaultPlan = typeof initial === 'function' ? initial : () => initial;
  let requests = 0;
  const counts: Record<FaultMode, number> = { ok: 0, '429': 0, '500': 0, '503': 0, hang: 0 };
  const hanging = new Set<ServerResponse>();

  const server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${request.method} ${request.url}` } }));
        return;
      }
      const body = JSON.parse(await readBody(request)) as OpenAIRequestBody;
      bodies.push(body);
      requests += 1;
      const mode = plan(requests);
      counts[mode] += 1;
      if (mode === 'hang') {
        // Never answers; the client's abort closes the socket.
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return;
      }
      if (mode !== 'ok') {
        const status = Number(mode);
        const headers: Record<string, string> = { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '1' } : {}) };
        response.writeHead(status, headers).end(JSON.stringify({ error: { message: status === 429 ? 'Rate limit reached' : 'The server had an error', type: status === 429 ? 'rate_limit' : 'server_error' } }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(chatCompletionFor(body, usageOf(body))));
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    counts,
    get requests() {
      return requests;
    },
    bodies,
    get hanging() {
      return hanging.size;
    },
    setPlan(next) {
      plan = typeof next === 'function' ? next : () => next;
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
