// A deterministic OpenAI-compatible model server for the real agent frameworks (local/agents/):
// every framework's tool-calling agent runs against it exactly as against a provider. The script
// is one tool-calling turn: a request that offers tools and carries no tool result yet is
// answered with one call of the first tool offered (`{"city":"Paris"}`); once a tool result is in
// the conversation, with the final answer. A request without tools (a title, a summary) gets the
// final answer too. One exception, for the agents that finish only by calling a built-in
// `final_answer` tool (smolagents): when the request offers a tool of that name, the first call is
// of the first tool that is not `final_answer`; once a tool result is in the conversation, the
// reply is a call of `final_answer` with `{"answer": SCRIPTED_ANSWER}`; once that call's result is
// in too, the final answer as text. smolagents writes its transcript as text — its calls as an
// assistant "Calling tools:\n[{… 'name': 'get_weather' …}]", their results as a user
// "Observation:\n…" — so those count as calls and results there too. Requests that do not offer
// `final_answer` are answered exactly as before.
// DSPy's ReAct makes no API tool calls: its ChatAdapter prompts for text fields, each opened by
// `[[ ## name ## ]]` and the reply closed by `[[ ## completed ## ]]`. A chat request whose system
// message lists DSPy's output fields ("Your output fields are: 1. `next_thought` …") is answered
// in that format, field by field: a ReAct step (its fields next_thought, next_tool_name,
// next_tool_args) names the first tool its next_tool_name Literal offers with
// `{"city":"Paris"}`, or, once the trajectory holds an observation, `finish` with `{}`; the
// extract step (reasoning, answer) gives SCRIPTED_ANSWER as the answer. Other requests never
// carry that system message, and are answered as before.
// Both APIs the frameworks use by default are served, streamed or not:
//   - POST …/chat/completions (LangChain, Strands, pydantic-ai, OpenLLMetry, the AI SDK, Mastra, DSPy, CrewAI);
//   - POST …/responses (the OpenAI Agents SDKs, Python and JS).
// Loopback only; every request is kept (path, body) so a capture can say what the agent sent.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SCRIPTED_TOOL_ARGUMENTS = { city: 'Paris' };
export const SCRIPTED_ANSWER = 'It is sunny in Paris, 21°C.';
export const SCRIPTED_MODEL = 'scripted-model';
const USAGE = { prompt: 42, completion: 9 };

export type ScriptedModelServer = {
  /** e.g. http://127.0.0.1:PORT/v1: the OpenAI base URL to hand a framework. */
  readonly baseURL: string;
  readonly requests: ReadonlyArray<{ path: string; body: unknown }>;
  close(): Promise<void>;
};

type ChatMessage = { role?: string; content?: unknown; tool_calls?: Array<{ function?: { name?: string } }> };
type Tool = { type?: string; name?: string; function?: { name?: string } };
/** An answer's text is SCRIPTED_ANSWER unless it says otherwise (DSPy's fields). */
type Turn = { kind: 'tool_call'; tool: string; callId: string; arguments: Record<string, unknown> } | { kind: 'answer'; text?: string };
/**
 * What the conversation so far holds: whether a tool's result is in, and which tools were called —
 * as the API carries them, and (`transcript`) as smolagents writes them in its messages' text,
 * which only the `final_answer` script reads.
 */
type Conversation = { hasToolResult: boolean; calledTools: readonly string[]; transcript?: { hasToolResult: boolean; calledTools: readonly string[] } };

