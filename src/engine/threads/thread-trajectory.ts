// What the trajectory scorers read of a run, for a whole conversation (a thread scorer's run):
// the tools offered in it, the tokens it used and the time its turns took. The calls need nothing
// here — the thread run's `output` already holds every turn's — but these three are per run, and
// the last turn's alone would make a conversation's step budget one turn's.
//   - tools: the union of the turns' lists, the first definition of a name kept; not known (absent)
//     when any turn's are not known, since a call in that turn may be to a tool only it offered
//     (a turn slimmed to its budget loses its list, docs/threads.md);
//   - usage: each count summed over the turns, kept only when every turn reported it;
//   - durationMs: the turns' durations summed — the agent's working time, not the conversation's
//     wall-clock span with the person's pauses in it; kept only when every turn reported one.
import type { AgentRunEvent, RunUsage, ToolDefinition } from '../../kit/contracts/agent-run-event.ts';

export type ConversationTrajectoryFacts = { tools?: ToolDefinition[]; usage?: RunUsage; durationMs?: number };

const USAGE_COUNTS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'] as const;

function unionOfTools(runs: readonly AgentRunEvent[]): ToolDefinition[] | undefined {
  const byName = new Map<string, ToolDefinition>();
  for (const run of runs) {
    if (run.tools === undefined) return undefined;
    for (const tool of run.tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  }
  return [...byName.values()];
}

function summedUsage(runs: readonly AgentRunEvent[]): RunUsage | undefined {
  const usage: RunUsage = {};
  for (const count of USAGE_COUNTS) {
    const values = runs.map((run) => run.usage?.[count]);
    if (values.every((value) => value !== undefined)) usage[count] = values.reduce((sum, value) => sum + value, 0);
  }
  return Object.keys(usage).length === 0 ? undefined : usage;
}

export function conversationTrajectoryFacts(runs: readonly AgentRunEvent[]): ConversationTrajectoryFacts {
  const tools = unionOfTools(runs);
  const usage = summedUsage(runs);
  const durations = runs.map((run) => run.durationMs);
  const durationMs = durations.every((value) => value !== undefined) ? durations.reduce((sum, value) => sum + value, 0) : undefined;
  return { ...(tools === undefined ? {} : { tools }), ...(usage === undefined ? {} : { usage }), ...(durationMs === undefined ? {} : { durationMs }) };
}
