// The instrumented agent app of `scorestream demo --otlp`: it replays sample runs as real AI SDK
// calls — `generateText` on an `ai/test` model that answers with the sample's answer, with the
// @ai-sdk/otel integration on — and exports their spans with the OTel SDK over OTLP/HTTP
// (protobuf) to the Collector, exactly as an agent in production would. No LLM, no API key.
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { OpenTelemetry } from '@ai-sdk/otel';
import { generateText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import type { AgentRunEventInput } from '../src/kit/contracts/agent-run-event.ts';
import { parseAgentRunEvent } from '../src/kit/contracts/parse.ts';
import { getUserMessageFromRunInput } from '../src/kit/utils/run-input.ts';
import { getAssistantMessageFromRunOutput } from '../src/kit/utils/run-output.ts';

export type OtlpAgentApp = {
  /** Replays one sample run as an instrumented AI SDK call. */
  run(event: AgentRunEventInput): Promise<void>;
  close(): Promise<void>;
};

export function startOtlpAgentApp(options: { tracesUrl: string }): OtlpAgentApp {
  // Parent and child spans need a context manager; one set already (telemetry on) is kept.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'demo-agent-app' }),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: options.tracesUrl }), scheduledDelayMillis: 200 })],
  });
  const integration = new OpenTelemetry({ tracer: provider.getTracer('demo-agent-app') });
  return {
    async run(input) {
      const parsed = parseAgentRunEvent(input);
      if (!parsed.success) return;
      const event = parsed.data;
      const answer = getAssistantMessageFromRunOutput(event.output) ?? '';
      const question = getUserMessageFromRunInput(event.input) ?? '';
      const system = event.input.systemMessages.map((message) => (typeof message.content === 'string' ? message.content : message.content.map((part) => part.text).join('\n'))).join('\n');
      const model = new MockLanguageModelV4({
        modelId: 'sample-model',
        doGenerate: async () => ({
          content: [{ type: 'text', text: answer }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: { inputTokens: { total: 40, noCache: 40, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 20, text: 20, reasoning: undefined } },
          warnings: [],
        }),
      });
      await generateText({ model, ...(system === '' ? {} : { system }), prompt: question, telemetry: { functionId: event.entity.id, integrations: [integration] } });
    },
    async close() {
      await provider.shutdown();
    },
  };
}
