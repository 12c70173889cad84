// A Mastra agent with Mastra's observability and its OpenTelemetry exporter (@mastra/otel-exporter,
// the "custom" provider for a generic OTLP endpoint), as Mastra's docs show; the model through
// Mastra's model router with an OpenAI-compatible URL.
import { Agent } from '@mastra/core/agent';
import { Mastra } from '@mastra/core/mastra';
import { createTool } from '@mastra/core/tools';
import { Observability } from '@mastra/observability';
import { OtelExporter } from '@mastra/otel-exporter';
import { z } from 'zod';
import { API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, OTLP_TRACES_URL, QUESTION, SESSION_ID, USER_ID, weather } from './common.mjs';

const getWeather = createTool({
  id: 'get_weather',
  description: 'Get the current weather in a city.',
  inputSchema: z.object({ city: z.string() }),
  execute: async (input) => weather(input.city ?? input.context?.city),
});
const weatherAgent = new Agent({ id: 'weather-agent', name: 'Weather Agent', instructions: INSTRUCTIONS, model: { id: `openai/${MODEL}`, url: MODEL_BASE_URL, apiKey: API_KEY }, tools: { getWeather } });
const exporter = new OtelExporter({ provider: { custom: { endpoint: OTLP_TRACES_URL, protocol: 'http/protobuf' } } });
const mastra = new Mastra({
  agents: { weatherAgent },
  observability: new Observability({ configs: { otel: { serviceName: process.env.OTEL_SERVICE_NAME ?? 'mastra', exporters: [exporter] } } }),
});
const result = await mastra.getAgent('weatherAgent').generate(QUESTION, { memory: undefined, threadId: SESSION_ID, resourceId: USER_ID });
console.log(result.text);
await mastra.shutdown?.();
await exporter.shutdown?.();
