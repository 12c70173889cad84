// Tool error rate (code, no judge): the share of the agent's tool calls that did not fail,
// 1 − failed / total. A call failed when the tool threw (state 'output-error') or reported
// failure (`isError`). A turn without tool calls has nothing to rate.
import { createScorer } from '../../../scorer/create-scorer.ts';
import { notScorable } from '../../../scorer/not-scorable.ts';
import { isFailedToolCall, listToolCalls, NO_TOOL_CALLS_REASON } from '../../shared/tool-invocations.ts';
import type { ToolCallRecord } from '../../shared/tool-invocations.ts';

export const toolErrorRateScorerId = 'tool-error-rate';

export type FailedToolCall = { toolName: string; toolCallId: string; error?: string };

// Error texts can be whole stack traces; the record only needs enough to recognise the failure.
const maxErrorLength = 200;

function shorten(text: string): string {
  return text.length <= maxErrorLength ? text : `${text.slice(0, maxErrorLength - 1)}…`;
}

/** What the tool said went wrong: the thrown error's text, or a string error result. */
function errorTextOf(call: ToolCallRecord): string | undefined {
  const { errorText, result } = call.invocation;
  if (typeof errorText === 'string' && errorText !== '') return shorten(errorText);
  if (typeof result === 'string' && result !== '') return shorten(result);
  return undefined;
}

export function createToolErrorRateScorer() {
  return createScorer({
    id: toolErrorRateScorerId,
    name: 'Tool Error Rate',
    description: "The share of the agent's tool calls that succeeded (1 − failed / total).",
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const calls = listToolCalls(run.output);
      if (calls.length === 0) return notScorable(NO_TOOL_CALLS_REASON);
      const failedCalls: FailedToolCall[] = calls.filter(isFailedToolCall).map((call) => {
        const error = errorTextOf(call);
        return { toolName: call.toolName, toolCallId: call.toolCallId, ...(error === undefined ? {} : { error }) };
      });
      return { totalCalls: calls.length, failedCalls };
    })
    .generateScore(({ results }) => {
      const { totalCalls, failedCalls } = results.preprocessStepResult;
      return 1 - failedCalls.length / totalCalls;
    })
    .generateReason(({ results }) => {
      const { totalCalls, failedCalls } = results.preprocessStepResult;
      if (failedCalls.length === 0) return totalCalls === 1 ? 'The one tool call succeeded.' : `All ${totalCalls} tool calls succeeded.`;
      const failures = failedCalls
        .map((call) => (call.error === undefined ? call.toolName : `${call.toolName} (${call.error})`))
        .join(', ');
      return `${failedCalls.length} of ${totalCalls} tool calls failed: ${failures}.`;
    });
}
