// A GenAI run whose spans carry no content: its two model calls' messages go out as log-based
// events (`gen_ai.client.inference.operation.details`, the current GenAI semantic conventions) from
// an OpenTelemetry SDK Logger, each in its call's span context — what Google ADK, Semantic Kernel
// and the GenAI instrumentations in EVENT_ONLY mode send (docs/otlp.md, "Content on the logs signal").
import { context, trace } from '@opentelemetry/api';
import type { Tracer } from '@opentelemetry/api';
import type { LoggerProvider } from '@opentelemetry/sdk-logs';

/** The SDK's own Logger (its api-logs has `eventName`). */
type Logger = ReturnType<LoggerProvider['getLogger']>;

export const EVENT_QUESTION = 'What is the weather in Paris?';
export const EVENT_ANSWER = 'It is sunny in Paris.';

const text = (content: string) => [{ type: 'text', content }];

/** Records the run (and one ordinary app log line in it); returns its agent span's trace and span ids. */
export function recordRunWithEventContent(tracer: Tracer, logger: Logger, agentName = 'weather'): { traceId: string; spanId: string } {
  // Times a few ms apart, as real calls are: the run's last model call is the one that answered.
  const t0 = Date.now();
  const agent = tracer.startSpan(`invoke_agent ${agentName}`, { startTime: t0, attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': agentName } });
  const inAgent = trace.setSpan(context.active(), agent);
  const call = (at: number, input: unknown[], output: unknown[]) => {
    const span = tracer.startSpan('chat scripted-model', { startTime: at, attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'scripted-model' } }, inAgent);
    logger.emit({ eventName: 'gen_ai.client.inference.operation.details', timestamp: at + 1, context: trace.setSpan(inAgent, span), attributes: { 'gen_ai.input.messages': input as never, 'gen_ai.output.messages': output as never } });
    span.end(at + 2);
  };
  const question = { role: 'user', parts: text(EVENT_QUESTION) };
  const toolCall = { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] };
  // The app's own log line in the run's context, as a logs pipeline carries beside the GenAI events: no content, dropped as read.
  logger.emit({ timestamp: t0 + 1, context: inAgent, severityText: 'INFO', body: `looking up the weather for ${agentName}`, attributes: { 'code.function.name': 'lookup' } });
  call(t0 + 1, [question], [toolCall]);
  call(t0 + 5, [question, toolCall, { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'sunny, 21°C' }] }], [{ role: 'assistant', parts: text(EVENT_ANSWER) }]);
  agent.end(t0 + 10);
  return { traceId: agent.spanContext().traceId, spanId: agent.spanContext().spanId };
}

/** A log record in the context of a span that never ends, so is never exported: its trace never arrives. */
export function recordOrphanEvent(tracer: Tracer, logger: Logger): string {
  const span = tracer.startSpan('chat never-ended', { attributes: { 'gen_ai.operation.name': 'chat' } });
  logger.emit({ eventName: 'gen_ai.client.inference.operation.details', context: trace.setSpan(context.active(), span), attributes: { 'gen_ai.input.messages': [{ role: 'user', parts: text('lost') }] as never } });
  return span.spanContext().traceId;
}
