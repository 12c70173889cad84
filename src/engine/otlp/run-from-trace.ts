// A closed trace → the agent runs in it (find-runs.ts), each as a run-event input
// (src/kit/contracts/agent-run-event.ts) built from its run span and the spans it owns, whichever of
// the three conventions wrote them (docs/otlp.md, "From spans to the run event" and "Precedence"):
//   - the conversation: the run span's own input and output (span-content.ts), else its inner
//     agent spans', else the model calls': the first call's prompt, and as output the last call's
//     prompt after the user's message (the tool calls and results so far) plus its answer;
//   - the system prompt: the run span's, the inner agents', the first model call's, else the
//     system messages among the input;
//   - tool calls from the tool spans, merged with the output messages' calls (run-tools.ts), the
//     frameworks' control tools (final_answer, finish) apart in metadata.otel.controlTools;
//   - the tools the agent was offered, from any of the run's own spans that lists them (run-tool-definitions.ts);
//   - model, usage, agent id and name, conversation (session, thread) and user ids, resource
//     attributes as metadata (run-metadata.ts); the run's trace context is its span's, so score
//     spans become its children.
// A run that carries no user message or no final answer is still a run: `missing` says which part
// is absent and which spans were seen, so scorers that need it return notScorable with that reason.
import { runIdOf } from '../../kit/contracts/otlp-run-id.ts';
import type { AgentRunEventInput } from '../../kit/contracts/agent-run-event.ts';
import { AGENT_RUN_EVENT_SCHEMA_VERSION, AGENT_RUN_EVENT_TYPE } from '../../kit/contracts/agent-run-event.ts';
import type { DbMessageInput } from '../../kit/contracts/messages.ts';
import { runsOfTrace } from './find-runs.ts';
import { attachLogRecords } from './otlp-log-record.ts';
import type { ClassifiedSpan, FoundRun, RunFindingOptions, RunRule } from './find-runs.ts';
import type { OtlpSpan } from './otlp-span.ts';
import type { UniformMessage, UniformToolCall, UniformToolResult } from './read-messages.ts';
import { conversationFacts, entityOf, errorOf, metadataOf, modelFacts, runUsage } from './run-metadata.ts';
import { CONTROL_TOOLS, completeToolCalls, toolCallsOfModelCalls, toolOfSpan, withoutControlTools } from './run-tools.ts';
import type { SpanTool } from './run-tools.ts';
import { offeredToolsOfRun } from './run-tool-definitions.ts';
import { inputMessagesOf, outputMessagesOf, systemTextsOf } from './span-content.ts';
import type { FoundMessages } from './span-content.ts';
import { isoTime } from '../../kit/contracts/iso-time.ts';

export { NESTED_AGENT_MODES, RUN_RULES } from './find-runs.ts';
export type { NestedAgentMode, RunFindingOptions, RunRule } from './find-runs.ts';

export type AssembledRun = {
  /** The run's span (an agent span, or the root span): its trace context is the run's. */
  agentSpan: OtlpSpan;
  /** Which rule made it a run. */
  rule: RunRule;
  /** Where the question, the answer and the system prompt were read from (attribute or `events`, and the span). */
  sources: { input?: string; output?: string; system?: string };
  event: AgentRunEventInput;
};

const DEFAULT_FINDING: RunFindingOptions = { nestedAgents: 'outermost', rootSpanRuns: true };

/** The runs of one trace's spans, in the order their spans started. */
export function runsFromTrace(spans: readonly OtlpSpan[], options: RunFindingOptions = DEFAULT_FINDING): AssembledRun[] {
  // Log records on their spans first (a no-op when the trace has none).
  return runsOfTrace(attachLogRecords(spans).spans, options).map(assembleRun);
}


const where = (found: { source: string } | undefined, span: OtlpSpan) => (found === undefined ? undefined : `${found.source} of '${span.name}'`);

/** The first of `spans` for which `read` finds something, with the span it came from. */
function firstFound<T>(spans: readonly OtlpSpan[], read: (span: OtlpSpan) => T | undefined): { value: T; span: OtlpSpan } | undefined {
  for (const span of spans) {
    const value = read(span);
    if (value !== undefined) return { value, span };
  }
  return undefined;
}

