// Message-like attribute values of agent telemetry, read into one uniform shape whatever their
// dialect. Values may arrive as JSON strings or as structured attribute values; unknown items and
// parts are skipped, never fatal. The dialects, as the real frameworks write them
// (test/fixtures/otlp/):
//   - GenAI semantic conventions: `{ role, parts: [{ type: 'text' | 'tool_call' |
//     'tool_call_response' | 'reasoning', ... }] }` (gen_ai.input.messages / output.messages);
//   - the AI SDK's prompt messages `{ role, content: string | [{ type: 'text' | 'tool-call' |
//     'tool-result', ... }] }` (ai.prompt.messages, Mastra's agent input), Mastra's `{ text }`;
//   - OpenAI chat messages `{ role, content, tool_calls: [{ id, function: { name, arguments } }],
//     tool_call_id }` (OpenInference and OpenLLMetry flattened messages, once unflattened; GenAI
//     span events), and OpenAI Responses items (`message`, `function_call`,
//     `function_call_output`: the OpenAI Agents SDKs' input.value) and response objects;
//   - LangChain's serialised messages (`{ lc: 1, type: 'constructor', id: [..., 'AIMessage'],
//     kwargs }`), its dicts (`{ type: 'human' | 'ai' | 'tool', content, tool_calls }`), and the
//     wrappers around them (`{ messages }`, LangGraph's state; `{ generations }`; `{ output }`);
//   - Bedrock-style content blocks (`{ text }`, `{ toolUse }`, `{ toolResult }`: Strands' events);
//   - plain strings.
import type { OtlpValue } from './otlp-span.ts';

export type UniformToolCall = { id: string | undefined; name: string; args: unknown };
export type UniformToolResult = { id: string | undefined; name?: string; result: unknown; isError?: boolean };

export type UniformMessage = {
  role: 'user' | 'assistant' | 'system' | 'tool';
  texts: string[];
  reasoning: string[];
  toolCalls: UniformToolCall[];
  toolResults: UniformToolResult[];
};

