// OTLP fixtures made by the real parts: AI SDK calls driven by `ai/test` models with the
// @ai-sdk/otel integration (GenAI conventions) or its legacy `ai.*` telemetry, recorded by the
// OTel SDK, and encoded by the serializers the OTLP exporters use (protobuf and OTLP/JSON). Plus
// spans in the shape Mastra's OTel exporter writes, made with a real tracer.
import { context, SpanStatusCode } from '@opentelemetry/api';
import type { Attributes, Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import { LegacyOpenTelemetry, OpenTelemetry } from '@ai-sdk/otel';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import type { OtlpEncoding } from '../../src/engine/otlp/decode-otlp.ts';

export type Recorder = { tracer: Tracer; spans(): ReadableSpan[]; reset(): void; flush(): Promise<void>; shutdown(): Promise<void> };

/**
 * A tracer provider of its own (not the global one) with an in-memory exporter, plus `processors`
 * (say a batch processor exporting OTLP to a Collector); installs a context manager.
 */
export function spanRecorder(resource: Attributes = { 'service.name': 'weather-service' }, processors: SpanProcessor[] = []): Recorder {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ resource: resourceFromAttributes(resource), spanProcessors: [new SimpleSpanProcessor({ exporter }), ...processors] });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  return {
    tracer: provider.getTracer('fixture'),
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    flush: () => provider.forceFlush(),
    async shutdown() {
      await provider.shutdown();
      context.disable();
    },
  };
}

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: output, text: output, reasoning: undefined },
});

export type WeatherRunOptions = {
  telemetry: 'semconv' | 'legacy';
  tracer: Tracer;
  /** The tool throws instead of answering. */
  toolFails?: boolean;
  agentName?: string;
  question?: string;
};

/** One agent run: the model calls the `weather` tool, then answers. Returns the answer text. */
export async function runWeatherAgent(options: WeatherRunOptions): Promise<string> {
  let call = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      call += 1;
      if (call === 1) {
        return { content: [{ type: 'tool-call', toolCallId: `call-${call}`, toolName: 'weather', input: JSON.stringify({ city: 'Paris' }) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage: usage(10, 5), warnings: [] };
      }
      return { content: [{ type: 'text', text: 'It is sunny in Paris.' }], finishReason: { unified: 'stop', raw: undefined }, usage: usage(20, 7), warnings: [] };
    },
  });
  const integration = options.telemetry === 'legacy' ? new LegacyOpenTelemetry({ tracer: options.tracer }) : new OpenTelemetry({ tracer: options.tracer });
  const result = await generateText({
    model,
    system: 'You are a weather agent.',
    prompt: options.question ?? 'Weather in Paris?',
    tools: {
      weather: tool({
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          if (options.toolFails === true) throw new Error('weather service down');
          return { city, sky: 'sunny' };
        },
      }),
    },
    stopWhen: stepCountIs(3),
    telemetry: { functionId: options.agentName ?? 'weather-agent', integrations: [integration] },
  });
  return result.text;
}

/** Spans in the shape Mastra's OTel exporter writes: invoke_agent → chat, execute_tool. */
export function recordMastraRun(tracer: Tracer, options: { conversationId?: string; fail?: boolean } = {}): void {
  tracer.startActiveSpan(
    'invoke_agent Weather Agent',
    {
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'mastra.span.type': 'agent_run',
        'gen_ai.agent.id': 'weatherAgent',
        'gen_ai.agent.name': 'Weather Agent',
        'gen_ai.system_instructions': 'You answer weather questions.',
        'mastra.agent_run.input': JSON.stringify([{ role: 'user', content: 'Weather in Oslo?' }]),
        ...(options.conversationId === undefined ? {} : { 'gen_ai.conversation.id': options.conversationId }),
      },
    },
    (agent) => {
      const chat = tracer.startSpan('chat gpt-4o-mini', {
        attributes: {
          'gen_ai.operation.name': 'chat',
          'mastra.span.type': 'model_generation',
          'gen_ai.request.model': 'gpt-4o-mini',
          'gen_ai.provider.name': 'openai',
          'gen_ai.usage.input_tokens': 12,
          'gen_ai.usage.output_tokens': 8,
          'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Weather in Oslo?' }] }]),
          'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'Snow in Oslo.' }] }]),
        },
      });
      chat.end();
      const toolSpan = tracer.startSpan('execute_tool weatherTool', {
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'mastra.span.type': 'tool_call',
          'gen_ai.tool.name': 'weatherTool',
          'gen_ai.tool.call.id': 'tool-oslo',
          'gen_ai.tool.call.arguments': JSON.stringify({ city: 'Oslo' }),
          'gen_ai.tool.call.result': JSON.stringify({ sky: 'snow' }),
        },
      });
      toolSpan.end();
      if (options.fail === true) agent.setStatus({ code: SpanStatusCode.ERROR, message: 'model refused' });
      agent.setAttribute('mastra.agent_run.output', JSON.stringify({ text: 'Snow in Oslo.' }));
      agent.end();
    },
  );
}

/** A trace with no agent span (an HTTP request and a database call). */
export function recordPlainTrace(tracer: Tracer): void {
  tracer.startActiveSpan('GET /health', (root) => {
    tracer.startSpan('SELECT 1', { attributes: { 'db.system': 'postgresql' } }).end();
    root.end();
  });
}

/** The bytes a Collector's kafka exporter writes for these spans, in `encoding`. */
export function encodeSpans(spans: ReadableSpan[], encoding: OtlpEncoding): Buffer {
  const bytes = encoding === 'otlp_proto' ? ProtobufTraceSerializer.serializeRequest(spans) : JsonTraceSerializer.serializeRequest(spans);
  if (bytes === undefined) throw new Error('the OTLP serializer returned nothing');
  return Buffer.from(bytes);
}


