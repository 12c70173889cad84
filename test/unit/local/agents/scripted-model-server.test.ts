// The scripted model server answers as the frameworks' OpenAI clients expect: one call of the first
// tool offered, then — once a tool result is in the conversation — the final answer; chat
// completions and the Responses API, streamed or not; errors for what it does not serve.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTED_ANSWER, startScriptedModelServer } from '../../../../local/agents/scripted-model-server.ts';
import type { ScriptedModelServer } from '../../../../local/agents/scripted-model-server.ts';

let server: ScriptedModelServer;
beforeAll(async () => {
  server = await startScriptedModelServer();
});
afterAll(() => server.close());

const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];
const post = (path: string, body: unknown) => fetch(`${server.baseURL}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** The data payloads of a server-sent event stream. */
async function events(response: Response): Promise<unknown[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .map((block) => block.split('\n').find((line) => line.startsWith('data: '))?.slice(6))
    .filter((data): data is string => data !== undefined && data !== '[DONE]')
    .map((data) => JSON.parse(data) as unknown);
}

describe('the scripted model server', () => {
  it('chat completions: the tool call first, the answer once a tool result is in', async () => {
    const first = (await (await post('/chat/completions', { model: 'm', messages: [{ role: 'user', content: 'Weather?' }], tools })).json()) as { choices: Array<{ message: { tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> }; finish_reason: string }> };
    const call = first.choices[0]!.message.tool_calls[0]!;
    expect(call.function).toEqual({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    const second = (await (await post('/chat/completions', { model: 'm', tools, messages: [{ role: 'user', content: 'Weather?' }, { role: 'assistant', tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: 'sunny' }] })).json()) as { choices: Array<{ message: { content: string } }>; usage: { total_tokens: number } };
    expect(second.choices[0]!.message.content).toBe(SCRIPTED_ANSWER);
    expect(second.usage.total_tokens).toBe(51);
  });

  it('streamed chat completions: deltas that add up to the tool call, or to the answer, and the usage chunk when asked', async () => {
    const call = (await events(await post('/chat/completions', { messages: [], tools, stream: true, stream_options: { include_usage: true } }))) as Array<{ choices: Array<{ delta: { tool_calls?: Array<{ function: { name?: string; arguments: string } }> } }>; usage?: unknown }>;
    expect(call.flatMap((chunk) => chunk.choices.flatMap((choice) => choice.delta.tool_calls ?? [])).map((part) => part.function.arguments).join('')).toBe('{"city":"Paris"}');
    expect(call.at(-1)!.usage).toBeDefined();
    const answer = (await events(await post('/chat/completions', { messages: [], stream: true }))) as Array<{ choices: Array<{ delta: { content?: string } }> }>;
    expect(answer.flatMap((chunk) => chunk.choices.map((choice) => choice.delta.content ?? '')).join('')).toBe(SCRIPTED_ANSWER);
  });

  it('the Responses API, streamed or not', async () => {
    const first = (await (await post('/responses', { input: [{ type: 'message', role: 'user', content: 'Weather?' }], tools: [{ type: 'function', name: 'get_weather' }] })).json()) as { output: Array<{ type: string; call_id: string; name: string }> };
    expect(first.output[0]).toMatchObject({ type: 'function_call', name: 'get_weather' });
    const streamed = (await events(await post('/responses', { stream: true, tools: [{ type: 'function', name: 'get_weather' }], input: [{ type: 'function_call_output', call_id: first.output[0]!.call_id, output: 'sunny' }] }))) as Array<{ type: string; response?: { output: Array<{ content: Array<{ text: string }> }> } }>;
    expect(streamed.map((event) => event.type)).toEqual(['response.created', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
    expect(streamed.at(-1)!.response!.output[0]!.content[0]!.text).toBe(SCRIPTED_ANSWER);
  });

  it('says what it serves, and refuses a body that is not JSON', async () => {
    const missing = await post('/embeddings', {});
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toContain('/v1/chat/completions and /v1/responses');
    expect((await post('/chat/completions', '{not json')).status).toBe(400);
    expect(server.requests.some((request) => request.path.endsWith('/embeddings'))).toBe(true);
  });
});
