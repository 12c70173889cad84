// The offered tools in the shapes the fixtures do not cover (the framework fixtures hold the
// rest): OpenLLMetry's flattened functions, the AI SDK's prompt tools, Anthropic's input_schema,
// names merged with full definitions, and what never makes the list.
import { describe, expect, it } from 'vitest';
import { offeredToolsOfRun, readToolDefinition } from '../../../../../src/engine/otlp/run-tool-definitions.ts';
import type { OtlpAttributes, OtlpSpan } from '../../../../../src/engine/otlp/otlp-span.ts';

let next = 0;
function span(attributes: OtlpAttributes): OtlpSpan {
  next += 1;
  return {
    traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
    spanId: next.toString(16).padStart(16, '0'),
    name: `span ${next}`,
    startTimeMs: 0,
    endTimeMs: 1,
    attributes,
    events: [],
    status: { code: 0 },
    resource: {},
  };
}

const citySchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };

describe('offeredToolsOfRun', () => {
  it("reads OpenLLMetry's flattened llm.request.functions, parameters as JSON text", () => {
    const model = span({
      'llm.request.functions.0.name': 'get_weather',
      'llm.request.functions.0.description': 'Weather by city.',
      'llm.request.functions.0.parameters': JSON.stringify(citySchema),
      'llm.request.functions.1.name': 'get_time',
    });
    expect(offeredToolsOfRun([model], [])).toEqual([
      { name: 'get_weather', description: 'Weather by city.', parameters: citySchema },
      { name: 'get_time' },
    ]);
  });

  it("reads the AI SDK's ai.prompt.tools (a list of JSON strings with inputSchema) and Anthropic's input_schema", () => {
    const model = span({
      'ai.prompt.tools': [JSON.stringify({ type: 'function', name: 'lookupOrder', description: 'Find an order.', inputSchema: citySchema })],
      'gen_ai.tool.definitions': JSON.stringify([{ name: 'refund', input_schema: { type: 'object' } }]),
    });
    expect(offeredToolsOfRun([model], [])).toEqual([
      { name: 'refund', parameters: { type: 'object' } },
      { name: 'lookupOrder', description: 'Find an order.', parameters: citySchema },
    ]);
  });

  it('takes the union over the model calls, and a bare name is completed by a later full definition', () => {
    const agent = span({ 'gen_ai.agent.tools': JSON.stringify(['search', 'book']) });
    const first = span({ 'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', name: 'search', description: 'Search flights.', parameters: citySchema }]) });
    const second = span({ 'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', name: 'cancel' }]) });
    expect(offeredToolsOfRun([agent, first, second], [])).toEqual([
      { name: 'search', description: 'Search flights.', parameters: citySchema },
      { name: 'book' },
      { name: 'cancel' },
    ]);
  });

  it('a tool span completes a listed tool but never adds one: a call is not an offer', () => {
    const agent = span({ 'gen_ai.agent.tools': JSON.stringify(['get_weather']) });
    const toolSpans = [
      span({ 'gen_ai.tool.name': 'get_weather', 'gen_ai.tool.description': 'Weather.', 'gen_ai.tool.json_schema': JSON.stringify(citySchema) }),
      span({ 'tool.name': 'delete_account', 'tool.parameters': '{"type":"object"}' }),
    ];
    expect(offeredToolsOfRun([agent], toolSpans)).toEqual([{ name: 'get_weather', description: 'Weather.', parameters: citySchema }]);
    expect(offeredToolsOfRun([span({})], toolSpans), 'no list: not known').toBeUndefined();
  });

  it('a list that names nothing readable is an empty offer; unreadable items and schemas are skipped, never fatal', () => {
    const model = span({ 'gen_ai.tool.definitions': JSON.stringify([42, null, { description: 'no name' }, { name: 'ok', parameters: 'not json {' }]) });
    expect(offeredToolsOfRun([model], [])).toEqual([{ name: 'ok' }]);
    expect(offeredToolsOfRun([span({ 'gen_ai.tool.definitions': '[]' })], [])).toEqual([]);
    expect(offeredToolsOfRun([span({ 'gen_ai.tool.definitions': 'garbage' })], [])).toEqual([]);
  });
});

describe('readToolDefinition', () => {
  it("unwraps an OpenAI tool's function and keeps a hostile name as data", () => {
    expect(readToolDefinition({ type: 'function', function: { name: 'a\u001b[31m\nb', parameters: citySchema } })).toEqual({ name: 'a\u001b[31m\nb', parameters: citySchema });
    expect(readToolDefinition('')).toBeUndefined();
    expect(readToolDefinition({ function: { name: '' } })).toBeUndefined();
  });
});
