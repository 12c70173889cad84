// What one span says about the conversation, whichever convention wrote it: the messages it sent,
// the messages it answered with, and its system prompt. Each reader tries its sources in one fixed
// order and says which one it used (docs/otlp.md, "Precedence"): a source that yields no message
// falls through to the next. Attributes are read by key, never enumerated wholesale, so
// `scorestream otlp inspect` can tell which attributes no reader used.
import { unflatten } from './flattened-attributes.ts';
import type { OtlpAttributes, OtlpSpan, OtlpSpanEvent, OtlpValue } from './otlp-span.ts';
import { isRecord, jsonEncoded, jsonOrValue, readMessages } from './read-messages.ts';
import type { UniformMessage } from './read-messages.ts';

export type FoundMessages = { messages: UniformMessage[]; source: string };

const isEmpty = (message: UniformMessage) => message.texts.length === 0 && message.toolCalls.length === 0 && message.toolResults.length === 0 && message.reasoning.length === 0;

/** A source counts only when it holds a message with content: a role without content (OpenInference writes those) falls through. */
function found(messages: UniformMessage[], source: string): FoundMessages | undefined {
  if (messages.length === 0) return undefined;
  const kept = messages.some(isEmpty) ? messages.filter((message) => !isEmpty(message)) : messages;
  return kept.length === 0 ? undefined : { messages: kept, source };
}

/** OpenInference's flattened list items are `{ message: {...} }`. */
const openInferenceMessages = (list: unknown[] | undefined) => (list === undefined ? [] : list.map((item) => (isRecord(item) && isRecord(item.message) ? item.message : item)));

function flattened(a: OtlpAttributes, prefix: string, role: UniformMessage['role']): UniformMessage[] {
  const list = unflatten(a, prefix);
  if (list === undefined) return [];
  return readMessages(prefix.startsWith('llm.') ? openInferenceMessages(list) : list, role);
}

/** Keys that hold the user's words in a free-form input, tried in this order (docs/otlp.md, "Free-form values"). */
const INPUT_KEYS = ['input', 'question', 'query', 'prompt', 'task', 'message', 'user_input'] as const;
const OUTPUT_KEYS = ['output', 'answer', 'text', 'content', 'result', 'response', 'final_answer'] as const;
/** One level of wrapping a framework puts around a call's arguments: DSPy's `input_args`, OpenLLMetry's `kwargs`, `inputs`. */
const NESTING_KEYS = ['input_args', 'inputs', 'kwargs'] as const;

/**
 * A language's own rendering of an object — Python's `ChatMessage(role=<MessageRole.USER: 'user'>, …)`
 * or `<Agent object at 0x7f…>` — which an instrumentation wrote where it had no JSON: never a
 * message, and never the answer (often cut short, too).
 */
export function isLanguageRepr(text: string): boolean {
  return /^[A-Za-z_][\w.]*\((?:[A-Za-z_]\w*=|\))/.test(text) || /^<[\w.]+(?: object)? at 0x[0-9a-f]+>/.test(text) || text.includes('<MessageRole.');
}

const withoutReprs = (messages: UniformMessage[]) => messages.flatMap((message) => {
  const texts = message.texts.filter((text) => !isLanguageRepr(text));
  return texts.length === message.texts.length ? [message] : texts.length === 0 && message.toolCalls.length === 0 && message.toolResults.length === 0 ? [] : [{ ...message, texts }];
});

