// Unoffered tool calls (code, no judge): the share of the agent's tool calls that went to a tool
// the run offered it, 1 − unoffered / total. A call to a tool the model was not given is a
// hallucinated tool name (or a prompt-injected one); frameworks usually refuse it, so it shows up
// as a wasted step rather than as an error, and this scorer is where it is counted.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { isNotScorable } from '../../../scorer/not-scorable.ts';
import { offeredToolsAndCalls } from '../../shared/offered-tools.ts';
import { nameSome, printable } from '../../shared/reason-text.ts';

export const unofferedToolCallsScorerId = 'unoffered-tool-calls';

export type UnofferedToolCall = { toolName: string; toolCallId: string };

const maxOfferedNamedInReason = 10;
const maxUnofferedNamedInReason = 10;




/** Distinct tool names in first-seen order, a repeated one marked "(×n)". */
function countByTool(calls: readonly UnofferedToolCall[]): string[] {
  const counts = new Map<string, number>();
  for (const call of calls) counts.set(call.toolName, (counts.get(call.toolName) ?? 0) + 1);
  return [...counts].map(([toolName, count]) => (count === 1 ? printable(toolName) : `${printable(toolName)} (×${count})`));
}

export function createUnofferedToolCallsScorer() {
  return createScorer({
    id: unofferedToolCallsScorerId,
    name: 'Unoffered Tool Calls',
    description: "The share of the agent's tool calls that went to tools it was offered (1 − unoffered / total).",
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const start = offeredToolsAndCalls(run);
      if (isNotScorable(start)) return start;
      const { offered, calls } = start;
      const offeredToolNames = [...new Set(offered.map((tool) => tool.name))];
      const offeredNames = new Set(offeredToolNames);
      const unofferedCalls: UnofferedToolCall[] = calls
        .filter((call) => !offeredNames.has(call.toolName))
        .map((call) => ({ toolName: call.toolName, toolCallId: call.toolCallId }));
      return { totalCalls: calls.length, unofferedCalls, offeredToolNames };
    })
    .generateScore(({ results }) => {
      const { totalCalls, unofferedCalls } = results.preprocessStepResult;
      return 1 - unofferedCalls.length / totalCalls;
    })
    .generateReason(({ results }) => {
      const { totalCalls, unofferedCalls, offeredToolNames } = results.preprocessStepResult;
      if (unofferedCalls.length === 0) {
        return totalCalls === 1 ? 'The one tool call went to an offered tool.' : `All ${totalCalls} tool calls went to offered tools.`;
      }
      const unoffered = nameSome(countByTool(unofferedCalls), maxUnofferedNamedInReason);
      const offered =
        offeredToolNames.length === 0 ? 'No tools were offered.' : `Offered: ${nameSome(offeredToolNames.map(printable), maxOfferedNamedInReason)}.`;
      return `${unofferedCalls.length} of ${totalCalls} tool call${totalCalls === 1 ? '' : 's'} went to tools the agent was not offered: ${unoffered}. ${offered}`;
    });
}
