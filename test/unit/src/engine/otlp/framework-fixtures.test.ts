// The mapping on what the real frameworks emit: every fixture of test/fixtures/otlp/ was captured
// from a framework's own OpenTelemetry instrumentation, run as shipped against the scripted model
// server (local/agents/capture.ts). Each must give one run, under its agent (or root) span, with
// the question, the answer, the system prompt and the tool call with its arguments and result —
// the run contract every scorer reads.
import { describe, expect, it } from 'vitest';
import { parseAgentRunEvent } from '../../../../../src/kit/contracts/parse.ts';
import type { AgentRunEvent } from '../../../../../src/kit/contracts/agent-run-event.ts';
import { findRuns } from '../../../../../src/engine/otlp/find-runs.ts';
import type { NestedAgentMode } from '../../../../../src/engine/otlp/find-runs.ts';
import { runsFromTrace } from '../../../../../src/engine/otlp/run-from-trace.ts';
import type { AssembledRun } from '../../../../../src/engine/otlp/run-from-trace.ts';
import { getCombinedSystemPrompt, getUserMessageFromRunInput } from '../../../../../src/kit/utils/run-input.ts';
import { getAssistantMessageFromRunOutput } from '../../../../../src/kit/utils/run-output.ts';
import { FRAMEWORK_AGENTS } from '../../../../../local/agents/frameworks.ts';
import { fixtureManifest, fixtureTraces } from '../../../../helpers/framework-fixtures.ts';
import { createToolArgumentValidityScorer } from '../../../../../src/kit/scorers/code/tool-argument-validity/index.ts';
import { createUnofferedToolCallsScorer } from '../../../../../src/kit/scorers/code/unoffered-tool-calls/index.ts';
import { createRepeatedToolCallsScorer } from '../../../../../src/kit/scorers/code/repeated-tool-calls/index.ts';
import { createToolErrorRecoveryScorer } from '../../../../../src/kit/scorers/code/tool-error-recovery/index.ts';
import { createStepBudgetScorer } from '../../../../../src/kit/scorers/code/step-budget/index.ts';
import { createTrajectoryMatchScorer } from '../../../../../src/kit/scorers/code/trajectory-match/index.ts';

const QUESTION = 'What is the weather in Paris?';

/** What each framework's run must say beyond the common content: its rule, its agent, its ids. */
/**
 * What each framework's spans say of the tools offered: `schema` a definition with the arguments'
 * JSON Schema, `name` the name and description only (Mastra lists bare names; its tool span
 * describes the tool), `none` no list at all (openai-v2 records no tool definitions).
 */
type Offered = 'schema' | 'name' | 'none';

