// Tool error rate across a thread (code, thread scorer): the share of the agent's tool calls in the
// whole conversation that did not fail, 1 − failed / total, with the turns the failures were in.
// The run scorer tool-error-rate rates one turn; this one rates the conversation. Bind it with
// level: 'thread' (docs/threads.md).
import { createScorer } from '../../../scorer/create-scorer.ts';
import { isNotScorable, notScorable } from '../../../scorer/not-scorable.ts';
import { threadOrNotScorable } from '../../shared/thread-run.ts';
import { isFailedToolCall, listToolCalls } from '../../shared/tool-invocations.ts';

export const threadToolErrorRateScorerId = 'thread-tool-error-rate';

export type ThreadToolFailure = { turn: number; runId: string; toolName: string; toolCallId: string };

export function createThreadToolErrorRateScorer() {
  return createScorer({
    id: threadToolErrorRateScorerId,
    name: 'Thread Tool Error Rate',
    description: "The share of the agent's tool calls across the whole conversation that succeeded (1 − failed / total).",
    type: 'agent',
  })
    .preprocess(({ run }) => {
      const thread = threadOrNotScorable(run, threadToolErrorRateScorerId);
      if (isNotScorable(thread)) return thread;
      let totalCalls = 0;
      const failedCalls: ThreadToolFailure[] = [];
      thread.turns.forEach((turn, index) => {
        const calls = listToolCalls(turn.output);
        totalCalls += calls.length;
        for (const call of calls.filter(isFailedToolCall)) failedCalls.push({ turn: index + 1, runId: turn.runId, toolName: call.toolName, toolCallId: call.toolCallId });
      });
      if (totalCalls === 0) return notScorable('The agent called no tools in the conversation.');
      return { totalCalls, failedCalls, turns: thread.turns.length };
    })
    .generateScore(({ results }) => 1 - results.preprocessStepResult.failedCalls.length / results.preprocessStepResult.totalCalls)
    .generateReason(({ results }) => {
      const { totalCalls, failedCalls, turns } = results.preprocessStepResult;
      if (failedCalls.length === 0) return `All ${totalCalls} tool call${totalCalls === 1 ? '' : 's'} over ${turns} turn${turns === 1 ? '' : 's'} succeeded.`;
      const failures = failedCalls.map((call) => `${call.toolName} (turn ${call.turn})`).join(', ');
      return `${failedCalls.length} of ${totalCalls} tool calls over ${turns} turns failed: ${failures}.`;
    });
}