export function assembleRun(run: FoundRun): AssembledRun {
  const span = run.span;
  const agents = [span, ...run.own.filter((entry) => entry.role === 'agent').map((entry) => entry.span)];
  const modelCalls = run.own.filter((entry) => entry.role === 'model').map((entry) => entry.span);
  const toolSpans = run.own.filter((entry) => entry.role === 'tool').map((entry) => entry.span);
  const input = firstFound(agents, inputMessagesOf) ?? firstFound(modelCalls, inputMessagesOf);
  const output = firstFound(agents, outputMessagesOf) ?? modelOutput(modelCalls);
  const tools = runTools(toolSpans, output?.value.messages ?? [], modelCalls);
  const system = firstFound(agents, systemTextsOf) ?? firstFound(modelCalls.slice(0, 1), systemTextsOf);
  const systemTexts = [
    ...(system?.value.texts ?? []),
    ...(input?.value.messages ?? []).filter((message) => message.role === 'system').flatMap((message) => message.texts),
  ];
  // Only then the first model call's prompt (a parse per run saved when the system prompt is known).
  if (systemTexts.length === 0 && modelCalls.length > 0 && input?.span !== modelCalls[0]) {
    systemTexts.push(...(inputMessagesOf(modelCalls[0]!)?.messages ?? []).filter((message) => message.role === 'system').flatMap((message) => message.texts));
  }

  const conversation = (input?.value.messages ?? []).filter((message) => message.role !== 'system');
  // The turn starts at the last user message; what came before it is remembered history.
  const lastUser = conversation.findLastIndex((message) => message.role === 'user');
  const remembered = lastUser > 0 ? conversation.slice(0, lastUser) : [];
  const turn = lastUser > 0 ? conversation.slice(lastUser) : conversation;

  const facts = conversationFacts(span, run.own);
  const runId = runIdOf(span);
  const createdAt = isoTime(span.startTimeMs);
  const endedAt = isoTime(span.endTimeMs);
  const ids = { runId, conversationId: facts.conversationId, createdAt: endedAt };
  const completed = withoutControlTools(completeToolCalls(output?.value.messages ?? [], tools));
  const outputMessages = completed.messages.map((message, index) => dbMessage(message, `${runId}-out-${index}`, ids.createdAt, ids.conversationId));
  const inputMessages = turn.map((message, index) => dbMessage(message, `${runId}-in-${index}`, createdAt, facts.conversationId));
  const missing = missingParts(inputMessages, outputMessages, run);
  const usage = runUsage(span, modelCalls);
  const model = modelFacts(span, modelCalls);
  const error = span.status.code === 2 ? errorOf(span) : undefined;
  const offeredTools = offeredToolsOfRun([...agents, ...modelCalls], toolSpans)?.filter((tool) => !CONTROL_TOOLS.has(tool.name));

  const event: AgentRunEventInput = {
    schemaVersion: AGENT_RUN_EVENT_SCHEMA_VERSION,
    type: AGENT_RUN_EVENT_TYPE,
    runId,
    timestamp: endedAt,
    entity: entityOf(span, agents.slice(1), run.rule),
    input: {
      inputMessages,
      rememberedMessages: remembered.map((message, index) => dbMessage(message, `${runId}-mem-${index}`, createdAt, facts.conversationId)),
      systemMessages: systemTexts.map((content) => ({ role: 'system' as const, content })),
      taggedSystemMessages: {},
    },
    output: outputMessages,
    requestContext: {},
    ...(offeredTools === undefined ? {} : { tools: offeredTools }),
    metadata: metadataOf(span, { ...facts, ...model, rule: run.rule, controlTools: completed.control }),
    ...(usage === undefined ? {} : { usage }),
    durationMs: Math.max(0, span.endTimeMs - span.startTimeMs),
    ...(error === undefined ? {} : { error }),
    ...(missing.length === 0 ? {} : { missing }),
    trace: { traceparent: `00-${span.traceId}-${span.spanId}-01`, ...(span.traceState === undefined ? {} : { tracestate: span.traceState }) },
  };
  const sources = {
    ...(input === undefined ? {} : { input: where(input.value, input.span) }),
    ...(output === undefined ? {} : { output: where(output.value, output.span) }),
    ...(system === undefined ? {} : { system: where(system.value, system.span) }),
  };
  return { agentSpan: span, rule: run.rule, sources: sources as AssembledRun['sources'], event };
}

/**
 * The run's tool calls: its tool spans'; when it owns none and its output names no call, the calls
 * its model calls made (run-tools.ts), so a framework that records no tool span still shows its tools.
 */
function runTools(toolSpans: readonly OtlpSpan[], output: readonly UniformMessage[], modelCalls: readonly OtlpSpan[]): SpanTool[] {
  const tools = toolSpans.map(toolOfSpan).filter((tool) => tool !== undefined);
  if (tools.length > 0 || output.some((message) => message.toolCalls.length > 0)) return tools;
  return toolCallsOfModelCalls(modelCalls, (span) => outputMessagesOf(span)?.messages ?? [], (span) => inputMessagesOf(span)?.messages ?? []);
}

/**
 * The output the model calls imply when no agent span recorded one: the last call's prompt after
 * the user's message (the assistant's tool calls and the tool results so far) and its answer.
 */
