// A judge server in Anthropic's shape (node:http), for the real provider path through
// @ai-sdk/anthropic: POST …/v1/messages answered in the Messages API format — structured calls
// by native structured output (`output_config.format`) or the forced `json` tool, text calls
// with a sentence — with usage as Anthropic reports it: `input_tokens` (the uncached rest),
// `cache_read_input_tokens` and `cache_creation_input_tokens` for the prefix up to a
// `cache_control` breakpoint (prompt-cache.ts), 10 output tokens. Every request body is kept.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { instanceOf, readBody } from './fault-judge-server.ts';
import { createPromptCache } from './prompt-cache.ts';

type Block = { type?: string; text?: string; cache_control?: unknown };
type Schema = Parameters<typeof instanceOf>[0];
export type AnthropicRequestBody = {
  model?: string;
  system?: string | Block[];
  messages?: { role: string; content: string | Block[] }[];
  tools?: { name: string; input_schema?: Schema }[];
  output_config?: { format?: { schema?: Schema } };
};

export type AnthropicJudgeServer = {
  /** e.g. http://127.0.0.1:PORT/v1, for createAnthropic({ baseURL }). */
  readonly baseURL: string;
  readonly bodies: readonly AnthropicRequestBody[];
  close(): Promise<void>;
};

function blocksOf(content: string | Block[] | undefined): Block[] {
  if (content === undefined) return [];
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** The request's prompt as text (tools, system, then each message's blocks) and where its cache breakpoints end. */
export function renderedAnthropicPrompt(body: AnthropicRequestBody): { text: string; breakpoints: number[] } {
  let text = JSON.stringify(body.tools ?? null) + JSON.stringify(body.output_config ?? null);
  const breakpoints: number[] = [];
  const add = (block: Block) => {
    text += block.type === 'text' ? (block.text ?? '') : JSON.stringify(block);
    if (block.cache_control !== undefined) breakpoints.push(text.length);
  };
  blocksOf(body.system).forEach(add);
  for (const message of body.messages ?? []) {
    text += `\n${message.role}:`;
    blocksOf(message.content).forEach(add);
  }
  return { text, breakpoints };
}

function contentFor(body: AnthropicRequestBody): { content: unknown[]; stopReason: string } {
  const nativeSchema = body.output_config?.format?.schema;
  if (nativeSchema !== undefined) return { content: [{ type: 'text', text: JSON.stringify(instanceOf(nativeSchema)) }], stopReason: 'end_turn' };
  const jsonTool = body.tools?.find((tool) => tool.name === 'json');
  if (jsonTool !== undefined) return { content: [{ type: 'tool_use', id: `toolu_${Math.random().toString(36).slice(2)}`, name: 'json', input: instanceOf(jsonTool.input_schema) }], stopReason: 'tool_use' };
  return { content: [{ type: 'text', text: 'The answer addresses the question.' }], stopReason: 'end_turn' };
}

export type AnthropicUsage = { input_tokens: number; output_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number };

/** The server's answer to a Messages request, in the Messages API format. */
export function anthropicMessageFor(body: AnthropicRequestBody, usage: AnthropicUsage = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }) {
  const { content, stopReason } = contentFor(body);
  return { id: `msg_${Math.random().toString(36).slice(2)}`, type: 'message', role: 'assistant', model: body.model ?? 'claude', content, stop_reason: stopReason, stop_sequence: null, usage };
}

export async function startAnthropicJudgeServer(): Promise<AnthropicJudgeServer> {
  const cache = createPromptCache();
  const bodies: AnthropicRequestBody[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || !request.url?.endsWith('/messages')) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${request.method} ${request.url}` } }));
        return;
      }
      const body = JSON.parse(await readBody(request)) as AnthropicRequestBody;
      bodies.push(body);
      const { text, breakpoints } = renderedAnthropicPrompt(body);
      const { inputTokens, cacheRead, cacheWrite } = cache.readMarked(text, breakpoints);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(anthropicMessageFor(body, { input_tokens: inputTokens, output_tokens: 10, cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: cacheRead })));
    })().catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    bodies,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