const EXPECTED: Record<string, { rule: AssembledRun['rule']; span: string | RegExp; entity: string | RegExp; name?: string; conversationId?: string | RegExp; userId?: string; offered?: Offered; usage?: false; modelCalls?: false; toolResult?: false; model?: string }> = {
  // (google-adk-python: see the missing-content test below; by default it sends no content.)
  'openai-agents-python': { rule: 'agent_span', span: 'Agent workflow', entity: 'Weather agent', conversationId: 'session-42', userId: 'user-7' },
  'openai-agents-js': { rule: 'agent_span', span: 'Agent workflow', entity: 'Weather agent' },
  'langgraph-openinference-python': { rule: 'agent_span', span: 'LangGraph', entity: 'langgraph-openinference-python', conversationId: 'session-42', userId: 'user-7' },
  'langchain-js': { rule: 'root_span', span: 'LangGraph', entity: 'langchain-js', conversationId: 'session-42' },
  'traceloop-python': { rule: 'agent_span', span: 'weather_agent.agent', entity: 'weather_agent', conversationId: 'session-42', userId: 'user-7' },
  'langgraph-traceloop-python': { rule: 'agent_span', span: 'invoke_agent LangGraph', entity: 'LangGraph', conversationId: 'session-42', userId: 'user-7' },
  'openai-v2-python': { rule: 'root_span', span: 'answer_question', entity: 'openai-v2-python', offered: 'none' },
  'strands-python': { rule: 'agent_span', span: 'invoke_agent Strands Agents', entity: 'Strands Agents', conversationId: 'session-42', userId: 'user-7' },
  'pydantic-ai-python': { rule: 'agent_span', span: 'invoke_agent weather_agent', entity: 'weather_agent', conversationId: /^[0-9a-f-]{36}$/ },
  'mastra-js': { rule: 'agent_span', span: 'invoke_agent Weather Agent', entity: 'weather-agent', offered: 'name' },
  // No AGENT span; its streamed model calls ask for no usage, so none is recorded.
  'llamaindex-openinference-python': { rule: 'root_span', span: 'FunctionAgent.run', entity: 'llamaindex-openinference-python', conversationId: 'session-42', userId: 'user-7', usage: false },
  'smolagents-python': { rule: 'agent_span', span: 'weather_agent.run', entity: 'smolagents-python', name: 'weather_agent', conversationId: 'session-42', userId: 'user-7' },
  // No AGENT span; tools are offered in ReAct's prompt text, not as definitions; its LLM spans carry no token counts.
  'dspy-python': { rule: 'root_span', span: 'ReAct.forward', entity: 'dspy-python', conversationId: 'session-42', userId: 'user-7', offered: 'none', usage: false },
  // As its README sets it up: crew, task (AGENT) and tool spans, no model call — so no model, usage or system prompt.
  'crewai-openinference-python': { rule: 'agent_span', span: /^Crew_[0-9a-f-]{36}\.kickoff$/, entity: 'support agent', conversationId: 'session-42', userId: 'user-7', offered: 'none', usage: false, modelCalls: false },
  'crewai-traceloop-python': { rule: 'agent_span', span: 'crewai.workflow', entity: /^[0-9a-f-]{36}$/, name: 'support agent', conversationId: 'session-42', userId: 'user-7' },
  // Streamed calls (no usage, no tool definitions recorded); the tool from its call_tool step's tool.name / tool.arguments.
  'llamaindex-traceloop-python': { rule: 'root_span', span: 'FunctionAgent.workflow', entity: 'llamaindex-traceloop-python', conversationId: 'session-42', userId: 'user-7', offered: 'none', usage: false },
  // AutoGen's own spans carry no content; OpenLLMetry's openai instrumentation, as AutoGen's tracing guide adds it, does.
  'autogen-python': { rule: 'agent_span', span: 'invoke_agent weather_agent', entity: 'weather_agent' },
  // No tool span (its Agent runs tools itself) and the tool message recorded without content: the call, not its result.
  'haystack-python': { rule: 'root_span', span: 'Agent.run', entity: 'haystack-python', conversationId: 'session-42', userId: 'user-7', offered: 'none', toolResult: false },
  // The content on the logs signal only (EVENT_ONLY): gen_ai.client.inference.operation.details records.
  'openai-v2-events-python': { rule: 'root_span', span: 'answer_question', entity: 'openai-v2-events-python', offered: 'none' },
  // Its per-message events as log records (event.name, a JSON string body); its tools plugin-qualified.
  // Content capture on: the messages and the system instructions in its operation-details log
  // records; the tool's result wrapped as Gemini wants it ({ result }); the model as LiteLLM names it.
  'google-adk-content-python': { rule: 'agent_span', span: 'invoke_agent weather_agent', entity: 'weather_agent', conversationId: 'session-42', offered: 'name', model: 'openai/scripted-model' },
  'semantic-kernel-python': { rule: 'agent_span', span: 'invoke_agent WeatherAgent', entity: /^[0-9a-f-]{36}$/, name: 'WeatherAgent' },
};

function parsed(run: AssembledRun): AgentRunEvent {
  const result = parseAgentRunEvent(run.event);
  if (!result.success) throw new Error(JSON.stringify(result.problems));
  return result.data;
}