function modelOutput(modelCalls: readonly OtlpSpan[]): { value: FoundMessages; span: OtlpSpan } | undefined {
  for (let index = modelCalls.length - 1; index >= 0; index--) {
    const call = modelCalls[index]!;
    const answer = outputMessagesOf(call);
    if (answer === undefined) continue;
    const prompt = inputMessagesOf(call)?.messages ?? [];
    const lastUser = prompt.findLastIndex((message) => message.role === 'user');
    const sofar = prompt.slice(lastUser + 1).filter((message) => message.role === 'assistant' || message.role === 'tool');
    return { value: { messages: [...sofar, ...answer.messages], source: answer.source }, span: call };
  }
  return undefined;
}

const hasText = (messages: readonly DbMessageInput[], role: 'user' | 'assistant') =>
  messages.some((message) => message.role === role && message.content.parts.some((part) => part.type === 'text' && part.text.trim() !== ''));

/** What the run lacks that scorers read, and the spans that were looked at. */
function missingParts(input: readonly DbMessageInput[], output: readonly DbMessageInput[], run: FoundRun): NonNullable<AgentRunEventInput['missing']> {
  const parts: Array<'question' | 'answer'> = [];
  if (!hasText(input, 'user')) parts.push('question');
  if (!hasText(output, 'assistant')) parts.push('answer');
  if (parts.length === 0) return [];
  const seen = spansSeen([{ span: run.span, role: run.rule === 'agent_span' ? 'agent' : 'other', convention: undefined }, ...run.own]);
  const hint = contentHint(run);
  return parts.map((part) => ({
    part,
    reason: `${part === 'question' ? 'no user message' : 'no final answer'} in the spans of the run (${seen}): no attribute or event they carry held one${hint}`,
  }));
}

/** What to turn on, when the run shows why its content is absent (docs/otlp.md, "Missing content"). */
function contentHint(run: FoundRun): string {
  const modelCalls = run.own.filter((entry) => entry.role === 'model').map((entry) => entry.span);
  if (modelCalls.length === 0) return '; no span records a model call: add the model client\'s instrumentation (opentelemetry-instrumentation-openai-v2, openinference-instrumentation-openai, or the one for your provider)';
  if (modelCalls.some((span) => inputMessagesOf(span) !== undefined || outputMessagesOf(span) !== undefined)) return '';
  return '; its model calls carry no content: turn content capture on (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT for the GenAI instrumentations, TRACELOOP_TRACE_CONTENT for OpenLLMetry, OPENINFERENCE_HIDE_INPUTS / _OUTPUTS off for OpenInference), and where it goes out as log records, send the logs pipeline to the runs topic';
}

/** `name ×count` of the run's spans, at most 12 distinct names. */
export function spansSeen(spans: readonly ClassifiedSpan[]): string {
  const counts = new Map<string, number>();
  for (const entry of spans) counts.set(entry.span.name, (counts.get(entry.span.name) ?? 0) + 1);
  const names = [...counts].map(([name, count]) => (count === 1 ? `'${name}'` : `'${name}' ×${count}`));
  return names.length <= 12 ? names.join(', ') : `${names.slice(0, 12).join(', ')} and ${names.length - 12} more`;
}

function dbMessage(message: UniformMessage, id: string, createdAt: string, threadId: string | undefined): DbMessageInput {
  const role = message.role === 'tool' ? 'assistant' : message.role;
  const results = new Map(message.toolResults.map((result) => [result.id, result]));
  const parts: DbMessageInput['content']['parts'] = [
    ...message.reasoning.map((reasoning) => ({ type: 'reasoning' as const, reasoning, details: [{ type: 'text' as const, text: reasoning }] })),
    ...message.texts.map((value) => ({ type: 'text' as const, text: value })),
    ...message.toolCalls.map((call) => ({ type: 'tool-invocation' as const, toolInvocation: invocation(call, results.get(call.id)) })),
    ...message.toolResults
      .filter((result) => !message.toolCalls.some((call) => call.id === result.id))
      .map((result) => ({ type: 'tool-invocation' as const, toolInvocation: invocation({ id: result.id, name: result.name ?? 'unknown', args: undefined }, result) })),
  ];
  const joined = message.texts.join('\n');
  return {
    id,
    role,
    createdAt,
    ...(threadId === undefined ? {} : { threadId }),
    content: { format: 2, parts, ...(joined === '' ? {} : { content: joined }) },
  };
}

function invocation(call: UniformToolCall, result: (UniformToolResult & { error?: string }) | undefined) {
  const base = { toolCallId: call.id ?? 'unknown', toolName: call.name, args: call.args ?? {} };
  if (result?.error !== undefined) return { ...base, state: 'output-error' as const, errorText: result.error };
  if (result === undefined) return { ...base, state: 'call' as const };
  return { ...base, state: 'result' as const, result: result.result, ...(result.isError === true ? { isError: true } : {}) };
}
