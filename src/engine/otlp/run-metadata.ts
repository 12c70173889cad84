// The facts of a run besides its messages, in each convention (docs/otlp.md, the mapping table):
// who ran (entity), on which model and provider, with what usage, in which conversation (session,
// thread) for which user, and the app's own metadata — plus the resource's attributes and the
// run's span as `metadata.otel`. Attributes are read by key (scorestream otlp inspect counts the
// reads), first the run span's, then the spans it owns.
import type { AgentRunEventInput } from '../../kit/contracts/agent-run-event.ts';
import type { ClassifiedSpan, RunRule } from './find-runs.ts';
import type { OtlpAttributes, OtlpSpan, OtlpValue } from './otlp-span.ts';
import { isRecord, jsonOrValue } from './read-messages.ts';

const text = (value: OtlpValue | undefined): string | undefined => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined);
const count = (value: OtlpValue | undefined): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);

/** The first of `keys` with a text value. */
const first = (a: OtlpAttributes, keys: readonly string[]): string | undefined => {
  for (const key of keys) {
    const value = text(a[key]);
    if (value !== undefined) return value;
  }
  return undefined;
};

const AGENT_ID_KEYS = ['gen_ai.agent.id', 'gen_ai.agent.name', 'agent.name', 'ai.telemetry.functionId'];
const AGENT_NAME_KEYS = ['gen_ai.agent.name', 'agent.name', 'ai.telemetry.functionId'];
const CONVERSATION_KEYS = ['gen_ai.conversation.id', 'session.id', 'traceloop.association.properties.session_id', 'traceloop.association.properties.thread_id', 'ai.telemetry.metadata.sessionId', 'ai.telemetry.metadata.threadId', 'ai.telemetry.metadata.conversationId'];
const USER_KEYS = ['user.id', 'enduser.id', 'gen_ai.user.id', 'traceloop.association.properties.user_id', 'ai.telemetry.metadata.userId'];
/** OpenInference's `metadata` (a JSON object) names the conversation under these keys (LangGraph: thread_id). */
const METADATA_CONVERSATION_KEYS = ['session_id', 'conversation_id', 'thread_id'];

/** The agent's id and name: the run span's, an inner agent's (the OpenAI Agents SDK names only its inner agent), an OpenLLMetry entity name, else the service. */
/** An OpenInference AGENT span named after the method that ran the agent (smolagents' `weather_agent.run`, CrewAI's `support_agent._execute_core`) names the agent. */
function methodOwner(spanName: string): string | undefined {
  return /^(.+)\.(?:run|arun|invoke|ainvoke|_execute_core|execute_task|kickoff)$/.exec(spanName)?.[1];
}

