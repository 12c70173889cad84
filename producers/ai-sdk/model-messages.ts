// What an app passed to an AI SDK call (`instructions` / `system`, `prompt` or `messages`) in the
// run contract's shapes: system prompts as CoreSystemMessages, and the conversation as Mastra
// DbMessages, split as Mastra splits a turn — the trailing user messages are this turn's input,
// everything before them is remembered history. A tool message's results are folded into the
// tool invocations of the assistant message that made the calls, as Mastra stores them.
import type { ModelMessage, SystemModelMessage } from 'ai';
import type { AgentRunInput } from '../../src/kit/contracts/agent-run-event.ts';
import type { DbMessageInput } from '../../src/kit/contracts/messages.ts';
import type { AiSdkTools } from './tool-definitions.ts';

type CoreSystemMessageInput = AgentRunInput['systemMessages'][number];
type PartInput = DbMessageInput['content']['parts'][number];

/** The prompt options (and tools) of generateText / streamText / an agent's generate and stream. */
export type AiSdkCall = {
  instructions?: string | SystemModelMessage | SystemModelMessage[] | undefined;
  /** The deprecated name of `instructions`. */
  system?: string | SystemModelMessage | SystemModelMessage[] | undefined;
  prompt?: string | ModelMessage[] | undefined;
  messages?: ModelMessage[] | undefined;
  /** The tools offered: they become the run's `tools` (name, description, input schema as JSON Schema). */
  tools?: AiSdkTools | undefined;
};

export type ConvertedInput = Pick<AgentRunInput, 'systemMessages'> & { inputMessages: DbMessageInput[]; rememberedMessages: DbMessageInput[] };

function systemMessagesOf(instructions: AiSdkCall['instructions']): CoreSystemMessageInput[] {
  if (instructions === undefined) return [];
  const list = Array.isArray(instructions) ? instructions : [instructions];
  return list.map((entry) => (typeof entry === 'string' ? { role: 'system', content: entry } : { role: 'system', content: entry.content }));
}

/** Files and images travel as strings: a URL as is, bytes as base64. */
function dataText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data instanceof URL) return data.href;
  if (data instanceof Uint8Array) return Buffer.from(data).toString('base64');
  if (data instanceof ArrayBuffer) return Buffer.from(new Uint8Array(data)).toString('base64');
  if (typeof data === 'object' && data !== null && 'type' in data) {
    const typed = data as { type: string; url?: URL | string; data?: unknown; text?: string };
    if (typed.type === 'url' && typed.url !== undefined) return String(typed.url);
    if (typed.type === 'data') return dataText(typed.data);
    if (typed.type === 'text' && typed.text !== undefined) return typed.text;
  }
  return JSON.stringify(data) ?? '';
}

/** A tool result part's output as the contract's invocation fields. */
export function toolOutputFields(output: unknown): { state: 'result' | 'output-error' | 'output-denied'; result?: unknown; errorText?: string } {
  const typed = output as { type?: string; value?: unknown; reason?: string } | undefined;
  switch (typed?.type) {
    case 'text':
    case 'json':
    case 'content':
      return { state: 'result', result: typed.value };
    case 'error-text':
      return { state: 'output-error', errorText: String(typed.value) };
    case 'error-json':
      return { state: 'output-error', errorText: JSON.stringify(typed.value) };
    case 'execution-denied':
      return { state: 'output-denied', ...(typed.reason === undefined ? {} : { errorText: typed.reason }) };
    default:
      return { state: 'result', result: output };
  }
}

function userParts(content: Extract<ModelMessage, { role: 'user' }>['content']): PartInput[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part): PartInput => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image') return { type: 'file', mimeType: part.mediaType ?? 'image/*', data: dataText(part.image) };
    return { type: 'file', mimeType: part.mediaType, data: dataText(part.data) };
  });
}

function assistantParts(content: Extract<ModelMessage, { role: 'assistant' }>['content']): PartInput[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: PartInput[] = [];
  for (const part of content) {
    if (part.type === 'text') parts.push({ type: 'text', text: part.text });
    else if (part.type === 'reasoning') parts.push({ type: 'reasoning', reasoning: part.text, details: [{ type: 'text', text: part.text }] });
    else if (part.type === 'tool-call') {
      parts.push({ type: 'tool-invocation', toolInvocation: { toolCallId: part.toolCallId, toolName: part.toolName, args: part.input, state: 'call' } });
    } else if (part.type === 'tool-result') {
      // Provider-executed tools answer inside the assistant message.
      parts.push({ type: 'tool-invocation', providerExecuted: true, toolInvocation: { toolCallId: part.toolCallId, toolName: part.toolName, args: undefined, ...toolOutputFields(part.output) } });
    } else if (part.type === 'file') parts.push({ type: 'file', mimeType: part.mediaType, data: dataText(part.data) });
  }
  return parts;
}

/** Folds a tool message's results into the invocations of the latest assistant message that called them. */
function foldToolResults(messages: DbMessageInput[], content: Extract<ModelMessage, { role: 'tool' }>['content']): void {
  for (const part of content) {
    if (part.type !== 'tool-result') continue;
    const invocation = messages
      .toReversed()
      .flatMap((message) => (message.role === 'assistant' ? message.content.parts : []))
      .find((candidate) => candidate.type === 'tool-invocation' && candidate.toolInvocation.toolCallId === part.toolCallId);
    if (invocation?.type === 'tool-invocation') Object.assign(invocation.toolInvocation, toolOutputFields(part.output));
  }
}

/** Converts the call's prompt. `idPrefix` names the messages (`<runId>-input-<n>`), `createdAt` dates them. */
export function convertCallInput(call: AiSdkCall, idPrefix: string, createdAt: string): ConvertedInput {
  const systemMessages = systemMessagesOf(call.instructions ?? call.system);
  const modelMessages: ModelMessage[] = typeof call.prompt === 'string' ? [{ role: 'user', content: call.prompt }] : (call.prompt ?? call.messages ?? []);
  const messages: DbMessageInput[] = [];
  for (const message of modelMessages) {
    if (message.role === 'system') {
      systemMessages.push({ role: 'system', content: message.content });
      continue;
    }
    if (message.role === 'tool') {
      foldToolResults(messages, message.content);
      continue;
    }
    const parts = message.role === 'user' ? userParts(message.content) : assistantParts(message.content);
    messages.push({ id: `${idPrefix}-${messages.length}`, role: message.role, createdAt, content: { format: 2, parts } });
  }
  // This turn: the user messages after the last assistant message.
  let firstOfTurn = messages.length;
  while (firstOfTurn > 0 && messages[firstOfTurn - 1]!.role === 'user') firstOfTurn -= 1;
  return { systemMessages, rememberedMessages: messages.slice(0, firstOfTurn), inputMessages: messages.slice(firstOfTurn) };
}
