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
export function classifySpan(span: OtlpSpan): { role: SpanRole; convention: SpanConvention | undefined } {
  const a = span.attributes;
  const operation = a['gen_ai.operation.name'];
  if (operation === 'invoke_agent') return { role: 'agent', convention: 'genai' };
  if (operation === 'execute_tool') return { role: 'tool', convention: 'genai' };
  if (typeof operation === 'string' && GENAI_MODEL_OPERATIONS.has(operation)) return { role: 'model', convention: 'genai' };
  const openInference = a['openinference.span.kind'];
  if (openInference !== undefined) {
    const role = openInference === 'AGENT' ? 'agent' : openInference === 'LLM' ? 'model' : openInference === 'TOOL' ? 'tool' : 'other';
    return { role, convention: 'openinference' };
  }
  const traceloop = a['traceloop.span.kind'];
  if (traceloop !== undefined) return { role: traceloop === 'agent' ? 'agent' : traceloop === 'tool' ? 'tool' : 'other', convention: 'openllmetry' };
  if (a['llm.request.type'] === 'chat' || a['llm.request.type'] === 'completion') return { role: 'model', convention: 'openllmetry' };
  const aiOperation = typeof a['ai.operationId'] === 'string' ? a['ai.operationId'] : undefined;
  const legacy = aiOperation ?? span.name;
  if (LEGACY_AGENT_OPERATIONS.has(legacy)) return { role: 'agent', convention: 'ai-sdk' };
  if (LEGACY_MODEL_OPERATIONS.has(legacy)) return { role: 'model', convention: 'ai-sdk' };
  if (legacy === 'ai.toolCall') return { role: 'tool', convention: 'ai-sdk' };
  if (operation !== undefined) return { role: 'other', convention: 'genai' };
  return { role: 'other', convention: undefined };
}

/** Whether the span is an agent run's span (judge spans are not). */
export function isAgentSpan(span: OtlpSpan): boolean {
  return !isScorestreamSpan(span) && classifySpan(span).role === 'agent';
}

/** Whether the span is a tool execution. */
export function isToolSpan(span: OtlpSpan): boolean {
  return classifySpan(span).role === 'tool';
}

/** Whether the span is one model call. */
export function isModelCallSpan(span: OtlpSpan): boolean {
  return classifySpan(span).role === 'model';
}
