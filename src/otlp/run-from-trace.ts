// A closed trace → the agent runs in it, each as a run-event input (src/contracts/agent-run-event.ts)
// built from its agent span and that span's descendants:
//   - system, input and output messages from gen_ai.system_instructions / gen_ai.input.messages /
//     gen_ai.output.messages on the agent span (JSON strings or structured values), else Mastra's
//     mastra.agent_run.input / .output, else the legacy ai.prompt / ai.prompt.messages /
//     ai.response.text / ai.response.toolCalls, else the run's first and last model-call spans;
//   - tool calls from execute_tool / ai.toolCall spans (name, call id, arguments, result, or the
//     error status), merged by call id with the tool calls the output messages name;
//   - model, usage, agent id and name, conversation id, resource attributes (service name,
//     tenant) as metadata; the run's trace context is the agent span's, so score spans become its
//     children.
// Nested agents (an agent called from a tool of another): by default only the outermost agent
// span is a run; `nestedAgents: 'each'` makes every agent span one. A span belongs to the run of
// its nearest agent ancestor, so an inner agent's tool calls are not the outer agent's.
import type { AgentRunEventInput } from '../contracts/agent-run-event.ts';
import { AGENT_RUN_EVENT_SCHEMA_VERSION, AGENT_RUN_EVENT_TYPE } from '../contracts/agent-run-event.ts';
import type { DbMessageInput } from '../contracts/messages.ts';
import { isAgentSpan, isModelCallSpan, isToolSpan } from './agent-spans.ts';
import { jsonOrValue, readMessages } from './genai-messages.ts';
import type { UniformMessage, UniformToolCall, UniformToolResult } from './genai-messages.ts';
import type { OtlpAttributes, OtlpSpan, OtlpValue } from './otlp-span.ts';

export const NESTED_AGENT_MODES = ['outermost', 'each'] as const;
export type NestedAgentMode = (typeof NESTED_AGENT_MODES)[number];

export type AssembledRun = {
  /** The run's agent span: its trace context is the run's. */
  agentSpan: OtlpSpan;
  event: AgentRunEventInput;
};

/** The runs of one trace's spans, in the order their agent spans started. */
export function runsFromTrace(spans: readonly OtlpSpan[], nestedAgents: NestedAgentMode): AssembledRun[] {
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const nearestAgent = (span: OtlpSpan): OtlpSpan | undefined => {
    const seen = new Set<string>();
    let parentId = span.parentSpanId;
    while (parentId !== undefined && !seen.has(parentId)) {
      seen.add(parentId);
      const parent = byId.get(parentId);
      if (parent === undefined) return undefined;
      if (isAgentSpan(parent)) return parent;
      parentId = parent.parentSpanId;
    }
    return undefined;
  };
  const agents = spans.filter(isAgentSpan).filter((span) => nestedAgents === 'each' || nearestAgent(span) === undefined);
  const ownSpans = new Map<string, OtlpSpan[]>(agents.map((agent) => [agent.spanId, []]));
  for (const span of spans) {
    if (isAgentSpan(span)) continue;
    const owner = nearestAgent(span);
    if (owner !== undefined) ownSpans.get(owner.spanId)?.push(span);
  }
  return agents
    .sort((a, b) => a.startTimeMs - b.startTimeMs)
    .map((agentSpan) => ({ agentSpan, event: runEventOf(agentSpan, (ownSpans.get(agentSpan.spanId) ?? []).sort((a, b) => a.startTimeMs - b.startTimeMs)) }));
}

/** The deterministic run id of an agent span: re-assembling the same trace gives the same scoreIds. */
export function runIdOf(span: Pick<OtlpSpan, 'traceId' | 'spanId'>): string {
  return `${span.traceId}-${span.spanId}`;
}

const text = (value: OtlpValue | undefined): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const count = (value: OtlpValue | undefined): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);
const iso = (ms: number) => new Date(ms).toISOString();

