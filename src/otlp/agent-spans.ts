// Which spans are agent runs, and which are Scorestream's own. An agent run is an `invoke_agent`
// span (GenAI semantic conventions: the AI SDK's @ai-sdk/otel, Mastra's OTel exporter) or the AI
// SDK's legacy `ai.generateText` / `ai.streamText` span. The service's own judge calls are AI SDK
// agent spans too, inside the very traces it scores: they carry `scorestream.origin=judge` and the
// service's resource `scorestream.origin=scorestream` (docs/delivery.md, loop guard), and are
// never runs.
import type { OtlpSpan } from './otlp-span.ts';

const LEGACY_AGENT_OPERATIONS = new Set(['ai.generateText', 'ai.streamText']);

/** Whether the span was produced by Scorestream itself (a judge call, a score span). */
export function isScorestreamSpan(span: OtlpSpan): boolean {
  return span.attributes['scorestream.origin'] !== undefined || span.resource['scorestream.origin'] === 'scorestream';
}

/** Whether the span is an agent run's span (judge spans are not). */
export function isAgentSpan(span: OtlpSpan): boolean {
  if (isScorestreamSpan(span)) return false;
  if (span.attributes['gen_ai.operation.name'] === 'invoke_agent') return true;
  const operation = span.attributes['ai.operationId'];
  return typeof operation === 'string' ? LEGACY_AGENT_OPERATIONS.has(operation) : LEGACY_AGENT_OPERATIONS.has(span.name);
}

/** Whether the span is a tool execution (GenAI `execute_tool`, legacy `ai.toolCall`). */
export function isToolSpan(span: OtlpSpan): boolean {
  return span.attributes['gen_ai.operation.name'] === 'execute_tool' || span.attributes['ai.operationId'] === 'ai.toolCall' || span.name === 'ai.toolCall';
}

/** Whether the span is one model call (GenAI `chat`, legacy `ai.generateText.doGenerate` / `ai.streamText.doStream`). */
export function isModelCallSpan(span: OtlpSpan): boolean {
  const operation = span.attributes['ai.operationId'];
  return (
    span.attributes['gen_ai.operation.name'] === 'chat' ||
    span.attributes['gen_ai.operation.name'] === 'text_completion' ||
    operation === 'ai.generateText.doGenerate' ||
    operation === 'ai.streamText.doStream'
  );
}
