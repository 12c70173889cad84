// Message-like attribute values of agent telemetry, read into one uniform shape whatever their
// dialect: the GenAI semantic conventions' `{ role, parts: [{ type: 'text' | 'tool_call' |
// 'tool_call_response' | 'reasoning', ... }] }` (gen_ai.input.messages / gen_ai.output.messages,
// written by @ai-sdk/otel and Mastra's OTel exporter), the AI SDK's prompt messages
// `{ role, content: string | [{ type: 'text' | 'tool-call' | 'tool-result', ... }] }`
// (ai.prompt.messages, Mastra's agent input), and plain strings. Values may arrive as JSON strings
// or as structured attribute values. Unknown parts are skipped, never fatal.
import type { OtlpValue } from './otlp-span.ts';

export type UniformToolCall = { id: string; name: string; args: unknown };
export type UniformToolResult = { id: string; name?: string; result: unknown; isError?: boolean };

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
  const text = value.trim();
  if (!(text.startsWith('[') || text.startsWith('{'))) return value;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return value;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Reads messages from an attribute value; a bare string is one message of `fallbackRole`. */
export function readMessages(value: OtlpValue | undefined, fallbackRole: UniformMessage['role']): UniformMessage[] {
  const parsed = jsonOrValue(value);
  if (parsed === undefined || parsed === null || parsed === '') return [];
  if (typeof parsed === 'string') return [{ ...emptyMessage(fallbackRole), texts: [parsed] }];
  const list = Array.isArray(parsed) ? parsed : [parsed];
  const messages: UniformMessage[] = [];
  for (const item of list) {
    if (typeof item === 'string') messages.push({ ...emptyMessage(fallbackRole), texts: [item] });
    else if (isRecord(item)) {
      const message = readMessage(item, fallbackRole);
      if (message !== undefined) messages.push(message);
    }
  }
  return messages;
}

function emptyMessage(role: UniformMessage['role']): UniformMessage {
  return { role, texts: [], reasoning: [], toolCalls: [], toolResults: [] };
}

function roleOf(value: unknown, fallback: UniformMessage['role']): UniformMessage['role'] {
  return value === 'user' || value === 'assistant' || value === 'system' || value === 'tool' ? value : fallback;
}

function readMessage(item: Record<string, unknown>, fallbackRole: UniformMessage['role']): UniformMessage | undefined {
  // Mastra's agent output: `{ text, ... }` without a role.
  if (item.role === undefined && item.parts === undefined && typeof item.text === 'string') return { ...emptyMessage(fallbackRole), texts: [item.text] };
  const message = emptyMessage(roleOf(item.role, fallbackRole));
  const parts = Array.isArray(item.parts) ? item.parts : Array.isArray(item.content) ? item.content : undefined;
  if (typeof item.content === 'string') message.texts.push(item.content);
  for (const part of parts ?? []) {
    if (typeof part === 'string') message.texts.push(part);
    else if (isRecord(part)) readPart(part, message);
  }
  return message;
}

function readPart(part: Record<string, unknown>, message: UniformMessage): void {
  switch (part.type) {
    case 'text': {
      const text = stringOf(part.content) ?? stringOf(part.text);
      if (text !== undefined) message.texts.push(text);
      return;
    }
    case 'reasoning': {
      const text = stringOf(part.content) ?? stringOf(part.text);
      if (text !== undefined) message.reasoning.push(text);
      return;
    }
    case 'tool_call':
    case 'tool-call': {
      const id = stringOf(part.id) ?? stringOf(part.toolCallId);
      const name = stringOf(part.name) ?? stringOf(part.toolName);
      if (id !== undefined && name !== undefined) message.toolCalls.push({ id, name, args: jsonOrValue((part.arguments ?? part.input ?? part.args) as OtlpValue) });
      return;
    }
    case 'tool_call_response':
    case 'tool-result': {
      const id = stringOf(part.id) ?? stringOf(part.toolCallId);
      if (id === undefined) return;
      const output = part.response ?? part.result ?? part.output;
      // The AI SDK's tool results are `{ type: 'json' | 'text' | 'error-text' | ..., value }`.
      const typed = isRecord(output) && typeof output.type === 'string' && 'value' in output ? output : undefined;
      message.toolResults.push({
        id,
        ...(stringOf(part.name) ?? stringOf(part.toolName) ? { name: stringOf(part.name) ?? stringOf(part.toolName)! } : {}),
        result: typed === undefined ? output : typed.value,
        ...(typed !== undefined && String(typed.type).startsWith('error') ? { isError: true } : {}),
      });
      return;
    }
    default:
      return;
  }
}
