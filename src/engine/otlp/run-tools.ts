// The tool calls of a run: what its tool spans say (name, call id, arguments, result, an error
// status), in each convention, merged with the calls its output messages name. A call that both
// know is joined by call id; a tool span without a call id (OpenInference's TOOL spans, OpenLLMetry's
// @tool spans) takes the first call of the same name that no other span claimed; calls only the
// spans know join the output. Results that tool-role messages carry (a LangGraph state, the
// OpenAI Agents SDK's items, Strands' tool events) complete the calls they answer.
import type { OtlpSpan, OtlpValue } from './otlp-span.ts';
import { isRecord, jsonEncoded, jsonOrValue, readMessages } from './read-messages.ts';
import type { UniformMessage, UniformToolCall, UniformToolResult } from './read-messages.ts';

export type SpanTool = { id: string | undefined; name: string; args: unknown; result?: unknown; error?: string; spanId: string };

const text = (value: OtlpValue | undefined): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** A decorated call's `{ args: [...], kwargs: {...} }` (OpenLLMetry's @tool, smolagents' and LlamaIndex's TOOL spans) → the arguments. */
function entityArguments(value: unknown): unknown {
  const parsed = jsonEncoded(value as string);
  if (!isRecord(parsed) || !(Array.isArray(parsed.args) || isRecord(parsed.kwargs))) return parsed;
  const kwargs = isRecord(parsed.kwargs) ? parsed.kwargs : {};
  const args = Array.isArray(parsed.args) ? parsed.args : [];
  return args.length === 0 ? kwargs : Object.keys(kwargs).length === 0 && args.length === 1 ? args[0] : { args, ...kwargs };
}

/** A tool's output as recorded: LangChain's ToolMessage (`{ output: { lc, kwargs: { content, tool_call_id } } }`) gives its content and call id. */
function toolOutput(value: OtlpValue | undefined): { result: unknown; id?: string } | undefined {
  if (value === undefined) return undefined;
  const parsed = jsonEncoded(value);
  if (isRecord(parsed) && (parsed.lc === 1 || isRecord(parsed.output) || typeof parsed.tool_call_id === 'string')) {
    const [message] = readMessages(parsed, 'tool');
    const [result] = message?.toolResults ?? [];
    if (result !== undefined) return { result: result.result, ...(result.id === undefined ? {} : { id: result.id }) };
  }
  if (isRecord(parsed) && parsed.output !== undefined && Object.keys(parsed).length === 1) return { result: jsonOrValue(parsed.output as OtlpValue) };
  // LlamaIndex's ToolCallResult (its call_tool step under OpenLLMetry): { tool_name, tool_kwargs, tool_id, tool_output: ToolOutput }.
  if (isRecord(parsed) && typeof parsed.tool_id === 'string' && isRecord(parsed.tool_output)) {
    const output = parsed.tool_output;
    return { result: 'raw_output' in output ? output.raw_output : output, id: parsed.tool_id };
  }
  // LlamaIndex's ToolOutput: { blocks, tool_name, raw_input, raw_output, is_error }.
  if (isRecord(parsed) && typeof parsed.tool_name === 'string' && 'raw_output' in parsed) return { result: parsed.raw_output };
  return { result: parsed };
}

/**
 * The event-based GenAI content of a tool span (Strands' default): the call's arguments in a
 * `gen_ai.tool.message` event, its result in a `gen_ai.choice` event.
 */
function toolEvents(span: OtlpSpan): { args?: unknown; result?: unknown } {
  let args: unknown;
  let result: unknown;
  for (const event of span.events) {
    if (event.name === 'gen_ai.tool.message' && args === undefined) args = jsonOrValue(event.attributes.content);
    else if (event.name === 'gen_ai.choice' && result === undefined) {
      const message = jsonOrValue(event.attributes.message);
      const [read] = readMessages(Array.isArray(message) ? { role: 'assistant', content: message } : message, 'assistant');
      result = read !== undefined && read.texts.length === 1 && read.toolCalls.length === 0 ? jsonOrValue(read.texts[0]) : message;
    }
  }
  return { ...(args === undefined ? {} : { args }), ...(result === undefined ? {} : { result }) };
}

