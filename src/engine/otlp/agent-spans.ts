// What each span is, whichever convention wrote it: an agent run's span, one model call, one tool
// execution, or anything else — and which convention that was. The three conventions of the field
// (docs/otlp.md, "What a run is"):
//   - GenAI semantic conventions: `gen_ai.operation.name` invoke_agent / chat / text_completion /
//     generate_content / execute_tool (the AI SDK's @ai-sdk/otel, Mastra, Strands, pydantic-ai,
//     opentelemetry-instrumentation-openai-v2); the AI SDK's legacy `ai.*` spans beside them;
//   - OpenInference: `openinference.span.kind` AGENT / LLM / TOOL (/ CHAIN, ...) (LangChain and
//     LangGraph, the OpenAI Agents SDKs, LlamaIndex, CrewAI);
//   - OpenLLMetry: `traceloop.span.kind` agent / tool / workflow / task, and its model-call spans
//     (`llm.request.type`) (traceloop-sdk and its instrumentations).
// The service's own judge calls are AI SDK agent spans too, inside the very traces it scores: they
// carry `scorestream.origin=judge` and the service's resource `scorestream.origin=scorestream`
// (docs/delivery.md, loop guard), and are never runs.
import type { OtlpSpan } from './otlp-span.ts';

export type SpanRole = 'agent' | 'model' | 'tool' | 'other';
export type SpanConvention = 'genai' | 'ai-sdk' | 'openinference' | 'openllmetry';

const LEGACY_AGENT_OPERATIONS = new Set(['ai.generateText', 'ai.streamText']);
const LEGACY_MODEL_OPERATIONS = new Set(['ai.generateText.doGenerate', 'ai.streamText.doStream']);
const GENAI_MODEL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);

/** Whether the span was produced by Scorestream itself (a judge call, a score span). */
export function isScorestreamSpan(span: OtlpSpan): boolean {
  return span.attributes['scorestream.origin'] !== undefined || span.resource['scorestream.origin'] === 'scorestream';
}

/**
 * The span's role and the convention that says so. A span that several conventions describe (an
 * OpenLLMetry agent span that also carries GenAI attributes) takes its role from the first that
 * names one: GenAI, then OpenInference, then OpenLLMetry, then the AI SDK's legacy names.
 */
export type SpanKind = { readonly role: SpanRole; readonly convention: SpanConvention | undefined };

// One frozen object per (role, convention): classifying a span allocates nothing.
const KINDS = new Map<string, SpanKind>();
const kind = (role: SpanRole, convention: SpanConvention | undefined): SpanKind => {
  const key = `${role}/${convention ?? ''}`;
  let found = KINDS.get(key);
  if (found === undefined) KINDS.set(key, (found = Object.freeze({ role, convention })));
  return found;
};
const OPEN_INFERENCE_ROLES: Record<string, SpanRole> = { AGENT: 'agent', LLM: 'model', TOOL: 'tool' };

export function classifySpan(span: OtlpSpan): SpanKind {
  const a = span.attributes;
  const operation = a['gen_ai.operation.name'];
  if (operation === 'invoke_agent') return kind('agent', 'genai');
  if (operation === 'execute_tool') return kind('tool', 'genai');
  if (typeof operation === 'string' && GENAI_MODEL_OPERATIONS.has(operation)) return kind('model', 'genai');
  // A span that names a tool it ran is a tool span whatever its kind says (LlamaIndex's OpenLLMetry
  // task spans carry `tool.name`; so may a CHAIN).
  const namesTool = typeof a['tool.name'] === 'string' && a['tool.name'] !== '';
  const openInference = a['openinference.span.kind'];
  if (openInference !== undefined) return kind((typeof openInference === 'string' ? OPEN_INFERENCE_ROLES[openInference] : undefined) ?? (namesTool ? 'tool' : 'other'), 'openinference');
  const traceloop = a['traceloop.span.kind'];
  if (traceloop !== undefined) return kind(traceloop === 'agent' ? 'agent' : traceloop === 'tool' || namesTool ? 'tool' : 'other', 'openllmetry');
  if (a['llm.request.type'] === 'chat' || a['llm.request.type'] === 'completion') return kind('model', 'openllmetry');
  const aiOperation = typeof a['ai.operationId'] === 'string' ? a['ai.operationId'] : undefined;
  const legacy = aiOperation ?? span.name;
  if (LEGACY_AGENT_OPERATIONS.has(legacy)) return kind('agent', 'ai-sdk');
  if (LEGACY_MODEL_OPERATIONS.has(legacy)) return kind('model', 'ai-sdk');
  if (legacy === 'ai.toolCall') return kind('tool', 'ai-sdk');
  return kind('other', operation === undefined ? undefined : 'genai');
}

/** Whether the span is an agent run's span (judge spans are not). */
export function isAgentSpan(span: OtlpSpan): boolean {
  // The role first: most spans are not agents, and then the origin need not be looked up.
  return classifySpan(span).role === 'agent' && !isScorestreamSpan(span);
}

/** Whether the span is a tool execution. */
export function isToolSpan(span: OtlpSpan): boolean {
  return classifySpan(span).role === 'tool';
}

/** Whether the span is one model call. */
export function isModelCallSpan(span: OtlpSpan): boolean {
  return classifySpan(span).role === 'model';
}