export function entityOf(span: OtlpSpan, innerAgents: readonly OtlpSpan[], rule: RunRule): AgentRunEventInput['entity'] {
  const named = [span, ...innerAgents];
  const fromAgents = (keys: readonly string[]) => {
    for (const agent of named) {
      const value = first(agent.attributes, keys) ?? (agent.attributes['traceloop.span.kind'] === 'agent' ? text(agent.attributes['traceloop.entity.name']) : undefined) ?? (agent.attributes['openinference.span.kind'] === 'AGENT' ? (text(agent.attributes['graph.node.id']) ?? (keys === AGENT_NAME_KEYS ? methodOwner(agent.name) : undefined)) : undefined);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const name = fromAgents(AGENT_NAME_KEYS);
  const id = fromAgents(AGENT_ID_KEYS) ?? text(span.resource['service.name']) ?? span.name;
  return { type: 'agent', id, ...(name === undefined ? (rule === 'root_span' && span.name !== '' ? { name: span.name } : {}) : { name }) };
}

function metadataObject(a: OtlpAttributes): Record<string, unknown> | undefined {
  const value = a.metadata;
  if (value === undefined) return undefined;
  const parsed = jsonOrValue(value);
  return isRecord(parsed) ? parsed : undefined;
}

/** The conversation (session, thread) and user ids, and the app's metadata: the run span's first, then the spans it owns. */
export function conversationFacts(span: OtlpSpan, own: readonly ClassifiedSpan[]): { conversationId?: string; userId?: string; appMetadata?: Record<string, unknown> } {
  let conversationId: string | undefined;
  let userId: string | undefined;
  let appMetadata: Record<string, unknown> | undefined;
  // The app's metadata from the run span and the agent and model spans (the frameworks repeat it on each); the ids from any span.
  for (let index = -1; index < own.length; index++) {
    const entry = index === -1 ? undefined : own[index]!;
    const a = (entry?.span ?? span).attributes;
    conversationId ??= first(a, CONVERSATION_KEYS);
    userId ??= first(a, USER_KEYS);
    if (appMetadata === undefined && (entry === undefined || entry.role === 'agent' || entry.role === 'model')) {
      const metadata = metadataObject(a);
      const legacy = prefixed(a, 'ai.telemetry.metadata.');
      const association = prefixed(a, 'traceloop.association.properties.');
      if (metadata !== undefined || legacy !== undefined || association !== undefined) appMetadata = { ...metadata, ...legacy, ...association };
    }
    if (conversationId !== undefined && userId !== undefined && appMetadata !== undefined) break;
  }
  if (conversationId === undefined && appMetadata !== undefined) {
    const key = METADATA_CONVERSATION_KEYS.find((name) => typeof appMetadata![name] === 'string' && appMetadata![name] !== '');
    if (key !== undefined) conversationId = appMetadata[key] as string;
  }
  return { ...(conversationId === undefined ? {} : { conversationId }), ...(userId === undefined ? {} : { userId }), ...(appMetadata === undefined ? {} : { appMetadata }) };
}

/** Attributes under `prefix`, the prefix cut off (read by key: only this family's values are read). */
function prefixed(a: OtlpAttributes, prefix: string): Record<string, OtlpValue> | undefined {
  let found: Record<string, OtlpValue> | undefined;
  for (const key in a) {
    if (!key.startsWith(prefix)) continue;
    found ??= {};
    found[key.slice(prefix.length)] = a[key]!;
  }
  return found;
}

const MODEL_KEYS = ['gen_ai.response.model', 'gen_ai.request.model', 'llm.model_name', 'ai.model.id'];
const PROVIDER_KEYS = ['gen_ai.provider.name', 'gen_ai.system', 'llm.provider', 'llm.system', 'ai.model.provider'];

export function modelFacts(span: OtlpSpan, modelCalls: readonly OtlpSpan[]): { model?: string; provider?: string } {
  // The provider goes with the model: an agent span's gen_ai.provider.name may name the framework (OpenLLMetry: 'langgraph').
  const last = modelCalls.at(-1)?.attributes;
  const own = first(span.attributes, MODEL_KEYS);
  const model = own ?? (last === undefined ? undefined : first(last, MODEL_KEYS));
  const [near, far] = own !== undefined || last === undefined ? [span.attributes, last] : [last, span.attributes];
  const provider = first(near, PROVIDER_KEYS) ?? (far === undefined ? undefined : first(far, PROVIDER_KEYS));
  return { ...(model === undefined ? {} : { model }), ...(provider === undefined ? {} : { provider }) };
}

type Usage = NonNullable<AgentRunEventInput['usage']>;

function pick(a: OtlpAttributes, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const value = count(a[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** One span's usage: GenAI gen_ai.usage.*, OpenInference llm.token_count.*, OpenLLMetry's older names, the AI SDK's ai.usage.*. */
export function usageOf(a: OtlpAttributes): Usage | undefined {
  const inputTokens = pick(a, ['gen_ai.usage.input_tokens', 'llm.token_count.prompt', 'gen_ai.usage.prompt_tokens', 'ai.usage.inputTokens', 'ai.usage.promptTokens']);
  const outputTokens = pick(a, ['gen_ai.usage.output_tokens', 'llm.token_count.completion', 'gen_ai.usage.completion_tokens', 'ai.usage.outputTokens', 'ai.usage.completionTokens']);
  if (inputTokens === undefined && outputTokens === undefined) return undefined;
  const reasoningTokens = pick(a, ['gen_ai.usage.reasoning_tokens', 'llm.token_count.completion_details.reasoning', 'ai.usage.outputTokenDetails.reasoningTokens', 'ai.usage.reasoningTokens']);
  const cachedInputTokens = pick(a, ['gen_ai.usage.cache_read.input_tokens', 'gen_ai.usage.cache_read_input_tokens', 'llm.token_count.prompt_details.cache_read', 'ai.usage.cachedInputTokens']);
  const totalTokens = pick(a, ['ai.usage.totalTokens', 'llm.token_count.total', 'llm.usage.total_tokens']) ?? (inputTokens ?? 0) + (outputTokens ?? 0);
  return {
    ...(inputTokens === undefined ? {} : { inputTokens }),
    ...(outputTokens === undefined ? {} : { outputTokens }),
    totalTokens,
    ...(reasoningTokens === undefined ? {} : { reasoningTokens }),
    ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
  };
}

/**
 * The run's usage: its span's own, else summed over its model calls — only the outermost of nested
 * ones (LangChain's model span around the OpenAI client's, both traced by OpenLLMetry, count once).
 */
export function runUsage(span: OtlpSpan, modelCalls: readonly OtlpSpan[]): Usage | undefined {
  const own = usageOf(span.attributes);
  if (own !== undefined) return own;
  const ids = new Set(modelCalls.map((call) => call.spanId));
  const outermost = modelCalls.filter((call) => call.parentSpanId === undefined || !ids.has(call.parentSpanId));
  const usages = outermost.map((call) => usageOf(call.attributes) ?? innerUsage(call, modelCalls)).filter((usage) => usage !== undefined);
  if (usages.length === 0) return undefined;
  const sum = (key: 'inputTokens' | 'outputTokens' | 'totalTokens') => usages.reduce((total, usage) => total + (usage[key] ?? 0), 0);
  return { inputTokens: sum('inputTokens'), outputTokens: sum('outputTokens'), totalTokens: sum('totalTokens') };
}

function innerUsage(call: OtlpSpan, modelCalls: readonly OtlpSpan[]): Usage | undefined {
  const child = modelCalls.find((candidate) => candidate.parentSpanId === call.spanId);
  return child === undefined ? undefined : usageOf(child.attributes);
}

export function metadataOf(
  span: OtlpSpan,
  facts: { conversationId?: string; userId?: string; model?: string; provider?: string; appMetadata?: Record<string, unknown>; rule: RunRule; controlTools?: Array<{ name: string; args: unknown }> },
): NonNullable<AgentRunEventInput['metadata']> {
  const resource = span.resource;
  const tenantId = text(resource['tenant.id']) ?? text(span.attributes['tenant.id']) ?? text(span.attributes['ai.telemetry.metadata.tenantId']);
  const environment = text(resource['deployment.environment.name']) ?? text(resource['deployment.environment']);
  const serviceName = text(resource['service.name']);
  return {
    ...(tenantId === undefined ? {} : { tenantId }),
    ...(environment === undefined ? {} : { environment }),
    ...(serviceName === undefined ? {} : { serviceName }),
    ...(facts.conversationId === undefined ? {} : { conversationId: facts.conversationId }),
    ...(facts.userId === undefined ? {} : { userId: facts.userId }),
    ...(facts.model === undefined ? {} : { model: facts.model }),
    ...(facts.provider === undefined ? {} : { provider: facts.provider }),
    ...(facts.appMetadata === undefined ? {} : { telemetryMetadata: facts.appMetadata }),
    resource,
    otel: { traceId: span.traceId, spanId: span.spanId, spanName: span.name, rule: facts.rule, ...(facts.controlTools === undefined || facts.controlTools.length === 0 ? {} : { controlTools: facts.controlTools }) },
  };
}

export function errorOf(span: OtlpSpan): { name?: string; message: string } {
  const name = text(span.attributes['error.type']);
  const message = span.status.message ?? text(span.attributes['error.message']) ?? 'the agent span ended with an error status';
  return { ...(name === undefined ? {} : { name }), message };
}
