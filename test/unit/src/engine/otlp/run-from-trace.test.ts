import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAgentRunEvent } from '../../../../../src/kit/contracts/parse.ts';
import type { AgentRunEvent } from '../../../../../src/kit/contracts/agent-run-event.ts';
import { decodeOtlpTraces } from '../../../../../src/engine/otlp/decode-otlp.ts';
import type { OtlpSpan } from '../../../../../src/engine/otlp/otlp-span.ts';
import { runIdOf } from '../../../../../src/kit/contracts/otlp-run-id.ts';
import { runsFromTrace } from '../../../../../src/engine/otlp/run-from-trace.ts';
import { getUserMessageFromRunInput } from '../../../../../src/kit/utils/run-input.ts';
import { getAssistantMessageFromRunOutput } from '../../../../../src/kit/utils/run-output.ts';
import { extractToolCalls } from '../../../../../src/kit/utils/tool-calls.ts';
import { encodeSpans, recordMastraRun, recordPlainTrace, runWeatherAgent, spanRecorder } from '../../../../helpers/otlp-traces.ts';
import type { Recorder } from '../../../../helpers/otlp-traces.ts';

let recorder: Recorder;
beforeAll(() => {
  recorder = spanRecorder({ 'service.name': 'weather-service', 'tenant.id': 'acme' });
});
afterAll(() => recorder.shutdown());
beforeEach(() => recorder.reset());

function recordedSpans(): OtlpSpan[] {
  const result = decodeOtlpTraces(encodeSpans(recorder.spans(), 'otlp_proto'), 'otlp_proto');
  if (!result.success) throw new Error(result.message);
  return result.data;
}

function event(value: unknown): AgentRunEvent {
  const parsed = parseAgentRunEvent(value);
  if (!parsed.success) throw new Error(JSON.stringify(parsed.problems));
  return parsed.data;
}