const manifest = fixtureManifest();

/** Frameworks whose default settings send no message content: each is a run flagged missing_content, saying what to turn on. */
const SENDS_NO_CONTENT = new Set(['google-adk-python']);

describe('the real frameworks’ OTLP fixtures', () => {
  it('cover every framework agent of local/agents/frameworks.ts', () => {
    expect(manifest.map((entry) => entry.id).sort()).toEqual(FRAMEWORK_AGENTS.map((framework) => framework.id).sort());
  });

  for (const entry of manifest.filter((candidate) => !SENDS_NO_CONTENT.has(candidate.id))) {
    it(`${entry.id} (${entry.conventions}): one run with the question, the answer, the system prompt and the tool call`, () => {
      const expected = EXPECTED[entry.id]!;
      const runs = fixtureTraces(entry.id).flatMap((spans) => runsFromTrace(spans));
      expect(runs, 'runs').toHaveLength(1);
      const [run] = runs as [AssembledRun];
      expect(run.rule).toBe(expected.rule);
      expect(run.agentSpan.name).toMatch(typeof expected.span === 'string' ? new RegExp(`^${expected.span.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : expected.span);
      const event = parsed(run);
      expect(event.missing).toBeUndefined();
      if (typeof expected.entity === 'string') expect(event.entity.id).toBe(expected.entity);
      else expect(event.entity.id).toMatch(expected.entity);
      if (expected.name !== undefined) expect(event.entity.name).toBe(expected.name);
      expect(getUserMessageFromRunInput(event.input)).toBe(QUESTION);
      expect(getAssistantMessageFromRunOutput(event.output)?.trim()).toBe('It is sunny in Paris, 21°C.');
      if (expected.modelCalls === false) expect(getCombinedSystemPrompt(event.input)).toBe('');
      else expect(getCombinedSystemPrompt(event.input)).toContain('You are a weather agent.');
      const calls = event.output.flatMap((message) => message.content.parts).flatMap((part) => (part.type === 'tool-invocation' ? [part.toolInvocation] : []));
      expect(calls, 'one tool call').toHaveLength(1);
      if (expected.toolResult === false) expect(calls[0]).toMatchObject({ toolName: 'get_weather', args: { city: 'Paris' }, state: 'call' });
      else {
        expect(calls[0]).toMatchObject({ toolName: expect.stringMatching(/^(WeatherPlugin-)?get_?[wW]eather$/), args: { city: 'Paris' }, state: 'result' });
        expect(String(calls[0]!.result)).toContain('sunny, 21°C in Paris');
      }
      expect(event.metadata).toMatchObject({ ...(expected.modelCalls === false ? {} : { model: expected.model ?? 'scripted-model' }), serviceName: entry.id, otel: { rule: expected.rule, spanId: run.agentSpan.spanId } });
      if (expected.conversationId !== undefined) expect(event.metadata?.conversationId).toEqual(typeof expected.conversationId === 'string' ? expected.conversationId : expect.stringMatching(expected.conversationId));
      if (expected.userId !== undefined) expect(event.metadata?.userId).toBe(expected.userId);
      // usage counted once per model call (two calls of 42 + 9 tokens), never twice for nested model spans
      if (expected.usage === false) expect(event.usage).toBeUndefined();
      else expect(event.usage).toMatchObject({ inputTokens: 84, outputTokens: 18 });
      expect(event.trace?.traceparent).toBe(`00-${run.agentSpan.traceId}-${run.agentSpan.spanId}-01`);
    });

    it(`${entry.id}: the trajectory scorers on its run, each with the value its spans allow`, async () => {
      const offered = EXPECTED[entry.id]!.offered ?? 'schema';
      const [run] = fixtureTraces(entry.id).flatMap((spans) => runsFromTrace(spans)) as [AssembledRun];
      const event = parsed(run);
      const toolName = event.output.flatMap((message) => message.content.parts).flatMap((part) => (part.type === 'tool-invocation' ? [part.toolInvocation.toolName] : []))[0]!;
      const input = { runId: event.runId, input: event.input, output: event.output, ...(event.tools === undefined ? {} : { tools: event.tools }), ...(event.usage === undefined ? {} : { usage: event.usage }), expectedTrajectory: [{ toolName, args: { city: 'Paris' } }] };
      const outcome = async (scorer: { run: (run: never) => Promise<unknown> }) => {
        const result = (await scorer.run(input as never)) as { score?: number; notScorable?: { reason: string } };
        return result.notScorable === undefined ? result.score : `not_scorable: ${result.notScorable.reason}`;
      };
      // One call, with valid arguments, to the one tool offered, answered: every check passes, and
      // a check that needs what the spans did not send says so instead of guessing.
      expect(await outcome(createToolArgumentValidityScorer())).toEqual(
        offered === 'schema' ? 1 : offered === 'name' ? expect.stringMatching(/^not_scorable: No tool call could be checked/) : expect.stringMatching(/^not_scorable: The run does not say which tools/),
      );
      expect(await outcome(createUnofferedToolCallsScorer())).toEqual(offered === 'none' ? expect.stringMatching(/^not_scorable: The run does not say which tools/) : 1);
      expect(await outcome(createRepeatedToolCallsScorer())).toBe(1);
      expect(await outcome(createToolErrorRecoveryScorer())).toBe('not_scorable: No tool call failed; nothing to recover from.');
      // Usage 84 + 18 tokens, one tool call: within these limits.
      if (EXPECTED[entry.id]!.usage === false) expect(await outcome(createStepBudgetScorer({ maxToolCalls: 3 }))).toBe(1);
      else expect(await outcome(createStepBudgetScorer({ maxToolCalls: 3, maxTotalTokens: 1_000 }))).toBe(1);
      // The arguments compared too: the spans' JSON text is read as the object it encodes.
      expect(await outcome(createTrajectoryMatchScorer({ mode: 'exact', compareArgs: true }))).toBe(1);
    });

    it(`${entry.id}: the tools offered, as its spans list them`, () => {
      const offered = EXPECTED[entry.id]!.offered ?? 'schema';
      const [run] = fixtureTraces(entry.id).flatMap((spans) => runsFromTrace(spans)) as [AssembledRun];
      const { tools } = parsed(run);
      if (offered === 'none') {
        expect(tools, 'no list: not known, never an empty list').toBeUndefined();
        return;
      }
      expect(tools).toHaveLength(1);
      // LlamaIndex puts the function's signature before its docstring.
      expect(tools![0]).toMatchObject({ name: expect.stringMatching(/^(WeatherPlugin-)?get_?[wW]eather$/), description: expect.stringMatching(/(^|\n)Get the current weather in a city\.$/) });
      if (offered === 'schema') expect(tools![0]!.parameters).toMatchObject({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] });
      else expect(tools![0]!.parameters).toBeUndefined();
    });

  }

  for (const entry of manifest) {
    for (const nestedAgents of ['outermost', 'each'] as NestedAgentMode[]) {
      it(`${entry.id}: every span is in exactly one run, or outside all (nestedAgents ${nestedAgents})`, () => {
        for (const spans of fixtureTraces(entry.id)) {
          const found = findRuns(spans, { nestedAgents, rootSpanRuns: true });
          const placed = [...found.runs.flatMap((run) => [run.span.spanId, ...run.own.map((own) => own.span.spanId)]), ...found.outside.map((outside) => outside.span.spanId)];
          expect(placed.sort()).toEqual(spans.map((span) => span.spanId).sort());
          // a span outside every run is never below a run's span
          const runIds = new Set(found.runs.map((run) => run.span.spanId));
          for (const { span } of found.outside) expect(runIds.has(span.parentSpanId ?? '')).toBe(false);
        }
      });
    }
  }

  it('Google ADK on its default settings sends no message content (not on spans, not in its log records): the run is flagged, saying to turn content capture on', () => {
    const [run] = fixtureTraces('google-adk-python').flatMap((spans) => runsFromTrace(spans)) as [AssembledRun];
    expect(run.rule).toBe('agent_span');
    expect(run.agentSpan.name).toBe('invoke_agent weather_agent');
    const event = parsed(run);
    expect(event.missing?.map((entry) => entry.part)).toEqual(['question', 'answer']);
    expect(event.missing?.[0]?.reason).toMatch(/its model calls carry no content: turn content capture on \(OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT/);
    // What it does record: the agent, the conversation, the model, the tool it ran and the tools offered.
    expect(event.entity).toMatchObject({ id: 'weather_agent' });
    expect(event.metadata).toMatchObject({ conversationId: 'session-42', model: 'openai/scripted-model' });
    expect(event.tools?.map((tool) => tool.name)).toEqual(['get_weather']);
  });

  it("smolagents and DSPy: their control tools (final_answer, finish) are reported apart (metadata.otel.controlTools), neither a call nor a tool offered; LlamaIndex: its repr'd, cut-short output is not the answer", () => {
    const [smol] = fixtureTraces('smolagents-python').flatMap((spans) => runsFromTrace(spans)) as [AssembledRun];
    expect(smol.event.metadata?.otel).toMatchObject({ controlTools: [{ name: 'final_answer', args: { answer: 'It is sunny in Paris, 21°C.' } }] });
    expect(smol.event.tools?.map((tool) => tool.name)).toEqual(['get_weather']);
    // DSPy: the tool span 'get_weather.__call__' names get_weather; ReAct's own 'finish' is apart too.
    const [dspy] = fixtureTraces('dspy-python').flatMap((spans) => runsFromTrace(spans)) as [AssembledRun];
    expect(dspy.event.metadata?.otel).toMatchObject({ controlTools: [{ name: 'finish' }] });
    const [llama] = fixtureTraces('llamaindex-openinference-python').flatMap((spans) => runsFromTrace(spans)) as [AssembledRun];
    expect(llama.sources.output).toBe("llm.output_messages of 'OpenAILike.astream_chat'");
  });

  it('LangGraph traced by OpenLLMetry: the spans under the inner invoke_agent are the run’s, not dropped (nestedAgents outermost)', () => {
    const [spans] = fixtureTraces('langgraph-traceloop-python').filter((trace) => trace.some((span) => span.name === 'LangGraph.workflow'));
    const inner = spans!.find((span) => span.name === 'LangGraph.workflow')!;
    expect(inner.attributes['gen_ai.operation.name']).toBe('invoke_agent');
    const [run] = findRuns(spans!, { nestedAgents: 'outermost', rootSpanRuns: true }).runs;
    expect(run!.span.name).toBe('invoke_agent LangGraph');
    expect(run!.own).toHaveLength(spans!.length - 1);
    // with 'each' the inner agent is a run of its own, with every span below it
    const each = findRuns(spans!, { nestedAgents: 'each', rootSpanRuns: true }).runs;
    expect(each.map((found) => found.span.name)).toEqual(['invoke_agent LangGraph', 'LangGraph.workflow']);
    expect(each[0]!.own).toHaveLength(0);
    expect(each[1]!.own).toHaveLength(spans!.length - 2);
  });

  it('a trace with no agent span is no run when rootSpanRuns is off (LangChain JS marks no span AGENT)', () => {
    const [spans] = fixtureTraces('langchain-js');
    expect(runsFromTrace(spans!, { nestedAgents: 'outermost', rootSpanRuns: false })).toEqual([]);
    expect(runsFromTrace(spans!, { nestedAgents: 'outermost', rootSpanRuns: true })).toHaveLength(1);
  });
});