/** The built-in tool smolagents' agents finish with (its FinalAnswerTool). */
const FINAL_ANSWER_TOOL = 'final_answer';

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${(counter += 1).toString().padStart(6, '0')}`;

/** What the script says next, from the request's tools and what the conversation already holds. */
function nextTurn(tools: Tool[] | undefined, conversation: Conversation): Turn {
  const names = (tools ?? []).map((entry) => entry.function?.name ?? entry.name).filter((name): name is string => typeof name === 'string');
  if (names.includes(FINAL_ANSWER_TOOL)) return finalAnswerTurn(names, conversation);
  const tool = names[0];
  if (tool === undefined || conversation.hasToolResult) return { kind: 'answer' };
  return { kind: 'tool_call', tool, callId: nextId('call'), arguments: SCRIPTED_TOOL_ARGUMENTS };
}

/** The script of an agent that finishes by calling `final_answer`: the task's tool, then `final_answer`, then text. */
function finalAnswerTurn(names: string[], conversation: Conversation): Turn {
  const hasToolResult = conversation.hasToolResult || conversation.transcript?.hasToolResult === true;
  const calledTools = [...conversation.calledTools, ...(conversation.transcript?.calledTools ?? [])];
  if (hasToolResult && calledTools.includes(FINAL_ANSWER_TOOL)) return { kind: 'answer' };
  const tool = names.find((name) => name !== FINAL_ANSWER_TOOL);
  if (hasToolResult || tool === undefined) return { kind: 'tool_call', tool: FINAL_ANSWER_TOOL, callId: nextId('call'), arguments: { answer: SCRIPTED_ANSWER } };
  return { kind: 'tool_call', tool, callId: nextId('call'), arguments: SCRIPTED_TOOL_ARGUMENTS };
}

/** A message's text, whether its content is a string or a list of parts. */
function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '')).join('\n');
}

/** A chat conversation's tool calls and results: as tool_calls / `tool` messages, or as smolagents writes them in text. */
function chatConversation(messages: ChatMessage[]): Conversation {
  const conversation = { hasToolResult: false, calledTools: [] as string[], transcript: { hasToolResult: false, calledTools: [] as string[] } };
  for (const message of messages) {
    if (message.role === 'tool') conversation.hasToolResult = true;
    for (const call of message.tool_calls ?? []) if (typeof call.function?.name === 'string') conversation.calledTools.push(call.function.name);
    const text = messageText(message.content);
    if (message.role === 'user' && /^Observation:/m.test(text)) conversation.transcript.hasToolResult = true;
    // "Calling tools:\n[{'id': …, 'type': 'function', 'function': {'name': 'get_weather', 'arguments': {…}}}]"
    if (message.role === 'assistant') for (const call of text.matchAll(/^Calling tools:\n.*/gm)) for (const name of call[0].matchAll(/'name': '([^']+)'/g)) conversation.transcript.calledTools.push(name[1]!);
  }
  return conversation;
}

/** The tool ReAct finishes with (DSPy's built-in `finish`). */
const DSPY_FINISH_TOOL = 'finish';

/**
 * DSPy's ChatAdapter reply, when the request is DSPy's: its system message lists the output
 * fields ("Your output fields are:\n1. `next_thought` (str): …") and shows the
 * `[[ ## completed ## ]]` marker. Undefined for every other request.
 */
function dspyTurn(messages: ChatMessage[]): Turn | undefined {
  const system = messages.find((message) => message.role === 'system');
  const prompt = system === undefined ? '' : messageText(system.content);
  const outputs = /^Your output fields are:\n((?:\d+\. `\w+`.*\n?)+)/m.exec(prompt);
  if (outputs === null || !prompt.includes('[[ ## completed ## ]]')) return undefined;
  const fields = [...outputs[1]!.matchAll(/^\d+\. `(\w+)`(.*)$/gm)].map((match) => ({ name: match[1]!, type: match[2]! }));
  const conversation = messages.filter((message) => message.role !== 'system').map((message) => messageText(message.content)).join('\n');
  const observed = /\[\[ ## observation_\d+ ## \]\]/.test(conversation);
  // `next_tool_name` (Literal['get_weather', 'finish']): the first tool that is not `finish`.
  const offered = [...(fields.find((field) => field.name === 'next_tool_name')?.type.matchAll(/'([^']+)'/g) ?? [])].map((match) => match[1]!);
  const tool = observed ? undefined : offered.find((name) => name !== DSPY_FINISH_TOOL);
  const value = (name: string): string => {
    switch (name) {
      case 'next_thought':
        return tool === undefined ? 'I have the weather in Paris, so I can finish.' : `I should call ${tool} for Paris.`;
      case 'next_tool_name':
        return tool ?? DSPY_FINISH_TOOL;
      case 'next_tool_args':
        return JSON.stringify(tool === undefined ? {} : SCRIPTED_TOOL_ARGUMENTS);
      case 'reasoning':
        return 'get_weather says it is sunny, 21°C in Paris.';
      default:
        return SCRIPTED_ANSWER;
    }
  };
  return { kind: 'answer', text: `${fields.map((field) => `[[ ## ${field.name} ## ]]\n${value(field.name)}\n\n`).join('')}[[ ## completed ## ]]` };
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function sendEvents(response: ServerResponse, events: Array<{ event?: string; data: unknown }>, done: boolean) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const { event, data } of events) response.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
  if (done) response.write('data: [DONE]\n\n');
  response.end();
}

function chatCompletion(body: { model?: string; messages?: ChatMessage[]; tools?: Tool[]; stream?: boolean; stream_options?: { include_usage?: boolean } }, response: ServerResponse) {
  const turn = dspyTurn(body.messages ?? []) ?? nextTurn(body.tools, chatConversation(body.messages ?? []));
  const id = nextId('chatcmpl');
  const answer = turn.kind === 'answer' ? (turn.text ?? SCRIPTED_ANSWER) : undefined;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model ?? SCRIPTED_MODEL;
  const usage = { prompt_tokens: USAGE.prompt, completion_tokens: USAGE.completion, total_tokens: USAGE.prompt + USAGE.completion };
  const toolCall = turn.kind === 'tool_call' ? { id: turn.callId, type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.arguments) } } : undefined;
  const finishReason = turn.kind === 'tool_call' ? 'tool_calls' : 'stop';
  if (body.stream !== true) {
    const message = toolCall === undefined ? { role: 'assistant', content: answer } : { role: 'assistant', content: null, tool_calls: [toolCall] };
    sendJson(response, 200, { id, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }], usage });
    return;
  }
  const chunk = (delta: unknown, finish: string | null) => ({ data: { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] } });
  const events: Array<{ data: unknown }> = [chunk({ role: 'assistant', content: '' }, null)];
  if (toolCall === undefined) for (const piece of answer?.match(/.{1,8}/gsu) ?? []) events.push(chunk({ content: piece }, null));
  else {
    events.push(chunk({ tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.function.name, arguments: '' } }] }, null));
    events.push(chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }, null));
  }
  events.push(chunk({}, finishReason));
  if (body.stream_options?.include_usage === true) events.push({ data: { id, object: 'chat.completion.chunk', created, model, choices: [], usage } });
  sendEvents(response, events, true);
}