describe('runsFromTrace', () => {
  for (const telemetry of ['semconv', 'legacy'] as const) {
    it(`builds the run of an AI SDK call with ${telemetry} telemetry: messages, tool call, usage, entity, trace`, async () => {
      await runWeatherAgent({ telemetry, tracer: recorder.tracer });
      const spans = recordedSpans();
      const runs = runsFromTrace(spans, { nestedAgents: 'outermost', rootSpanRuns: true });
      expect(runs).toHaveLength(1);
      const [run] = runs;
      const agent = run!.agentSpan;
      expect(agent.parentSpanId).toBeUndefined();
      const parsed = event(run!.event);
      expect(parsed.runId).toBe(runIdOf(agent));
      expect(parsed.entity).toMatchObject({ type: 'agent', id: 'weather-agent', name: 'weather-agent' });
      expect(parsed.input.systemMessages).toEqual([{ role: 'system', content: 'You are a weather agent.' }]);
      expect(getUserMessageFromRunInput(parsed.input)).toBe('Weather in Paris?');
      expect(getAssistantMessageFromRunOutput(parsed.output)).toContain('It is sunny in Paris.');
      const { tools, toolCallInfos } = extractToolCalls(parsed.output);
      expect(tools).toEqual(['weather']);
      expect(toolCallInfos[0]).toMatchObject({ toolName: 'weather', toolCallId: 'call-1' });
      const invocation = parsed.output.flatMap((message) => message.content.parts).find((part) => part.type === 'tool-invocation');
      expect(invocation).toMatchObject({ toolInvocation: { state: 'result', args: { city: 'Paris' }, result: { city: 'Paris', sky: 'sunny' } } });
      expect(parsed.usage).toMatchObject({ inputTokens: 30, outputTokens: 12, totalTokens: 42 });
      expect(parsed.trace).toEqual({ traceparent: `00-${agent.traceId}-${agent.spanId}-01` });
      expect(parsed.metadata).toMatchObject({ tenantId: 'acme', serviceName: 'weather-service', model: 'mock-model-id', provider: 'mock-provider' });
      expect(parsed.error).toBeUndefined();
    });

    it(`marks a failing tool's call as output-error (${telemetry})`, async () => {
      await runWeatherAgent({ telemetry, tracer: recorder.tracer, toolFails: true });
      const [run] = runsFromTrace(recordedSpans(), { nestedAgents: 'outermost', rootSpanRuns: true });
      const parsed = event(run!.event);
      const invocation = parsed.output.flatMap((message) => message.content.parts).find((part) => part.type === 'tool-invocation');
      expect(invocation).toMatchObject({ toolInvocation: { toolName: 'weather', state: 'output-error' } });
      expect(invocation?.type === 'tool-invocation' && invocation.toolInvocation.errorText).toContain('weather service down');
    });
  }

  it("builds the run of Mastra's OTel exporter shape: agent id, plain-string instructions, agent input and output, tool spans", () => {
    recordMastraRun(recorder.tracer, { conversationId: 'thread-7' });
    const [run] = runsFromTrace(recordedSpans(), { nestedAgents: 'outermost', rootSpanRuns: true });
    const parsed = event(run!.event);
    expect(parsed.entity).toEqual({ type: 'agent', id: 'weatherAgent', name: 'Weather Agent' });
    expect(parsed.input.systemMessages).toEqual([{ role: 'system', content: 'You answer weather questions.' }]);
    expect(getUserMessageFromRunInput(parsed.input)).toBe('Weather in Oslo?');
    expect(getAssistantMessageFromRunOutput(parsed.output)).toBe('Snow in Oslo.');
    expect(parsed.output[0]!.threadId).toBe('thread-7');
    expect(parsed.metadata).toMatchObject({ conversationId: 'thread-7', model: 'gpt-4o-mini', provider: 'openai' });
    expect(parsed.usage).toMatchObject({ inputTokens: 12, outputTokens: 8 });
    const invocation = parsed.output.flatMap((message) => message.content.parts).find((part) => part.type === 'tool-invocation');
    expect(invocation).toMatchObject({ toolInvocation: { toolName: 'weatherTool', toolCallId: 'tool-oslo', state: 'result', args: { city: 'Oslo' }, result: { sky: 'snow' } } });
  });

  it('reports an agent span with an error status as the run error', () => {
    recordMastraRun(recorder.tracer, { fail: true });
    const [run] = runsFromTrace(recordedSpans(), { nestedAgents: 'outermost', rootSpanRuns: true });
    expect(event(run!.event).error).toEqual({ message: 'model refused' });
  });

  it('finds no run in a trace without an agent span', () => {
    recordPlainTrace(recorder.tracer);
    expect(runsFromTrace(recordedSpans(), { nestedAgents: 'outermost', rootSpanRuns: true })).toEqual([]);
  });

  it('nested agents: the outermost is the run by default; each one with nestedAgents "each"', async () => {
    await recorder.tracer.startActiveSpan('invoke_agent planner', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'planner' } }, async (outer) => {
      await recorder.tracer.startActiveSpan('execute_tool ask_weather', { attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'ask_weather', 'gen_ai.tool.call.id': 'outer-call' } }, async (toolSpan) => {
        await runWeatherAgent({ telemetry: 'semconv', tracer: recorder.tracer });
        toolSpan.setAttribute('gen_ai.tool.call.result', '"sunny"');
        toolSpan.end();
      });
      outer.end();
    });
    const spans = recordedSpans();
    const outermost = runsFromTrace(spans, { nestedAgents: 'outermost', rootSpanRuns: true });
    expect(outermost.map((run) => run.event.entity.name)).toEqual(['planner']);
    // every span of the trace is in the one run: the inner agent's tool call too (it used to be dropped)
    expect(extractToolCalls(event(outermost[0]!.event).output).tools.sort()).toEqual(['ask_weather', 'weather']);
    const each = runsFromTrace(spans, { nestedAgents: 'each', rootSpanRuns: true });
    expect(each.map((run) => run.event.entity.name)).toEqual(['planner', 'weather-agent']);
    expect(extractToolCalls(event(each[1]!.event).output).tools).toEqual(['weather']);
  });

  it("never takes Scorestream's own judge spans for runs", () => {
    recorder.tracer.startSpan('invoke_agent judge', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'scorestream.origin': 'judge' } }).end();
    expect(runsFromTrace(recordedSpans(), { nestedAgents: 'each', rootSpanRuns: true })).toEqual([]);
  });
});
