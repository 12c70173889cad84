// The tools a run says its agent was offered (`run.tools`, the run event's `tools`), read
// defensively: a scorer can be handed any run by a user's own code, so a list that is not one is
// "not known" rather than an exception in the middle of a pipeline.
import type { ToolDefinition } from '../../contracts/agent-run-event.ts';
import { notScorable } from '../../scorer/not-scorable.ts';
import type { NotScorable } from '../../scorer/not-scorable.ts';
import { listToolCalls, NO_TOOL_CALLS_REASON } from './tool-invocations.ts';
import type { ToolCallRecord } from './tool-invocations.ts';

function isToolDefinition(value: unknown): value is ToolDefinition {
  if (typeof value !== 'object' || value === null) return false;
  const { name, description, parameters } = value as { name?: unknown; description?: unknown; parameters?: unknown };
  if (typeof name !== 'string' || name === '') return false;
  if (description !== undefined && typeof description !== 'string') return false;
  return parameters === undefined || (typeof parameters === 'object' && parameters !== null && !Array.isArray(parameters));
}

/** The offered tools, or undefined when the run does not say (no `tools`, or not a list of definitions). */
export function offeredToolsOf(run: { tools?: unknown }): ToolDefinition[] | undefined {
  const { tools } = run;
  if (!Array.isArray(tools) || !tools.every(isToolDefinition)) return undefined;
  return tools;
}

/** What a scorer that needs the offered tools says when a run lacks them. */
export const NO_OFFERED_TOOLS_REASON =
  'The run does not say which tools the agent was offered (no `tools` in the run event; docs/contracts.md).';

/** What a scorer checking calls against the offer starts from: both, or why the run has nothing to check. */
export function offeredToolsAndCalls(run: { tools?: unknown; output?: unknown }): { offered: ToolDefinition[]; calls: readonly ToolCallRecord[] } | NotScorable {
  const offered = offeredToolsOf(run);
  if (offered === undefined) return notScorable(NO_OFFERED_TOOLS_REASON);
  const calls = listToolCalls(run.output);
  if (calls.length === 0) return notScorable(NO_TOOL_CALLS_REASON);
  return { offered, calls };
}