export type OtlpTraffic = {
  /** Kafka messages as the Collector's kafka exporter writes them. */
  messages: Array<{ key: string | null; value: Buffer }>;
  /** The agent spans: one run each. */
  agents: Array<{ traceId: string; spanId: string }>;
  traces: number;
};

/**
 * Synthetic traffic made with a real tracer: `traces` traces, every `agentEvery`-th an agent run
 * (invoke_agent → chat, execute_tool, with GenAI attributes), the others an HTTP request with a
 * database call. Each agent's tool span is a late descendant: it travels in a later message than
 * its agent span. `byTrace` writes one message per trace keyed by the trace id (the exporter's
 * partition_traces_by_id; the late span in a message of its own with the same key); otherwise
 * batches of `tracesPerMessage` traces without a key, the late spans in the next batch.
 */
export function otlpTraffic(options: { traces: number; agentEvery: number; encoding: OtlpEncoding; byTrace?: boolean; tracesPerMessage?: number }): OtlpTraffic {
  const recorder = spanRecorder({ 'service.name': 'traffic', 'tenant.id': 'acme' });
  const agents: OtlpTraffic['agents'] = [];
  const late = new Set<string>();
  for (let index = 0; index < options.traces; index += 1) {
    if (index % options.agentEvery === 0) {
      recorder.tracer.startActiveSpan(
        `invoke_agent agent-${index}`,
        { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': `agent-${index % 7}`, 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `question ${index}` }] }]) } },
        (agent) => {
          recorder.tracer.startSpan('chat model', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'model', 'gen_ai.usage.input_tokens': 10, 'gen_ai.usage.output_tokens': 4 } }).end();
          const toolSpan = recorder.tracer.startSpan('execute_tool lookup', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': `call-${index}`, 'gen_ai.tool.call.arguments': '{"q":1}', 'gen_ai.tool.call.result': '"found"' } });
          toolSpan.end();
          late.add(toolSpan.spanContext().spanId);
          agent.setAttribute('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `The answer to question ${index} is long enough to score.` }] }]));
          agent.end();
          agents.push({ traceId: agent.spanContext().traceId, spanId: agent.spanContext().spanId });
        },
      );
    } else recordPlainTrace(recorder.tracer);
  }
  const byTraceId = new Map<string, ReadableSpan[]>();
  for (const span of recorder.spans()) {
    const list = byTraceId.get(span.spanContext().traceId) ?? [];
    list.push(span);
    byTraceId.set(span.spanContext().traceId, list);
  }
  const traceSpans = [...byTraceId.values()];
  const messages: OtlpTraffic['messages'] = [];
  if (options.byTrace === true) {
    for (const spans of traceSpans) {
      const key = spans[0]!.spanContext().traceId;
      const early = spans.filter((span) => !late.has(span.spanContext().spanId));
      const lateOnes = spans.filter((span) => late.has(span.spanContext().spanId));
      messages.push({ key, value: encodeSpans(early, options.encoding) });
      if (lateOnes.length > 0) messages.push({ key, value: encodeSpans(lateOnes, options.encoding) });
    }
  } else {
    const size = options.tracesPerMessage ?? 100;
    let carried: ReadableSpan[] = [];
    for (let start = 0; start < traceSpans.length; start += size) {
      const spans = traceSpans.slice(start, start + size).flat();
      messages.push({ key: null, value: encodeSpans([...carried, ...spans.filter((span) => !late.has(span.spanContext().spanId))], options.encoding) });
      carried = spans.filter((span) => late.has(span.spanContext().spanId));
    }
    if (carried.length > 0) messages.push({ key: null, value: encodeSpans(carried, options.encoding) });
  }
  return { messages, agents, traces: traceSpans.length };
}

export type SplitAgentTraffic = {
  /** Per trace, the message with its model and tool spans (what an exporter sends first). */
  early: Array<{ key: string; value: Buffer }>;
  /** Per trace, the message with its agent span, sent later. */
  late: Array<{ key: string; value: Buffer }>;
  agents: Array<{ traceId: string; spanId: string }>;
};

/**
 * `traces` agent traces, each split over two messages keyed by its trace id: the model and tool
 * spans first, the agent span (the trace's root) after — a trace that assembles across messages.
 */
export function splitAgentTraffic(options: { traces: number; encoding: OtlpEncoding; prefix?: string }): SplitAgentTraffic {
  const recorder = spanRecorder({ 'service.name': 'split-traffic', 'tenant.id': 'acme' });
  const traffic: SplitAgentTraffic = { early: [], late: [], agents: [] };
  for (let index = 0; index < options.traces; index += 1) {
    recorder.reset();
    recorder.tracer.startActiveSpan(
      `invoke_agent ${options.prefix ?? 'split'}-${index}`,
      { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'splitter', 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: `question ${index}` }] }]) } },
      (agent) => {
        recorder.tracer.startSpan('chat model', { attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'model' } }).end();
        recorder.tracer.startSpan('execute_tool lookup', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup', 'gen_ai.tool.call.id': `call-${index}` } }).end();
        agent.setAttribute('gen_ai.output.messages', JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: `The answer to question ${index} is long enough to score.` }] }]));
        agent.end();
        traffic.agents.push({ traceId: agent.spanContext().traceId, spanId: agent.spanContext().spanId });
      },
    );
    const spans = recorder.spans();
    const key = spans[0]!.spanContext().traceId;
    traffic.early.push({ key, value: encodeSpans(spans.filter((span) => span.parentSpanContext !== undefined), options.encoding) });
    traffic.late.push({ key, value: encodeSpans(spans.filter((span) => span.parentSpanContext === undefined), options.encoding) });
  }
  return traffic;
}
