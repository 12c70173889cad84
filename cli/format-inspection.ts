// The text `scorestream otlp inspect` prints per trace (src/engine/otlp/inspect-trace.ts): each run, the
// rule that found it, what it carries and where it was read from, what it lacks, and the
// attributes no reader used. Every string from the trace goes through terminalSafe.
import { parseAgentRunEvent } from '../src/kit/contracts/parse.ts';
import type { InspectedRun, InspectedTrace } from '../src/engine/otlp/inspect-trace.ts';
import { getCombinedSystemPrompt, getUserMessageFromRunInput } from '../src/kit/utils/run-input.ts';
import { getAssistantMessageFromRunOutput } from '../src/kit/utils/run-output.ts';
import { terminalSafe } from './terminal-text.ts';

const CONVENTION_NAMES = { genai: 'GenAI', 'ai-sdk': 'AI SDK', openinference: 'OpenInference', openllmetry: 'OpenLLMetry' } as const;

function clip(text: string, length = 100): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`;
}

const quoted = (text: string | undefined) => (text === undefined || text.trim() === '' ? '-' : JSON.stringify(clip(text)));
const json = (value: unknown) => clip(value === undefined ? '-' : typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)), 80);

function conventionsOf(spans: InspectedRun['spans']): string {
  const counts = new Map<string, number>();
  for (const { convention } of spans) {
    const name = convention === undefined ? 'other' : CONVENTION_NAMES[convention];
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => `${name} ×${count}`).join(', ');
}

/** A labelled list: its first item beside the label, the others aligned under it; '-' when empty. */
function continued(label: string, items: readonly string[]): string[] {
  if (items.length === 0) return [`    ${label.padEnd(14)}-`];
  return items.map((item, index) => `    ${(index === 0 ? label : '').padEnd(14)}${item}`);
}

function formatRun(inspected: InspectedRun): string[] {
  const { run } = inspected;
  const lines = [`  run ${run.event.runId}  rule ${run.rule}  span '${run.agentSpan.name}'  (${inspected.spans.length} spans: ${conventionsOf(inspected.spans)})`];
  const parsed = parseAgentRunEvent(run.event);
  if (!parsed.success) {
    lines.push(`    not a valid run event (the service decides it incomplete_trace): ${parsed.problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ')}`);
    return lines;
  }
  const event = parsed.data;
  const metadata = event.metadata ?? {};
  const from = (source: string | undefined) => (source === undefined ? '' : `   (${source})`);
  const tools = event.output
    .flatMap((message) => message.content.parts)
    .flatMap((part) => (part.type === 'tool-invocation' ? [part.toolInvocation] : []))
    .map((call) => `${call.toolName} ${json(call.args)} → ${call.state === 'result' ? json(call.result) : call.state === 'output-error' ? `error: ${json(call.errorText)}` : 'no result'}`);
  const usage = event.usage === undefined ? '-' : `${event.usage.inputTokens ?? '?'} in / ${event.usage.outputTokens ?? '?'} out`;
  lines.push(
    `    entity        ${event.entity.type} '${event.entity.id}'${event.entity.name === undefined || event.entity.name === event.entity.id ? '' : ` (${event.entity.name})`}`,
    `    question      ${quoted(getUserMessageFromRunInput(event.input))}${from(run.sources.input)}`,
    `    answer        ${quoted(getAssistantMessageFromRunOutput(event.output))}${from(run.sources.output)}`,
    `    system        ${quoted(getCombinedSystemPrompt(event.input))}${from(run.sources.system)}`,
    ...continued('tool calls', tools),
    `    tools offered ${event.tools === undefined ? 'not known (no span lists them)' : event.tools.length === 0 ? 'none' : event.tools.map((tool) => `${tool.name}${tool.parameters === undefined ? ' (no schema)' : ''}`).join(', ')}`,
    `    model         ${typeof metadata.model === 'string' ? metadata.model : '-'}${typeof metadata.provider === 'string' ? ` (${metadata.provider})` : ''}, usage ${usage}`,
    `    conversation  ${typeof metadata.conversationId === 'string' ? metadata.conversationId : '-'}, user ${typeof metadata.userId === 'string' ? metadata.userId : '-'}`,
    ...continued('missing', (event.missing ?? []).map((entry) => `${entry.part}: ${entry.reason}`)),
    `    not mapped    ${inspected.unmapped.length === 0 ? '-' : inspected.unmapped.map((entry) => (entry.spans === 1 ? entry.key : `${entry.key} (×${entry.spans})`)).join(', ')}`,
  );
  return lines;
}

export function formatInspectedTrace(trace: InspectedTrace): string {
  const lines = [`trace ${trace.traceId}  ${trace.spanCount} spans, ${trace.runs.length === 1 ? '1 run' : `${trace.runs.length} runs`}`];
  if (trace.noRun !== undefined) lines.push(`  no run: ${trace.noRun.reason}: ${trace.noRun.detail}`);
  for (const run of trace.runs) lines.push(...formatRun(run));
  if (trace.outside.length > 0 && trace.runs.length > 0) lines.push(`  outside every run: ${trace.outside.map((entry) => `'${clip(entry.span.name, 40)}'`).join(', ')}`);
  // Each line made safe on its own: a newline inside a value is escaped, never a line of its own.
  return lines.map(terminalSafe).join('\n');
}