/** One tool span in any convention; undefined when it names no tool. */
export function toolOfSpan(span: OtlpSpan): SpanTool | undefined {
  const a = span.attributes;
  const events = span.events.length === 0 ? {} : toolEvents(span);
  const named = text(a['gen_ai.tool.name']) ?? text(a['ai.toolCall.name']) ?? text(a['tool.name']) ?? text(a['traceloop.entity.name']) ?? text(span.name.replace(/^execute_tool /, ''));
  if (named === undefined) return undefined;
  // A span named after the method that ran the tool (DSPy's `get_order_status.__call__`) names the tool.
  const name = named.replace(/\.(?:__call__|acall|forward|aforward)$/, '');
  // OpenLLMetry writes `tool.arguments` beside `tool.name` on a span that ran a tool (LlamaIndex's call_tool step).
  const genAiArgs = a['gen_ai.tool.call.arguments'] ?? a['ai.toolCall.args'] ?? a['tool.arguments'];
  const args =
    genAiArgs !== undefined ? jsonOrValue(genAiArgs)
    : 'args' in events ? events.args
    : a['input.value'] !== undefined ? entityArguments(a['input.value'])
    : a['traceloop.entity.input'] !== undefined ? entityArguments(a['traceloop.entity.input'])
    : undefined;
  const genAiResult = a['gen_ai.tool.call.result'] ?? a['ai.toolCall.result'];
  const output = genAiResult !== undefined ? { result: jsonOrValue(genAiResult) } : 'result' in events ? { result: events.result } : toolOutput(a['output.value'] ?? a['traceloop.entity.output']);
  const id = text(a['gen_ai.tool.call.id']) ?? text(a['ai.toolCall.id']) ?? text(a['tool_call.id']) ?? output?.id;
  const base = { id, name, args, spanId: span.spanId };
  if (span.status.code === 2) return { ...base, error: span.status.message ?? text(a['error.message']) ?? 'the tool failed' };
  return output === undefined ? base : { ...base, result: output.result };
}

/**
 * The tool calls a run's model calls made, for a run that owns no tool span (CrewAI and LlamaIndex
 * under OpenLLMetry record none): each call in a model call's output messages, with its result from
 * a later call's input messages (a tool-role message of the same call id), in order.
 */
export function toolCallsOfModelCalls(modelCalls: readonly OtlpSpan[], outputOf: (span: OtlpSpan) => UniformMessage[], inputOf: (span: OtlpSpan) => UniformMessage[]): SpanTool[] {
  const calls: SpanTool[] = [];
  modelCalls.forEach((span, index) => {
    for (const call of outputOf(span).flatMap((message) => message.toolCalls)) {
      if (calls.some((known) => known.id !== undefined && known.id === call.id)) continue;
      const result = modelCalls
        .slice(index + 1)
        .flatMap((later) => inputOf(later))
        .flatMap((message) => message.toolResults)
        .find((candidate) => candidate.id !== undefined && candidate.id === call.id);
      calls.push({ id: call.id, name: call.name, args: call.args, spanId: span.spanId, ...(result === undefined ? {} : { result: result.result }) });
    }
  });
  return calls;
}

/**
 * The frameworks' own control tools, which end the loop rather than act: smolagents' `final_answer`
 * and DSPy ReAct's `finish`. Reported apart from the agent's tools (docs/otlp.md), so a tool
 * scorer does not count them as calls the agent chose.
 */
export const CONTROL_TOOLS: ReadonlySet<string> = new Set(['final_answer', 'finish']);

