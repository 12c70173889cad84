// What every JS agent of local/agents/ shares: the one task (a weather question answered with one
// tool call), its ids, and the OpenTelemetry Node SDK exporting OTLP/HTTP (protobuf) to the
// endpoint the runner passes (local/agents/run-framework-agent.ts), as each framework's docs set it up.
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export const QUESTION = 'What is the weather in Paris?';
export const INSTRUCTIONS = 'You are a weather agent. Use the get_weather tool, then answer in one sentence.';
export const SESSION_ID = 'session-42';
export const USER_ID = 'user-7';
export const MODEL = process.env.SCRIPTED_MODEL ?? 'scripted-model';
export const MODEL_BASE_URL = process.env.SCRIPTED_MODEL_BASE_URL;
export const OTLP_TRACES_URL = process.env.OTLP_TRACES_URL;
export const API_KEY = process.env.OPENAI_API_KEY ?? 'sk-scripted';

export const weather = (city) => `sunny, 21°C in ${city}`;

export function tracerProvider() {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME ?? 'agent' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: OTLP_TRACES_URL }))],
  });
  provider.register();
  return provider;
}