/** The first string under one of `keys`, at the top or one wrapping level down. */
function namedText(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  const direct = keys.map((key) => record[key]).find((entry): entry is string => typeof entry === 'string' && entry !== '');
  if (direct !== undefined) return direct;
  for (const nesting of NESTING_KEYS) {
    const inner = record[nesting];
    if (isRecord(inner)) {
      const found = keys.map((key) => inner[key]).find((entry): entry is string => typeof entry === 'string' && entry !== '');
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * A free-form input (`input.value`, `traceloop.entity.input`) read for the user's words: a message
 * list when it is one (JSON with roles, LangChain serialisations; `{ messages }` too), else the
 * first of INPUT_KEYS (one wrapping level down too), else OpenLLMetry's decorated call
 * `{ args: [...], kwargs }` — its positional arguments, never an arbitrary keyword's value (a
 * `tool_choice: "auto"` is not a question). Language reprs are dropped.
 */
function entityInput(value: unknown): UniformMessage[] {
  const parsed = jsonEncoded(value as string);
  if (!isRecord(parsed)) return withoutReprs(readMessages(parsed, 'user'));
  // OpenLLMetry's LangChain spans: { inputs, tags, metadata, kwargs }; the inputs are the chain's.
  if (parsed.inputs !== undefined && !isRecord(parsed.inputs)) return entityInput(parsed.inputs);
  if (Array.isArray(parsed.messages)) {
    const messages = withoutReprs(readMessages(parsed.messages, 'user'));
    if (messages.length > 0) return messages;
  }
  const named = namedText(parsed, INPUT_KEYS);
  if (named !== undefined) return withoutReprs(readMessages(named, 'user'));
  if (isRecord(parsed.inputs)) return entityInput(parsed.inputs);
  if (Array.isArray(parsed.args)) return withoutReprs(parsed.args.flatMap((piece) => readMessages(piece, 'user')));
  if (isRecord(parsed.kwargs)) return [];
  return withoutReprs(readMessages(parsed, 'user'));
}

function entityOutput(value: unknown): UniformMessage[] {
  const parsed = jsonEncoded(value as string);
  if (isRecord(parsed) && parsed.outputs !== undefined) return entityOutput(parsed.outputs);
  if (isRecord(parsed) && parsed.messages === undefined) {
    const text = namedText(parsed, OUTPUT_KEYS);
    if (text !== undefined) return withoutReprs(readMessages(text, 'assistant'));
  }
  return withoutReprs(readMessages(parsed, 'assistant'));
}

/** OpenInference's `input.value` / `output.value`: JSON when its mime type says so (or it parses), text otherwise. */
function openInferenceValue(a: OtlpAttributes, key: 'input' | 'output', role: UniformMessage['role']): UniformMessage[] {
  const value = a[`${key}.value`];
  if (value === undefined) return [];
  const mime = a[`${key}.mime_type`];
  if (mime === 'text/plain' && typeof value === 'string') return isLanguageRepr(value) ? [] : readMessages({ role, content: value }, role);
  return key === 'input' ? entityInput(value) : entityOutput(value);
}

const EVENT_ROLES: Record<string, UniformMessage['role']> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};

/** A GenAI per-message event (the older, event-based content: Strands' default) as a message item. */
function eventItem(event: OtlpSpanEvent): unknown {
  const a = event.attributes;
  if (event.name === 'gen_ai.choice') {
    const message = jsonOrValue(a.message);
    if (Array.isArray(message)) return { role: 'assistant', content: message };
    if (isRecord(message)) return { role: 'assistant', ...message };
    return typeof message === 'string' ? { role: 'assistant', content: message } : undefined;
  }
  const role = EVENT_ROLES[event.name];
  if (role === undefined) return undefined;
  const content = jsonOrValue(a.content);
  const toolCalls = jsonOrValue(a.tool_calls);
  const id = typeof a.id === 'string' ? a.id : undefined;
  if (role === 'tool' && typeof content === 'string') return { role, content, tool_call_id: id };
  if (role === 'tool' && Array.isArray(content)) return { role, content: content.map((block) => (isRecord(block) && block.toolResult === undefined && id !== undefined ? { toolResult: { toolUseId: id, content: [block] } } : block)) };
  return { role, content, ...(Array.isArray(toolCalls) ? { tool_calls: toolCalls } : {}) };
}

function eventMessages(events: readonly OtlpSpanEvent[], which: 'input' | 'output'): UniformMessage[] {
  if (events.length === 0) return [];
  const items: unknown[] = [];
  for (const event of events) {
    if (event.name === 'gen_ai.client.inference.operation.details') {
      items.push(...readMessages(event.attributes[which === 'input' ? 'gen_ai.input.messages' : 'gen_ai.output.messages'], which === 'input' ? 'user' : 'assistant').map((message) => ({ uniform: message })));
      continue;
    }
    if ((event.name === 'gen_ai.choice') !== (which === 'output')) continue;
    const item = eventItem(event);
    if (item !== undefined) items.push(item);
  }
  return items.flatMap((item) => (isRecord(item) && item.uniform !== undefined ? [item.uniform as UniformMessage] : readMessages(item, which === 'input' ? 'user' : 'assistant')));
}

/**
 * CrewAI's crew span under OpenInference lists its tasks (`crew_tasks`, JSON): a task's description
 * is what its agent was asked, and the crew's question is its tasks' descriptions (one message).
 */
function crewTasks(value: unknown): UniformMessage[] {
  const tasks = jsonOrValue(value as string);
  if (!Array.isArray(tasks)) return [];
  const descriptions = tasks.flatMap((task) => (isRecord(task) && typeof task.description === 'string' && task.description !== '' ? [task.description] : []));
  return descriptions.length === 0 ? [] : readMessages(descriptions.join('\n\n'), 'user');
}

/** The messages the span sent (a model call's prompt, an agent's input). */
export function inputMessagesOf(span: OtlpSpan): FoundMessages | undefined {
  const a = span.attributes;
  return (
    found(readMessages(a['gen_ai.input.messages'], 'user'), 'gen_ai.input.messages') ??
    found(readMessages(a['mastra.agent_run.input'], 'user'), 'mastra.agent_run.input') ??
    found(readMessages(a['crewai.task.description'], 'user'), 'crewai.task.description') ??
    found(crewTasks(a['crew_tasks']), 'crew_tasks') ??
    found(legacyPrompt(a)?.messages ?? [], 'ai.prompt') ??
    found(readMessages(a['ai.prompt.messages'], 'user'), 'ai.prompt.messages') ??
    found(flattened(a, 'llm.input_messages', 'user'), 'llm.input_messages') ??
    found(flattened(a, 'gen_ai.prompt', 'user'), 'gen_ai.prompt') ??
    found(eventMessages(span.events, 'input'), 'events') ??
    found(openInferenceValue(a, 'input', 'user'), 'input.value') ??
    found(entityInput(a['traceloop.entity.input']), 'traceloop.entity.input')
  );
}

/** The messages the span answered with. */
export function outputMessagesOf(span: OtlpSpan): FoundMessages | undefined {
  const a = span.attributes;
  return (
    found(readMessages(a['gen_ai.output.messages'], 'assistant'), 'gen_ai.output.messages') ??
    found(readMessages(a['mastra.agent_run.output'], 'assistant'), 'mastra.agent_run.output') ??
    found(legacyOutput(a), 'ai.response') ??
    found(flattened(a, 'llm.output_messages', 'assistant'), 'llm.output_messages') ??
    found(flattened(a, 'gen_ai.completion', 'assistant'), 'gen_ai.completion') ??
    found(eventMessages(span.events, 'output'), 'events') ??
    found(openInferenceValue(a, 'output', 'assistant'), 'output.value') ??
    found(entityOutput(a['traceloop.entity.output']), 'traceloop.entity.output')
  );
}

/**
 * The span's own system prompt: gen_ai.system_instructions (`[{ type: 'text', content }]`, or a
 * plain string: Mastra) on the span or on its operation-details event (Google ADK sends it on the
 * logs signal), legacy ai.prompt's system.
 */
export function systemTextsOf(span: OtlpSpan): { texts: string[]; source: string } | undefined {
  const onSpan = systemInstructions(span.attributes['gen_ai.system_instructions']);
  if (onSpan !== undefined) return { texts: onSpan, source: 'gen_ai.system_instructions' };
  for (const event of span.events) {
    if (event.name !== 'gen_ai.client.inference.operation.details') continue;
    const texts = systemInstructions(event.attributes['gen_ai.system_instructions']);
    if (texts !== undefined) return { texts, source: 'events' };
  }
  const system = legacyPrompt(span.attributes)?.system ?? [];
  return system.length === 0 ? undefined : { texts: system, source: 'ai.prompt' };
}

function systemInstructions(value: OtlpValue | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const parsed = jsonOrValue(value);
  const texts = (typeof parsed === 'string' ? [parsed] : readMessages(parsed, 'system').flatMap((message) => message.texts)).filter((text) => text !== '');
  return texts.length === 0 ? undefined : texts;
}

/** The legacy root span's `ai.prompt`: `{ system?, prompt? , messages? }` as JSON. */
function legacyPrompt(a: OtlpAttributes): { system: string[]; messages: UniformMessage[] } | undefined {
  const parsed = jsonOrValue(a['ai.prompt']);
  if (parsed === undefined) return undefined;
  if (typeof parsed === 'string') return { system: [], messages: readMessages(parsed, 'user') };
  if (!isRecord(parsed)) return undefined;
  const system = typeof parsed.system === 'string' ? [parsed.system] : [];
  const messages = parsed.messages !== undefined ? readMessages(parsed.messages, 'user') : typeof parsed.prompt === 'string' ? readMessages(parsed.prompt, 'user') : [];
  return { system, messages };
}

/** Legacy `ai.response.text` and `ai.response.toolCalls` as one assistant message. */
function legacyOutput(a: OtlpAttributes): UniformMessage[] {
  const responseText = typeof a['ai.response.text'] === 'string' && a['ai.response.text'] !== '' ? a['ai.response.text'] : undefined;
  const calls = jsonOrValue(a['ai.response.toolCalls']);
  const toolCalls = Array.isArray(calls)
    ? calls.flatMap((call: unknown) => {
        if (!isRecord(call) || typeof call.toolCallId !== 'string' || typeof call.toolName !== 'string') return [];
        return [{ id: call.toolCallId, name: call.toolName, args: jsonOrValue((call.input ?? call.args) as string) }];
      })
    : [];
  if (responseText === undefined && toolCalls.length === 0) return [];
  return [{ role: 'assistant', texts: responseText === undefined ? [] : [responseText], reasoning: [], toolCalls, toolResults: [] }];
}
