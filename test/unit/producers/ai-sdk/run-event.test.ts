// aiSdkRunEvent against real AI SDK calls — generateText, streamText and the ToolLoopAgent, driven
// by `ai/test` models — not against hand-built results: what the app passed and got back becomes a
// run event that passes the contract, and the scorer utils read the answer, reasoning and tool calls
// out of it as from a Mastra agent's run.
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { generateText, stepCountIs, streamText, ToolLoopAgent } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { scriptedModel, toolLoop, tools, usage } from '../../../helpers/ai-sdk-app.ts';
import { aiSdkRunEvent, settleAiSdkResult } from '../../../../producers/ai-sdk/index.ts';
import { parseAgentRunEvent } from '../../../../src/kit/contracts/parse.ts';
import { getAssistantMessageFromRunOutput, getReasoningFromRunOutput } from '../../../../src/kit/utils/run-output.ts';
import { getUserMessageFromRunInput } from '../../../../src/kit/utils/run-input.ts';
import { extractToolCalls } from '../../../../src/kit/utils/tool-calls.ts';
import { createToolErrorRateScorer } from '../../../../src/kit/scorers/code/tool-error-rate/index.ts';

function parsed(event: unknown) {
  const result = parseAgentRunEvent(event);
  if (!result.success) throw new Error(JSON.stringify(result.problems));
  return result.data;
}