/** `messages` without the control tools' calls and results, and those calls (name and arguments) apart. */
export function withoutControlTools<M extends UniformMessage>(messages: readonly M[]): { messages: M[]; control: Array<{ name: string; args: unknown }> } {
  const control: Array<{ name: string; args: unknown }> = [];
  const ids = new Set<string>();
  const kept = messages.map((message) => {
    const calls = message.toolCalls.filter((call) => {
      if (!CONTROL_TOOLS.has(call.name)) return true;
      control.push({ name: call.name, args: call.args });
      if (call.id !== undefined) ids.add(call.id);
      return false;
    });
    return calls.length === message.toolCalls.length ? message : { ...message, toolCalls: calls, toolResults: message.toolResults.filter((result) => result.id === undefined || !ids.has(result.id)) };
  });
  const isEmpty = (message: M) => message.texts.length === 0 && message.toolCalls.length === 0 && message.toolResults.length === 0 && message.reasoning.length === 0;
  return { messages: kept.filter((message, index) => !isEmpty(message) || isEmpty(messages[index]!)), control };
}

type OutputMessage = UniformMessage & { toolResults: Array<UniformToolResult & { error?: string }> };

/**
 * The run's output messages (assistant and tool messages, in order) with every tool call completed:
 * its result from the tool span (or the span's error), else from a tool-role message; tool-role
 * messages whose results were all taken are dropped. Calls only the spans know join the first
 * assistant message, so a run whose telemetry recorded no output messages still shows its tools.
 */
export function completeToolCalls(messages: readonly UniformMessage[], tools: readonly SpanTool[]): OutputMessage[] {
  const output = messages.filter((message) => message.role === 'assistant' || message.role === 'tool').map((message) => ({ ...message, toolCalls: [...message.toolCalls], toolResults: [...message.toolResults] }));
  const calls = output.flatMap((message) => message.toolCalls);
  // Give every call an id: the span's when a span of that name claims it, else a stable synthetic one.
  const claimed = new Map<UniformToolCall, SpanTool>();
  const spanById = new Map(tools.filter((tool) => tool.id !== undefined).map((tool) => [tool.id!, tool]));
  for (const call of calls) {
    const span = call.id === undefined ? undefined : spanById.get(call.id);
    if (span !== undefined) claimed.set(call, span);
  }
  const claimedSpans = new Set(claimed.values());
  const unclaimedSpans = tools.filter((tool) => !claimedSpans.has(tool));
  for (const tool of [...unclaimedSpans]) {
    const call = calls.find((candidate) => !claimed.has(candidate) && candidate.name === tool.name && (tool.id === undefined || candidate.id === undefined));
    if (call === undefined) continue;
    claimed.set(call, tool);
    call.id ??= tool.id ?? `span-${tool.spanId}`;
    unclaimedSpans.splice(unclaimedSpans.indexOf(tool), 1);
  }
  calls.forEach((call, index) => (call.id ??= `call-${index}`));

  const results = new Map<string, UniformToolResult>();
  for (const message of output) for (const result of message.toolResults) if (result.id !== undefined && !results.has(result.id)) results.set(result.id, result);
  const used = new Set<string>();
  if (output.every((message) => message.role !== 'assistant') && unclaimedSpans.length > 0) output.unshift({ role: 'assistant', texts: [], reasoning: [], toolCalls: [], toolResults: [] });
  let joined = false;
  for (const message of output) {
    if (message.role !== 'assistant') continue;
    if (!joined) {
      message.toolCalls.push(...unclaimedSpans.map((tool) => ({ id: tool.id ?? `span-${tool.spanId}`, name: tool.name, args: tool.args })));
      for (const tool of unclaimedSpans) claimed.set(message.toolCalls.find((call) => call.id === (tool.id ?? `span-${tool.spanId}`))!, tool);
      joined = true;
    }
    const own = new Map(message.toolResults.filter((result) => result.id !== undefined).map((result) => [result.id!, result]));
    message.toolResults = message.toolCalls.flatMap((call) => {
      const span = claimed.get(call);
      const id = call.id!;
      if (span?.error !== undefined) return [{ id, result: undefined, error: span.error }];
      const fromMessage = own.get(id) ?? results.get(id);
      if (fromMessage !== undefined) {
        used.add(id);
        return [fromMessage];
      }
      return span !== undefined && 'result' in span ? [{ id, result: span.result }] : [];
    });
  }
  return output.filter((message) => message.role === 'assistant' || message.toolResults.some((result) => result.id === undefined || !used.has(result.id)));
}