type ResponsesItem = { type?: string; role?: string; name?: string };

function responsesCall(body: { model?: string; input?: string | ResponsesItem[]; tools?: Tool[]; stream?: boolean; instructions?: string }, response: ServerResponse) {
  const items = typeof body.input === 'string' ? [] : (body.input ?? []);
  const hasToolResult = items.some((item) => item.type === 'function_call_output');
  const calledTools = items.flatMap((item) => (item.type === 'function_call' && typeof item.name === 'string' ? [item.name] : []));
  const turn = nextTurn(body.tools?.filter((tool) => tool.type === 'function'), { hasToolResult, calledTools });
  const id = nextId('resp');
  const output =
    turn.kind === 'tool_call'
      ? [{ type: 'function_call', id: nextId('fc'), call_id: turn.callId, name: turn.tool, arguments: JSON.stringify(turn.arguments), status: 'completed' }]
      : [{ type: 'message', id: nextId('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: SCRIPTED_ANSWER, annotations: [] }] }];
  const result = {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model: body.model ?? SCRIPTED_MODEL,
    output,
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: body.tools ?? [],
    instructions: body.instructions ?? null,
    usage: { input_tokens: USAGE.prompt, output_tokens: USAGE.completion, total_tokens: USAGE.prompt + USAGE.completion, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    error: null,
    incomplete_details: null,
    metadata: {},
    temperature: 1,
    top_p: 1,
    text: { format: { type: 'text' } },
  };
  if (body.stream !== true) {
    sendJson(response, 200, result);
    return;
  }
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) => ({ event: type, data: { type, sequence_number: sequence++, ...data } });
  const events = [event('response.created', { response: { ...result, status: 'in_progress', output: [] } })];
  output.forEach((item, index) => {
    events.push(event('response.output_item.added', { output_index: index, item }));
    events.push(event('response.output_item.done', { output_index: index, item }));
  });
  events.push(event('response.completed', { response: result }));
  sendEvents(response, events, false);
}

export async function startScriptedModelServer(): Promise<ScriptedModelServer> {
  const requests: Array<{ path: string; body: unknown }> = [];
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0]!;
    if (request.method === 'GET' && path.endsWith('/models')) {
      sendJson(response, 200, { object: 'list', data: [{ id: SCRIPTED_MODEL, object: 'model', created: 0, owned_by: 'scorestream' }] });
      return;
    }
    readBody(request).then(
      (body) => {
        requests.push({ path, body });
        if (request.method === 'POST' && path.endsWith('/chat/completions')) chatCompletion(body as Parameters<typeof chatCompletion>[0], response);
        else if (request.method === 'POST' && path.endsWith('/responses')) responsesCall(body as Parameters<typeof responsesCall>[0], response);
        else sendJson(response, 404, { error: { message: `the scripted model server serves POST /v1/chat/completions and /v1/responses, not ${request.method} ${path}`, type: 'not_found' } });
      },
      () => sendJson(response, 400, { error: { message: 'the request body is not JSON', type: 'invalid_request_error' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