/** A JSON string is parsed; anything else is returned as it is. Unparseable text stays text. */
export function jsonOrValue(value: OtlpValue | undefined): unknown {
  if (typeof value !== 'string') return value;
  const first = value.charCodeAt(0) === 32 || value.charCodeAt(0) === 10 ? value.trimStart().charAt(0) : value.charAt(0);
  if (first !== '[' && first !== '{') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * OpenLLMetry writes a decorated function's arguments and return value as JSON (`json.dumps`), so a
 * returned string arrives as a JSON string literal: that is unwrapped too.
 */
export function jsonEncoded(value: OtlpValue | undefined): unknown {
  if (typeof value === 'string' && value.startsWith('"') && value.endsWith('"')) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return jsonOrValue(value);
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function emptyMessage(role: UniformMessage['role']): UniformMessage {
  return { role, texts: [], reasoning: [], toolCalls: [], toolResults: [] };
}

/** Reads messages from an attribute value; a bare string is one message of `fallbackRole`. */
export function readMessages(value: unknown, fallbackRole: UniformMessage['role']): UniformMessage[] {
  const parsed = typeof value === 'string' ? jsonOrValue(value) : value;
  if (parsed === undefined || parsed === null || parsed === '') return [];
  if (typeof parsed === 'string') return [{ ...emptyMessage(fallbackRole), texts: [parsed] }];
  const messages: UniformMessage[] = [];
  collect(parsed, fallbackRole, messages, 0);
  return messages;
}

/** Walks lists and the wrappers frameworks put around message lists. */
function collect(value: unknown, fallbackRole: UniformMessage['role'], into: UniformMessage[], depth: number): void {
  if (depth > 4) return;
  if (typeof value === 'string') {
    if (value !== '') into.push({ ...emptyMessage(fallbackRole), texts: [value] });
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) collect(item, fallbackRole, into, depth + 1);
    return;
  }
  if (!isRecord(value)) return;
  // LangGraph's state and LangChain's chain inputs: { messages: [...] } (LLM spans: [[...]]).
  if (Array.isArray(value.messages) && value.role === undefined) return collect(value.messages, fallbackRole, into, depth + 1);
  // LangChain's LLM output: { generations: [[{ text, message }]] }.
  if (Array.isArray(value.generations)) {
    for (const generation of value.generations.flat()) {
      if (isRecord(generation)) collect(generation.message ?? generation.text, 'assistant', into, depth + 1);
    }
    return;
  }
  // An OpenAI Responses object: { object: 'response', output: [items] }.
  if (value.object === 'response' && Array.isArray(value.output)) return collect(value.output, 'assistant', into, depth + 1);
  // LangChain prompt and tool outputs: { output: ... } without a role.
  if (value.output !== undefined && value.role === undefined && value.type === undefined && value.lc === undefined) return collect(value.output, fallbackRole, into, depth + 1);
  const message = readMessage(value, fallbackRole);
  if (message !== undefined) into.push(message);
}

const LANGCHAIN_ROLES: Record<string, UniformMessage['role']> = {
  human: 'user',
  HumanMessage: 'user',
  HumanMessageChunk: 'user',
  ai: 'assistant',
  AIMessage: 'assistant',
  AIMessageChunk: 'assistant',
  system: 'system',
  SystemMessage: 'system',
  tool: 'tool',
  ToolMessage: 'tool',
  ToolMessageChunk: 'tool',
  function: 'tool',
  FunctionMessage: 'tool',
};

function roleOf(value: unknown, fallback: UniformMessage['role']): UniformMessage['role'] {
  if (value === 'user' || value === 'assistant' || value === 'system' || value === 'tool') return value;
  if (value === 'model') return 'assistant';
  // smolagents' own roles for the tool exchange it writes as text.
  if (value === 'tool-call') return 'assistant';
  if (value === 'tool-response') return 'tool';
  if (value === 'developer') return 'system';
  return typeof value === 'string' ? (LANGCHAIN_ROLES[value] ?? fallback) : fallback;
}

/** LangChain's serialised message (`lc: 1`) or its dict form (`{ type: 'ai', data? }`) → the OpenAI-like shape. */
function langChainMessage(item: Record<string, unknown>): Record<string, unknown> | undefined {
  if (item.lc === 1 && Array.isArray(item.id) && isRecord(item.kwargs)) {
    const kind = item.id.at(-1);
    const role = typeof kind === 'string' ? LANGCHAIN_ROLES[kind] : undefined;
    return role === undefined ? undefined : { ...item.kwargs, role };
  }
  if (typeof item.type === 'string' && item.role === undefined && LANGCHAIN_ROLES[item.type] !== undefined) {
    const body = isRecord(item.data) ? item.data : item;
    return { ...body, role: LANGCHAIN_ROLES[item.type] };
  }
  return undefined;
}

function readMessage(raw: Record<string, unknown>, fallbackRole: UniformMessage['role']): UniformMessage | undefined {
  // Responses items that are not messages: a function call, its output.
  if (raw.type === 'function_call' || raw.type === 'tool_call') {
    const name = stringOf(raw.name);
    if (name === undefined) return undefined;
    return { ...emptyMessage('assistant'), toolCalls: [{ id: stringOf(raw.call_id) ?? stringOf(raw.callId) ?? stringOf(raw.id), name, args: jsonOrValue(raw.arguments as OtlpValue) }] };
  }
  if (raw.type === 'function_call_output' || raw.type === 'function_call_result') {
    return { ...emptyMessage('tool'), toolResults: [{ id: stringOf(raw.call_id) ?? stringOf(raw.callId), result: resultValue(raw.output) }] };
  }
  const item = langChainMessage(raw) ?? raw;
  // Mastra's agent output: `{ text, ... }` without a role.
  if (item.role === undefined && item.parts === undefined && typeof item.text === 'string') return { ...emptyMessage(fallbackRole), texts: [item.text] };
  const message = emptyMessage(roleOf(item.role, fallbackRole));
  // OpenInference's multi-part form: `contents: [{ message_content: { type, text } }]`.
  const contents = Array.isArray(item.contents) ? item.contents.map((entry) => (isRecord(entry) && isRecord(entry.message_content) ? entry.message_content : entry)) : undefined;
  // OpenInference writes both forms for some frameworks (the OpenAI Agents SDK): `content` wins.
  const parts = Array.isArray(item.parts) ? item.parts : Array.isArray(item.content) ? item.content : typeof item.content === 'string' ? undefined : contents;
  if (typeof item.content === 'string') {
    if (message.role === 'tool') message.toolResults.push({ id: stringOf(item.tool_call_id) ?? stringOf(item.toolCallId) ?? stringOf(item.id), ...nameOf(item), result: jsonOrValue(item.content) });
    else if (item.content !== '') message.texts.push(item.content);
  }
  for (const part of parts ?? []) {
    if (typeof part === 'string') message.texts.push(part);
    else if (isRecord(part)) readPart(part, message, item);
  }
  // OpenAI chat (and LangChain) tool calls beside the content; LangChain keeps OpenAI's raw ones in additional_kwargs.
  const additional = isRecord(item.additional_kwargs) ? item.additional_kwargs.tool_calls : undefined;
  const calls = Array.isArray(item.tool_calls) && item.tool_calls.length > 0 ? item.tool_calls : Array.isArray(additional) ? additional : [];
  for (const call of calls) {
    const toolCall = readToolCall(call);
    if (toolCall !== undefined) message.toolCalls.push(toolCall);
  }
  // A message of tool results alone is the tools' answer whatever role it names: Gemini (Google
  // ADK) and Anthropic send function responses as the user's, which is no question.
  if (message.role === 'user' && message.toolResults.length > 0 && message.texts.length === 0 && message.toolCalls.length === 0) message.role = 'tool';
  return message;
}

const nameOf = (item: Record<string, unknown>) => (typeof item.name === 'string' ? { name: item.name } : {});

/** A tool call in any of its shapes: OpenAI's, LangChain's `{ name, args }`, OpenLLMetry's flat one, OpenInference's `{ tool_call }`. */
export function readToolCall(value: unknown): UniformToolCall | undefined {
  if (!isRecord(value)) return undefined;
  const call = isRecord(value.tool_call) ? value.tool_call : value;
  const fn = isRecord(call.function) ? call.function : call;
  const name = stringOf(fn.name) ?? stringOf(call.toolName);
  if (name === undefined) return undefined;
  return { id: stringOf(call.id) ?? stringOf(call.toolCallId) ?? stringOf(call.call_id), name, args: jsonOrValue((fn.arguments ?? call.args ?? call.input) as OtlpValue) };
}

/**
 * A GenAI `tool_call_response`'s response. Gemini's function responses are objects, so Google ADK
 * wraps a tool's plain return as `{ result }` (Gemini's docs name `output`): the value inside is the
 * tool's result.
 */
function unwrappedResponse(response: unknown): unknown {
  if (!isRecord(response)) return response;
  const keys = Object.keys(response);
  return keys.length === 1 && (keys[0] === 'result' || keys[0] === 'output') ? response[keys[0]] : response;
}

/** A tool's output as a result: text parts joined, JSON parsed; anything else as it is. */
function resultValue(output: unknown): unknown {
  if (Array.isArray(output)) {
    const texts = output.map((part) => (isRecord(part) ? (stringOf(part.text) ?? (part.json === undefined ? undefined : part.json)) : part)).filter((part) => part !== undefined);
    return texts.length === 1 ? resultValue(texts[0]) : texts;
  }
  return typeof output === 'string' ? jsonOrValue(output) : output;
}

function readPart(part: Record<string, unknown>, message: UniformMessage, item: Record<string, unknown>): void {
  switch (part.type) {
    case 'text':
    case 'input_text':
    case 'output_text': {
      const text = stringOf(part.content) ?? stringOf(part.text);
      if (text !== undefined && text !== '') message.texts.push(text);
      return;
    }
    case 'reasoning':
    case 'thinking': {
      const text = stringOf(part.content) ?? stringOf(part.text) ?? stringOf(part.thinking);
      if (text !== undefined) message.reasoning.push(text);
      return;
    }
    case 'tool_call':
    case 'tool-call':
    case 'tool_use': {
      const id = stringOf(part.id) ?? stringOf(part.toolCallId);
      const name = stringOf(part.name) ?? stringOf(part.toolName);
      if (name !== undefined) message.toolCalls.push({ id, name, args: jsonOrValue((part.arguments ?? part.input ?? part.args) as OtlpValue) });
      return;
    }
    case 'tool_call_response':
    case 'tool-result':
    case 'tool_result': {
      const id = stringOf(part.id) ?? stringOf(part.toolCallId) ?? stringOf(part.tool_use_id) ?? stringOf(item.tool_call_id);
      const output = unwrappedResponse(part.response) ?? part.result ?? part.output ?? part.content;
      // The AI SDK's tool results are `{ type: 'json' | 'text' | 'error-text' | ..., value }`.
      const typed = isRecord(output) && typeof output.type === 'string' && 'value' in output ? output : undefined;
      const name = stringOf(part.name) ?? stringOf(part.toolName);
      message.toolResults.push({
        id,
        ...(name === undefined ? {} : { name }),
        result: typed === undefined ? resultValue(output) : typed.value,
        ...((typed !== undefined && String(typed.type).startsWith('error')) || part.is_error === true ? { isError: true } : {}),
      });
      return;
    }
    case undefined:
      readContentBlock(part, message);
      return;
    default:
      return;
  }
}

/** Bedrock-style content blocks without a `type`: `{ text }`, `{ toolUse }`, `{ toolResult }`, `{ reasoningContent }`. */
function readContentBlock(part: Record<string, unknown>, message: UniformMessage): void {
  if (typeof part.text === 'string') {
    if (part.text !== '') message.texts.push(part.text);
  } else if (isRecord(part.toolUse)) {
    const name = stringOf(part.toolUse.name);
    if (name !== undefined) message.toolCalls.push({ id: stringOf(part.toolUse.toolUseId), name, args: jsonOrValue(part.toolUse.input as OtlpValue) });
  } else if (isRecord(part.toolResult)) {
    message.toolResults.push({ id: stringOf(part.toolResult.toolUseId), result: resultValue(part.toolResult.content), ...(part.toolResult.status === 'error' ? { isError: true } : {}) });
  } else if (isRecord(part.reasoningContent) && isRecord(part.reasoningContent.reasoningText) && typeof part.reasoningContent.reasoningText.text === 'string') {
    message.reasoning.push(part.reasoningContent.reasoningText.text);
  }
}
