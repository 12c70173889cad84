// LangChain JS + LangGraph's createReactAgent with ChatOpenAI, traced by
// @arizeai/openinference-instrumentation-langchain, as its README shows (the callback manager
// instrumented by hand).
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { API_KEY, INSTRUCTIONS, MODEL, MODEL_BASE_URL, QUESTION, SESSION_ID, tracerProvider, weather } from './common.mjs';

const provider = tracerProvider();
new LangChainInstrumentation({ tracerProvider: provider }).manuallyInstrument(CallbackManagerModule);

const getWeather = tool(async ({ city }) => weather(city), { name: 'get_weather', description: 'Get the current weather in a city.', schema: z.object({ city: z.string() }) });
const agent = createReactAgent({ llm: new ChatOpenAI({ model: MODEL, apiKey: API_KEY, configuration: { baseURL: MODEL_BASE_URL } }), tools: [getWeather], prompt: INSTRUCTIONS });
const result = await agent.invoke({ messages: [{ role: 'user', content: QUESTION }] }, { configurable: { thread_id: SESSION_ID } });
console.log(result.messages.at(-1).content);
await provider.shutdown();
