// @openai/agents (the OpenAI Agents SDK for JS) traced by
// @arizeai/openinference-instrumentation-openai-agents, as its README's quickstart shows; the SDK's
// default model API (Responses) against the scripted model server.
import * as agents from '@openai/agents';
import { OpenAIAgentsInstrumentation } from '@arizeai/openinference-instrumentation-openai-agents';
import { z } from 'zod';
import { INSTRUCTIONS, MODEL, QUESTION, tracerProvider, weather } from './common.mjs';

const provider = tracerProvider();
new OpenAIAgentsInstrumentation({ tracerProvider: provider }).manuallyInstrument(agents);

const getWeather = agents.tool({
  name: 'get_weather',
  description: 'Get the current weather in a city.',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => weather(city),
});
const agent = new agents.Agent({ name: 'Weather agent', instructions: INSTRUCTIONS, tools: [getWeather], model: MODEL });
const result = await agents.run(agent, QUESTION);
console.log(result.finalOutput);
await provider.shutdown();
