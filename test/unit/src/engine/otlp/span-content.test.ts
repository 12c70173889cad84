// The precedence of docs/otlp.md ("Precedence"): within a span, GenAI attributes before the
// flattened OpenInference / OpenLLMetry messages before the events before input.value /
// traceloop.entity.*; a source of empty messages falls through; across spans, the run span before
// an inner agent before the model calls. And the message shapes each source brings.
import { describe, expect, it } from 'vitest';
import { findRuns } from '../../../../../src/engine/otlp/find-runs.ts';
import type { OtlpAttributes, OtlpSpan } from '../../../../../src/engine/otlp/otlp-span.ts';
import { readMessages } from '../../../../../src/engine/otlp/read-messages.ts';
import { assembleRun } from '../../../../../src/engine/otlp/run-from-trace.ts';
import { inputMessagesOf, outputMessagesOf, systemTextsOf } from '../../../../../src/engine/otlp/span-content.ts';
import { getUserMessageFromRunInput } from '../../../../../src/kit/utils/run-input.ts';

let next = 0;
function span(attributes: OtlpAttributes, overrides: Partial<OtlpSpan> = {}): OtlpSpan {
  next += 1;
  return { traceId: 'a'.repeat(32), spanId: next.toString(16).padStart(16, '0'), name: `span-${next}`, startTimeMs: next, endTimeMs: next + 100, attributes, events: [], status: { code: 0 }, resource: {}, ...overrides };
}

const texts = (found: ReturnType<typeof inputMessagesOf>) => found?.messages.flatMap((message) => message.texts);