function runEventOf(agent: OtlpSpan, own: OtlpSpan[]): AgentRunEventInput {
  const attributes = agent.attributes;
  const modelCalls = own.filter(isModelCallSpan);
  const toolSpans = own.filter(isToolSpan);
  const firstCall = modelCalls[0]?.attributes;
  const lastCall = modelCalls.at(-1)?.attributes;
  const conversationId = text(attributes['gen_ai.conversation.id']);
  const createdAt = iso(agent.startTimeMs);

  const prompt = legacyPrompt(attributes);
  const input =
    messagesOf(attributes['gen_ai.input.messages'], 'user') ??
    messagesOf(attributes['mastra.agent_run.input'], 'user') ??
    prompt?.messages ??
    messagesOf(firstCall?.['gen_ai.input.messages'], 'user') ??
    messagesOf(firstCall?.['ai.prompt.messages'], 'user') ??
    [];
  const system = [
    ...(systemTexts(attributes['gen_ai.system_instructions']) ?? prompt?.system ?? systemTexts(firstCall?.['gen_ai.system_instructions']) ?? []),
    ...input.filter((message) => message.role === 'system').flatMap((message) => message.texts),
  ];
  const conversation = input.filter((message) => message.role !== 'system');
  // The turn starts at the last user message; what came before it is remembered history.
  const lastUser = conversation.findLastIndex((message) => message.role === 'user');
  const remembered = lastUser > 0 ? conversation.slice(0, lastUser) : [];
  const turn = lastUser > 0 ? conversation.slice(lastUser) : conversation;

  const output =
    messagesOf(attributes['gen_ai.output.messages'], 'assistant') ??
    messagesOf(attributes['mastra.agent_run.output'], 'assistant') ??
    legacyOutput(attributes) ??
    messagesOf(lastCall?.['gen_ai.output.messages'], 'assistant') ??
    legacyOutput(lastCall ?? {}) ??
    [];
  const tools = toolSpans.map(toolOfSpan).filter((tool) => tool !== undefined);

  const ids = { runId: runIdOf(agent), conversationId, createdAt: iso(agent.endTimeMs) };
  const agentId = text(attributes['gen_ai.agent.id']) ?? text(attributes['gen_ai.agent.name']) ?? text(attributes['ai.telemetry.functionId']) ?? text(agent.resource['service.name']) ?? agent.name;
  const agentName = text(attributes['gen_ai.agent.name']) ?? text(attributes['ai.telemetry.functionId']);
  const usage = usageOf(attributes) ?? summedUsage(modelCalls);
  const model = text(attributes['gen_ai.response.model']) ?? text(attributes['gen_ai.request.model']) ?? text(attributes['ai.model.id']) ?? text(lastCall?.['gen_ai.response.model']) ?? text(lastCall?.['gen_ai.request.model']);
  const provider = text(attributes['gen_ai.provider.name']) ?? text(attributes['gen_ai.system']) ?? text(attributes['ai.model.provider']) ?? text(lastCall?.['gen_ai.provider.name']);
  const errored = agent.status.code === 2;

  return {
    schemaVersion: AGENT_RUN_EVENT_SCHEMA_VERSION,
    type: AGENT_RUN_EVENT_TYPE,
    runId: ids.runId,
    timestamp: iso(agent.endTimeMs),
    entity: { type: 'agent', id: agentId, ...(agentName === undefined ? {} : { name: agentName }) },
    input: {
      inputMessages: turn.map((message, index) => dbMessage(message, `${ids.runId}-in-${index}`, createdAt, conversationId)),
      rememberedMessages: remembered.map((message, index) => dbMessage(message, `${ids.runId}-mem-${index}`, createdAt, conversationId)),
      systemMessages: system.map((content) => ({ role: 'system' as const, content })),
      taggedSystemMessages: {},
    },
    output: outputMessages(output, tools, ids),
    requestContext: {},
    metadata: metadataOf(agent, { conversationId, model, provider }),
    ...(usage === undefined ? {} : { usage }),
    durationMs: Math.max(0, agent.endTimeMs - agent.startTimeMs),
    ...(errored ? { error: errorOf(agent) } : {}),
    trace: { traceparent: `00-${agent.traceId}-${agent.spanId}-01`, ...(agent.traceState === undefined ? {} : { tracestate: agent.traceState }) },
  };
}

function messagesOf(value: OtlpValue | undefined, role: UniformMessage['role']): UniformMessage[] | undefined {
  const messages = readMessages(value, role);
  return messages.length === 0 ? undefined : messages;
}

/** gen_ai.system_instructions: `[{ type: 'text', content }]` (AI SDK), or a plain string (Mastra). */
function systemTexts(value: OtlpValue | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const parsed = jsonOrValue(value);
  if (typeof parsed === 'string') return parsed === '' ? undefined : [parsed];
  const texts = readMessages(value, 'system').flatMap((message) => message.texts);
  return texts.length === 0 ? undefined : texts;
}

/** The legacy root span's `ai.prompt`: `{ system?, prompt? , messages? }` as JSON. */
function legacyPrompt(attributes: OtlpAttributes): { system: string[]; messages: UniformMessage[] } | undefined {
  const parsed = jsonOrValue(attributes['ai.prompt']);
  if (parsed === undefined) return undefined;
  if (typeof parsed === 'string') return { system: [], messages: readMessages(parsed, 'user') };
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const prompt = parsed as { system?: unknown; prompt?: unknown; messages?: unknown };
  const system = typeof prompt.system === 'string' ? [prompt.system] : [];
  const messages = prompt.messages !== undefined ? readMessages(JSON.stringify(prompt.messages), 'user') : typeof prompt.prompt === 'string' ? readMessages(prompt.prompt, 'user') : [];
  return { system, messages };
}