describe('aiSdkRunEvent', () => {
  it('a text answer: instructions, the prompt, the answer, usage, model and finish reason', async () => {
    const call = { instructions: 'You are a support agent.', prompt: 'Where is my order?' };
    const result = await generateText({ model: scriptedModel([[{ type: 'text', text: 'It ships tomorrow.' }]]), ...call });
    const completedAt = new Date('2026-12-01T10:00:00.000Z');
    const event = parsed(aiSdkRunEvent(call, result, { agentId: 'support', runId: 'run-1', tenantId: 'acme', requestContext: { topic: 'orders' }, metadata: { channel: 'chat' }, completedAt }));

    expect(event).toMatchObject({
      runId: 'run-1',
      timestamp: '2026-12-01T10:00:00.000Z',
      entity: { type: 'agent', id: 'support' },
      requestContext: { topic: 'orders' },
      metadata: { tenantId: 'acme', channel: 'chat' },
      usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19, reasoningTokens: 3, cachedInputTokens: 2 },
    });
    expect(event.input.systemMessages).toEqual([{ role: 'system', content: 'You are a support agent.' }]);
    expect(getUserMessageFromRunInput(event.input)).toBe('Where is my order?');
    expect(getAssistantMessageFromRunOutput(event.output)).toBe('It ships tomorrow.');
    expect(event.output[0]!.content.metadata).toEqual({ modelId: 'support-model', provider: 'mock-provider', finishReason: 'stop' });
  });

  it('generates a run id when none is given', async () => {
    const call = { prompt: 'hi' };
    const result = await generateText({ model: scriptedModel([[{ type: 'text', text: 'hello' }]]), ...call });
    const first = aiSdkRunEvent(call, result, { agentId: 'a' });
    const second = aiSdkRunEvent(call, result, { agentId: 'a' });
    expect(first.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.runId).not.toBe(second.runId);
  });

  it('a multi-step tool loop with a tool that throws: reasoning, every call with its arguments, result or error, in step order', async () => {
    const call = { prompt: 'Refund order 42' };
    const result = await generateText({ model: scriptedModel(toolLoop), tools, stopWhen: stepCountIs(4), ...call });
    expect(result.steps).toHaveLength(2);
    const event = parsed(aiSdkRunEvent(call, result, { agentId: 'support' }));

    expect(getReasoningFromRunOutput(event.output)).toBe('The user wants order 42; look it up and refund it.');
    expect(getAssistantMessageFromRunOutput(event.output)).toBe('Order 42 has shipped; the refund failed, a colleague will follow up.');
    const parts = event.output[0]!.content.parts;
    expect(parts.map((part) => part.type)).toEqual(['step-start', 'reasoning', 'tool-invocation', 'tool-invocation', 'step-start', 'text']);
    const invocations = parts.flatMap((part) => (part.type === 'tool-invocation' ? [part.toolInvocation] : []));
    expect(invocations).toEqual([
      { toolCallId: 'call-1', toolName: 'lookupOrder', args: { orderId: '42' }, state: 'result', result: { orderId: '42', status: 'shipped' }, step: 0 },
      { toolCallId: 'call-2', toolName: 'refund', args: { orderId: '42' }, state: 'output-error', errorText: 'refund service unavailable', step: 0 },
    ]);
    expect(extractToolCalls(event.output).tools).toEqual(['lookupOrder', 'refund']);
    expect(event.output[0]!.content.metadata).toMatchObject({ finishReason: 'stop' });
    // Usage is the sum over both steps.
    expect(event.usage).toMatchObject({ inputTokens: 24, outputTokens: 14 });

    // A built-in scorer reads the failed call out of it.
    const scored = await createToolErrorRateScorer().run({ runId: event.runId, input: event.input, output: event.output, requestContext: event.requestContext });
    expect(scored.score).toBe(0.5);
  });

  it('the tools offered: each name, description and input schema as the JSON Schema the model was sent', async () => {
    const call = { prompt: 'Refund order 42', tools };
    const result = await generateText({ model: scriptedModel(toolLoop), stopWhen: stepCountIs(4), ...call });
    const event = parsed(aiSdkRunEvent(call, result, { agentId: 'support' }));
    const orderSchema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'], additionalProperties: false };
    expect(event.tools).toEqual([
      { name: 'lookupOrder', description: 'find an order', parameters: orderSchema },
      { name: 'refund', description: 'refund an order', parameters: orderSchema },
    ]);
    // Without the tools in the call the run does not know them: absent, not an empty list.
    expect(parsed(aiSdkRunEvent({ prompt: 'Refund order 42' }, result, { agentId: 'support' })).tools).toBeUndefined();
  });

  it('a conversation: history is remembered, the trailing user messages are the input, tool messages fold into the calls', async () => {
    const call = {
      system: 'Be brief.',
      messages: [
        { role: 'user' as const, content: 'Look up order 7' },
        { role: 'assistant' as const, content: [{ type: 'tool-call' as const, toolCallId: 'old-1', toolName: 'lookupOrder', input: { orderId: '7' } }] },
        { role: 'tool' as const, content: [{ type: 'tool-result' as const, toolCallId: 'old-1', toolName: 'lookupOrder', output: { type: 'json' as const, value: { status: 'lost' } } }] },
        { role: 'assistant' as const, content: 'Order 7 is lost.' },
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'Then refund it.' }] },
      ],
    };
    const result = await generateText({ model: scriptedModel([[{ type: 'text', text: 'Refunded.' }]]), ...call });
    const event = parsed(aiSdkRunEvent(call, result, { agentId: 'support' }));
    expect(event.input.systemMessages).toEqual([{ role: 'system', content: 'Be brief.' }]);
    expect(event.input.inputMessages.map((message) => message.content.parts)).toEqual([[{ type: 'text', text: 'Then refund it.' }]]);
    expect(event.input.rememberedMessages.map((message) => message.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(event.input.rememberedMessages[1]!.content.parts).toEqual([
      { type: 'tool-invocation', toolInvocation: { toolCallId: 'old-1', toolName: 'lookupOrder', args: { orderId: '7' }, state: 'result', result: { status: 'lost' } } },
    ]);
  });

  it('a stream consumed to the end: the same run as generateText, reasoning and tools included', async () => {
    const chunks: LanguageModelV4StreamPart[][] = [
      [
        { type: 'stream-start', warnings: [] },
        { type: 'reasoning-start', id: 'r1' },
        { type: 'reasoning-delta', id: 'r1', delta: 'Check the order ' },
        { type: 'reasoning-delta', id: 'r1', delta: 'first.' },
        { type: 'reasoning-end', id: 'r1' },
        { type: 'tool-call', toolCallId: 'call-1', toolName: 'lookupOrder', input: JSON.stringify({ orderId: '42' }) },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage },
      ],
      [
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'It has ' },
        { type: 'text-delta', id: 't1', delta: 'shipped.' },
        { type: 'text-end', id: 't1' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
      ],
    ];
    let call = 0;
    const model = new MockLanguageModelV4({ modelId: 'stream-model', doStream: async () => ({ stream: convertArrayToReadableStream(chunks[call++]!) }) });
    const options = { prompt: 'Where is order 42?' };
    const stream = streamText({ model, tools, stopWhen: stepCountIs(3), ...options });
    let text = '';
    for await (const delta of stream.textStream) text += delta;
    expect(text).toBe('It has shipped.');

    const event = parsed(aiSdkRunEvent(options, await settleAiSdkResult(stream), { agentId: 'streamer' }));
    expect(getAssistantMessageFromRunOutput(event.output)).toBe('It has shipped.');
    expect(getReasoningFromRunOutput(event.output)).toBe('Check the order first.');
    expect(extractToolCalls(event.output).tools).toEqual(['lookupOrder']);
    expect(event.output[0]!.content.metadata).toMatchObject({ modelId: 'stream-model', finishReason: 'stop' });
    expect(event.usage).toMatchObject({ inputTokens: 24, outputTokens: 14 });
  });

  it("the agent class: its instructions are the app's, its generate result a run", async () => {
    const instructions = 'You resolve refunds.';
    const agent = new ToolLoopAgent({ id: 'refunds', model: scriptedModel(toolLoop), instructions, tools, stopWhen: stepCountIs(4) });
    const call = { prompt: 'Refund order 42' };
    const result = await agent.generate(call);
    const event = parsed(aiSdkRunEvent({ instructions, ...call }, result, { agentId: agent.id ?? 'refunds' }));
    expect(event.entity.id).toBe('refunds');
    expect(event.input.systemMessages).toEqual([{ role: 'system', content: instructions }]);
    expect(extractToolCalls(event.output).tools).toEqual(['lookupOrder', 'refund']);
    expect(getAssistantMessageFromRunOutput(event.output)).toContain('Order 42 has shipped');
  });
});