describe('span content precedence', () => {
  const genai = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'from gen_ai.input.messages' }] }]);
  const flattened = { 'llm.input_messages.0.message.role': 'user', 'llm.input_messages.0.message.content': 'from llm.input_messages' };
  const value = { 'input.value': JSON.stringify({ messages: [{ role: 'user', content: 'from input.value' }] }), 'input.mime_type': 'application/json' };
  const openLlmetry = { 'gen_ai.prompt.0.role': 'user', 'gen_ai.prompt.0.content': 'from gen_ai.prompt' };
  const entity = { 'traceloop.entity.input': JSON.stringify({ args: ['from traceloop.entity.input'], kwargs: {} }) };
  const userEvent = { name: 'gen_ai.user.message', timeMs: 1, attributes: { content: JSON.stringify([{ text: 'from events' }]) } };

  it('GenAI attributes, then flattened messages, then events, then input.value, then traceloop.entity.input', () => {
    expect(inputMessagesOf(span({ 'gen_ai.input.messages': genai, ...flattened, ...value }))).toMatchObject({ source: 'gen_ai.input.messages' });
    expect(inputMessagesOf(span({ ...flattened, ...value, ...entity }))).toMatchObject({ source: 'llm.input_messages' });
    expect(inputMessagesOf(span({ ...openLlmetry, ...entity }))).toMatchObject({ source: 'gen_ai.prompt' });
    expect(inputMessagesOf(span({ ...value, ...entity }, { events: [userEvent] }))).toMatchObject({ source: 'events' });
    expect(texts(inputMessagesOf(span({ ...value, ...entity })))).toEqual(['from input.value']);
    expect(texts(inputMessagesOf(span(entity)))).toEqual(['from traceloop.entity.input']);
  });

  it('free-form values are read for what they mean: messages when they are messages, then the common input keys one level deep, never an arbitrary keyword, never a language repr', () => {
    const input = (value: unknown) => texts(inputMessagesOf(span({ 'input.value': JSON.stringify(value), 'input.mime_type': 'application/json' })));
    // DSPy: { input_args: { question } }; smolagents: { task, stream, … }.
    expect(input({ input_args: { question: 'Where is order 42?' } })).toEqual(['Where is order 42?']);
    expect(input({ task: 'Where is order 42?', stream: false, reset: true, images: null })).toEqual(['Where is order 42?']);
    // LlamaIndex's astream_chat: Python reprs of its messages and the call's keywords — nothing to read, so the next source is tried.
    expect(inputMessagesOf(span({ 'input.value': JSON.stringify({ messages: ["ChatMessage(role=<MessageRole.USER: 'user'>, additional_kwargs={}, blocks=[TextBlock(text='Where is order 42?')])"], kwargs: { tool_choice: 'auto', allow_parallel_tool_calls: false } }), 'input.mime_type': 'application/json' }))).toBeUndefined();
    // OpenLLMetry's decorated call: its positional arguments, and a keyword only under an input key.
    expect(input({ args: ['Where is order 42?'], kwargs: { temperature: '0.2' } })).toEqual(['Where is order 42?']);
    expect(input({ args: [], kwargs: { query: 'Where is order 42?', mode: 'fast' } })).toEqual(['Where is order 42?']);
    expect(inputMessagesOf(span({ 'traceloop.entity.input': JSON.stringify({ args: [], kwargs: { tool_choice: 'auto' } }) }))).toBeUndefined();
    // A repr cut short by the instrumentation is never the answer.
    expect(outputMessagesOf(span({ 'output.value': "AgentOutput(response=ChatMessage(role=<MessageRole.ASSISTANT: 'assistant'>, additional_kwargs={}, blocks=[TextBlock(block_type='text', text='Order 42 is on its w" }))).toBeUndefined();
    expect(texts(outputMessagesOf(span({ 'output.value': JSON.stringify({ final_answer: 'Order 42 ships today.' }), 'output.mime_type': 'application/json' })))).toEqual(['Order 42 ships today.']);
  });

  it('a run that owns no tool span shows the calls its model calls made, each with the result a later call was sent (CrewAI under OpenLLMetry)', () => {
    const agent = span({ 'traceloop.span.kind': 'agent', 'traceloop.entity.input': JSON.stringify({ args: ['Weather in Paris?'], kwargs: {} }), 'traceloop.entity.output': JSON.stringify('It is sunny.') });
    const first = span(
      { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] }]), 'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] }]) },
      { parentSpanId: agent.spanId },
    );
    const second = span(
      {
        'gen_ai.operation.name': 'chat',
        'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: 'Weather in Paris?' }] }, { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] }, { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'sunny, 21°C' }] }]),
        'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'It is sunny.' }] }]),
      },
      { parentSpanId: agent.spanId },
    );
    const run = assembleRun(findRuns([agent, first, second], { nestedAgents: 'outermost', rootSpanRuns: true }).runs[0]!);
    const calls = run.event.output.flatMap((message) => message.content.parts).flatMap((part) => (part.type === 'tool-invocation' ? [part.toolInvocation] : []));
    expect(calls).toEqual([expect.objectContaining({ toolCallId: 'c1', toolName: 'get_weather', args: { city: 'Paris' }, state: 'result', result: 'sunny, 21°C' })]);
  });

  it('a span that names a tool is a tool span whatever its kind, and a method name names its tool (DSPy)', () => {
    const agent = span({ 'openinference.span.kind': 'AGENT', 'input.value': 'Weather in Paris?', 'output.value': 'It is sunny.' });
    const chain = span({ 'openinference.span.kind': 'CHAIN', 'tool.name': 'get_weather', 'input.value': JSON.stringify({ city: 'Paris' }), 'output.value': 'sunny' }, { parentSpanId: agent.spanId });
    const method = span({ 'openinference.span.kind': 'TOOL', 'input.value': JSON.stringify({ order: 42 }), 'output.value': 'shipped' }, { parentSpanId: agent.spanId, name: 'get_order_status.__call__' });
    const run = assembleRun(findRuns([agent, chain, method], { nestedAgents: 'outermost', rootSpanRuns: true }).runs[0]!);
    const names = run.event.output.flatMap((message) => message.content.parts).flatMap((part) => (part.type === 'tool-invocation' ? [part.toolInvocation.toolName] : []));
    expect(names).toEqual(['get_weather', 'get_order_status']);
  });

  it('a run without content says what to turn on: the model client\'s instrumentation when no model call is recorded (AutoGen\'s own spans), content capture when the calls carry none', () => {
    const reasons = (spans: OtlpSpan[]) => assembleRun(findRuns(spans, { nestedAgents: 'outermost', rootSpanRuns: true }).runs[0]!).event.missing?.map((entry) => entry.reason) ?? [];
    const bare = span({ 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'assistant' });
    expect(reasons([bare])).toEqual([expect.stringMatching(/^no user message in the spans of the run .*; no span records a model call: add the model client's instrumentation/), expect.stringMatching(/^no final answer .*; no span records a model call/)]);
    const agent = span({ 'gen_ai.operation.name': 'invoke_agent' });
    const call = span({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm' }, { parentSpanId: agent.spanId });
    expect(reasons([agent, call])[0]).toMatch(/; its model calls carry no content: turn content capture on \(OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT/);
  });

  it('a source holding only empty messages falls through (OpenInference writes a role without content)', () => {
    expect(inputMessagesOf(span({ 'llm.input_messages.0.message.role': 'user', ...value }))).toMatchObject({ source: 'input.value' });
  });

  it('text/plain input.value is the text itself, even when it looks like JSON', () => {
    expect(texts(inputMessagesOf(span({ 'input.value': '{"city": "Paris"}', 'input.mime_type': 'text/plain' })))).toEqual(['{"city": "Paris"}']);
  });

  it('across spans: the run span, then an inner agent, then the first model call', () => {
    const root = span({ 'gen_ai.operation.name': 'invoke_agent', 'llm.input_messages.0.message.role': 'user' });
    const inner = span({ 'openinference.span.kind': 'AGENT', 'input.value': 'from the inner agent' }, { parentSpanId: root.spanId });
    const call = span({ 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': genai }, { parentSpanId: inner.spanId });
    const run = (spans: OtlpSpan[]) => assembleRun(findRuns(spans, { nestedAgents: 'outermost', rootSpanRuns: true }).runs[0]!);
    expect(getUserMessageFromRunInput(run([root, inner, call]).event.input)).toBe('from the inner agent');
    expect(run([root, inner, call]).sources.input).toBe(`input.value of '${inner.name}'`);
    const bare = span({ 'openinference.span.kind': 'AGENT' }, { parentSpanId: root.spanId });
    const call2 = span({ 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': genai }, { parentSpanId: bare.spanId });
    expect(run([root, bare, call2]).sources.input).toBe(`gen_ai.input.messages of '${call2.name}'`);
  });

  it('outputs: GenAI first, then flattened, then the gen_ai.choice events, then output.value', () => {
    const choice = { name: 'gen_ai.choice', timeMs: 1, attributes: { message: JSON.stringify({ role: 'assistant', content: 'from the choice event' }) } };
    expect(outputMessagesOf(span({ 'llm.output_messages.0.message.role': 'assistant', 'llm.output_messages.0.message.content': 'flat', 'output.value': 'value' }, { events: [choice] }))).toMatchObject({ source: 'llm.output_messages' });
    expect(outputMessagesOf(span({ 'output.value': 'value' }, { events: [choice] }))).toMatchObject({ source: 'events' });
    expect(outputMessagesOf(span({ 'gen_ai.completion.0.role': 'assistant', 'gen_ai.completion.0.content': 'done' }))).toMatchObject({ source: 'gen_ai.completion' });
  });
});

describe('readMessages shapes', () => {
  it('LangChain serialised messages and dicts, with tool calls and tool results', () => {
    const messages = readMessages(
      JSON.stringify({
        messages: [
          { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'HumanMessage'], kwargs: { content: 'Weather?' } },
          { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', 'AIMessage'], kwargs: { content: '', tool_calls: [{ name: 'get_weather', args: { city: 'Paris' }, id: 'c1' }] } },
          { type: 'tool', data: { content: 'sunny', tool_call_id: 'c1', name: 'get_weather' } },
          { type: 'ai', data: { content: 'Sunny.' } },
        ],
      }),
      'user',
    );
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages[1]!.toolCalls).toEqual([{ id: 'c1', name: 'get_weather', args: { city: 'Paris' } }]);
    expect(messages[2]!.toolResults).toEqual([{ id: 'c1', name: 'get_weather', result: 'sunny' }]);
    expect(messages[3]!.texts).toEqual(['Sunny.']);
  });

  it('OpenAI Responses items and objects, OpenAI chat tool calls, Bedrock-style blocks', () => {
    const items = readMessages([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Q' }] }, { type: 'function_call', call_id: 'c2', name: 'f', arguments: '{"a":1}' }, { type: 'function_call_output', call_id: 'c2', output: '{"ok":true}' }], 'user');
    expect(items.map((message) => [message.role, message.texts, message.toolCalls, message.toolResults])).toEqual([
      ['user', ['Q'], [], []],
      ['assistant', [], [{ id: 'c2', name: 'f', args: { a: 1 } }], []],
      ['tool', [], [], [{ id: 'c2', result: { ok: true } }]],
    ]);
    expect(readMessages({ object: 'response', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'A' }] }] }, 'assistant')[0]!.texts).toEqual(['A']);
    expect(readMessages([{ role: 'assistant', content: null, tool_calls: [{ id: 'c3', type: 'function', function: { name: 'g', arguments: '{}' } }] }], 'assistant')[0]!.toolCalls).toEqual([{ id: 'c3', name: 'g', args: {} }]);
    const blocks = readMessages({ role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'h', input: { x: 1 } } }, { toolResult: { toolUseId: 't1', status: 'error', content: [{ text: 'boom' }] } }] }, 'assistant');
    expect(blocks[0]!.toolCalls).toEqual([{ id: 't1', name: 'h', args: { x: 1 } }]);
    expect(blocks[0]!.toolResults).toEqual([{ id: 't1', result: 'boom', isError: true }]);
  });

  it("tool results sent as the user's (Gemini, Anthropic) are the tools' answer, not a question; Gemini's { result } wrapper is unwrapped", () => {
    const gemini = readMessages([{ role: 'user', parts: [{ type: 'text', content: 'Q' }] }, { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'f', arguments: { a: 1 } }] }, { role: 'user', parts: [{ type: 'tool_call_response', id: 'c1', response: { result: 'sunny' } }] }], 'user');
    expect(gemini.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(gemini[2]!.toolResults).toEqual([{ id: 'c1', result: 'sunny' }]);
    // An object the tool returned with more than the one key is the tool's own, kept whole.
    expect(readMessages({ role: 'tool', parts: [{ type: 'tool_call_response', id: 'c2', response: { result: 1, unit: 'C' } }] }, 'tool')[0]!.toolResults[0]!.result).toEqual({ result: 1, unit: 'C' });
    const anthropic = readMessages({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'done' }] }, 'user');
    expect(anthropic[0]).toMatchObject({ role: 'tool', toolResults: [{ id: 't1', result: 'done' }] });
    // A user message with text beside the results stays the user's.
    expect(readMessages({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'done' }, { type: 'text', text: 'and now?' }] }, 'user')[0]!.role).toBe('user');
  });

  it("the system instructions of an operation-details event (a log record joined to its model call, Google ADK's) are the run's system prompt", () => {
    const details = { name: 'gen_ai.client.inference.operation.details', timeMs: 1, attributes: { 'gen_ai.system_instructions': [{ type: 'text', content: 'Be brief.' }] } };
    expect(systemTextsOf(span({}, { events: [details] }))).toEqual({ texts: ['Be brief.'], source: 'events' });
    expect(systemTextsOf(span({ 'gen_ai.system_instructions': 'On the span.' }, { events: [details] }))).toEqual({ texts: ['On the span.'], source: 'gen_ai.system_instructions' });
  });
});