/** Legacy `ai.response.text` and `ai.response.toolCalls` as one assistant message. */
function legacyOutput(attributes: OtlpAttributes): UniformMessage[] | undefined {
  const responseText = text(attributes['ai.response.text']);
  const calls = jsonOrValue(attributes['ai.response.toolCalls']);
  const toolCalls: UniformToolCall[] = Array.isArray(calls)
    ? calls.flatMap((call: unknown) => {
        const record = call as { toolCallId?: unknown; toolName?: unknown; input?: unknown; args?: unknown };
        return typeof record.toolCallId === 'string' && typeof record.toolName === 'string'
          ? [{ id: record.toolCallId, name: record.toolName, args: jsonOrValue((record.input ?? record.args) as OtlpValue) }]
          : [];
      })
    : [];
  if (responseText === undefined && toolCalls.length === 0) return undefined;
  return [{ role: 'assistant', texts: responseText === undefined ? [] : [responseText], reasoning: [], toolCalls, toolResults: [] }];
}

type SpanTool = UniformToolCall & { result?: unknown; error?: string; step?: number };

function toolOfSpan(span: OtlpSpan): SpanTool | undefined {
  const a = span.attributes;
  const id = text(a['gen_ai.tool.call.id']) ?? text(a['ai.toolCall.id']) ?? span.spanId;
  const name = text(a['gen_ai.tool.name']) ?? text(a['ai.toolCall.name']);
  if (name === undefined) return undefined;
  const args = jsonOrValue(a['gen_ai.tool.call.arguments'] ?? a['ai.toolCall.args']);
  const resultValue = a['gen_ai.tool.call.result'] ?? a['ai.toolCall.result'];
  if (span.status.code === 2) return { id, name, args, error: span.status.message ?? text(a['error.message']) ?? 'the tool failed' };
  return { id, name, args, ...(resultValue === undefined ? {} : { result: jsonOrValue(resultValue) }) };
}

function dbMessage(message: UniformMessage, id: string, createdAt: string, threadId: string | undefined): DbMessageInput {
  const role = message.role === 'tool' ? 'assistant' : message.role;
  const results = new Map(message.toolResults.map((result) => [result.id, result]));
  const parts: DbMessageInput['content']['parts'] = [
    ...message.reasoning.map((reasoning) => ({ type: 'reasoning' as const, reasoning, details: [{ type: 'text' as const, text: reasoning }] })),
    ...message.texts.map((value) => ({ type: 'text' as const, text: value })),
    ...message.toolCalls.map((call) => ({ type: 'tool-invocation' as const, toolInvocation: invocation(call, results.get(call.id)) })),
    ...message.toolResults
      .filter((result) => !message.toolCalls.some((call) => call.id === result.id))
      .map((result) => ({ type: 'tool-invocation' as const, toolInvocation: invocation({ id: result.id, name: result.name ?? 'unknown', args: undefined }, result) })),
  ];
  const joined = message.texts.join('\n');
  return {
    id,
    role,
    createdAt,
    ...(threadId === undefined ? {} : { threadId }),
    content: { format: 2, parts, ...(joined === '' ? {} : { content: joined }) },
  };
}

function invocation(call: UniformToolCall, result: (UniformToolResult & { error?: string }) | undefined) {
  if (result?.error !== undefined) return { toolCallId: call.id, toolName: call.name, args: call.args ?? {}, state: 'output-error' as const, errorText: result.error };
  if (result === undefined) return { toolCallId: call.id, toolName: call.name, args: call.args ?? {}, state: 'call' as const };
  return { toolCallId: call.id, toolName: call.name, args: call.args ?? {}, state: 'result' as const, result: result.result, ...(result.isError === true ? { isError: true } : {}) };
}

/**
 * The output: the assistant messages, with tool calls completed from the tool spans (result or
 * error); tool spans the messages do not mention join the first assistant message, so a run whose
 * telemetry recorded no output messages still shows its tool calls.
 */
function outputMessages(messages: UniformMessage[], tools: SpanTool[], ids: { runId: string; conversationId: string | undefined; createdAt: string }): DbMessageInput[] {
  const assistant = messages.filter((message) => message.role !== 'user' && message.role !== 'system');
  const fromSpans = new Map(tools.map((tool) => [tool.id, tool]));
  const mentioned = new Set(assistant.flatMap((message) => [...message.toolCalls.map((call) => call.id), ...message.toolResults.map((result) => result.id)]));
  const unmentioned = tools.filter((tool) => !mentioned.has(tool.id));
  if (assistant.length === 0 && unmentioned.length > 0) assistant.push({ role: 'assistant', texts: [], reasoning: [], toolCalls: [], toolResults: [] });
  return assistant.map((message, index) => {
    const toolCalls = [...message.toolCalls, ...(index === 0 ? unmentioned : [])];
    const toolResults: Array<UniformToolResult & { error?: string }> = toolCalls.map((call) => {
      const span = fromSpans.get(call.id);
      const inMessage = message.toolResults.find((result) => result.id === call.id);
      if (span?.error !== undefined) return { id: call.id, result: undefined, error: span.error };
      if (inMessage !== undefined) return inMessage;
      if (span !== undefined && 'result' in span) return { id: call.id, result: span.result };
      return undefined;
    }).filter((result) => result !== undefined);
    // Results without a call in this message (a tool message after the assistant's) stay as they are.
    const orphanResults = message.toolResults.filter((result) => !toolCalls.some((call) => call.id === result.id));
    return dbMessage({ ...message, role: 'assistant', toolCalls, toolResults: [...toolResults, ...orphanResults] }, `${ids.runId}-out-${index}`, ids.createdAt, ids.conversationId);
  });
}

function usageOf(a: OtlpAttributes): AgentRunEventInput['usage'] | undefined {
  const inputTokens = count(a['gen_ai.usage.input_tokens']) ?? count(a['ai.usage.inputTokens']) ?? count(a['ai.usage.promptTokens']);
  const outputTokens = count(a['gen_ai.usage.output_tokens']) ?? count(a['ai.usage.outputTokens']) ?? count(a['ai.usage.completionTokens']);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  const reasoningTokens = count(a['gen_ai.usage.reasoning_tokens']) ?? count(a['ai.usage.outputTokenDetails.reasoningTokens']) ?? count(a['ai.usage.reasoningTokens']);
  const cachedInputTokens = count(a['gen_ai.usage.cache_read.input_tokens']) ?? count(a['gen_ai.usage.cache_read_input_tokens']) ?? count(a['ai.usage.cachedInputTokens']);
  const totalTokens = count(a['ai.usage.totalTokens']) ?? (inputTokens ?? 0) + (outputTokens ?? 0);
  return {
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    totalTokens,
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
  };
}

function summedUsage(modelCalls: OtlpSpan[]): AgentRunEventInput['usage'] | undefined {
  const usages = modelCalls.map((span) => usageOf(span.attributes)).filter((usage) => usage !== undefined);
  if (usages.length === 0) return undefined;
  const sum = (key: 'inputTokens' | 'outputTokens' | 'totalTokens') => usages.reduce((total, usage) => total + (usage[key] ?? 0), 0);
  return { inputTokens: sum('inputTokens'), outputTokens: sum('outputTokens'), totalTokens: sum('totalTokens') };
}

function metadataOf(agent: OtlpSpan, facts: { conversationId?: string; model?: string; provider?: string }): NonNullable<AgentRunEventInput['metadata']> {
  const resource = agent.resource;
  const tenantId = text(resource['tenant.id']) ?? text(agent.attributes['tenant.id']) ?? text(agent.attributes['ai.telemetry.metadata.tenantId']);
  const environment = text(resource['deployment.environment.name']) ?? text(resource['deployment.environment']);
  const legacyMetadata: Record<string, OtlpValue> = {};
  for (const [key, value] of Object.entries(agent.attributes)) if (key.startsWith('ai.telemetry.metadata.')) legacyMetadata[key.slice('ai.telemetry.metadata.'.length)] = value;
  return {
    ...(tenantId === undefined ? {} : { tenantId }),
    ...(environment === undefined ? {} : { environment }),
    ...(text(resource['service.name']) === undefined ? {} : { serviceName: text(resource['service.name']) }),
    ...(facts.conversationId === undefined ? {} : { conversationId: facts.conversationId }),
    ...(facts.model === undefined ? {} : { model: facts.model }),
    ...(facts.provider === undefined ? {} : { provider: facts.provider }),
    ...(Object.keys(legacyMetadata).length === 0 ? {} : { telemetryMetadata: legacyMetadata }),
    resource,
    otel: { traceId: agent.traceId, spanId: agent.spanId, spanName: agent.name },
  };
}

function errorOf(agent: OtlpSpan): { name?: string; message: string } {
  const name = text(agent.attributes['error.type']);
  const message = agent.status.message ?? text(agent.attributes['error.message']) ?? 'the agent span ended with an error status';
  return { ...(name === undefined ? {} : { name }), message };
}
