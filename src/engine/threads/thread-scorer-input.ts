// Builds the run a thread scorer receives (its shape: src/kit/scorer/thread-run.ts): an ordinary scorer run whose
// `input` and `output` are the whole conversation flattened — every turn's input messages, then
// every turn's output, in turn order — so Mastra's utils read it as one long exchange
// (getUserMessageFromRunInput: the opening request; getAssistantMessageFromRunOutput: the final
// answer; extractToolCalls: every tool call of the thread), plus `turns`, each turn as the run a
// run scorer would have received with its run scores, and `thread`, which version this is. The
// other fields are the last turn's: its run id, request context, entity and trace (the score span's
// parent) — but the tools offered, the usage and the duration are the conversation's
// (thread-trajectory.ts), so the trajectory scorers bound at thread level score the conversation.
import type { AgentRunEvent } from '../../kit/contracts/agent-run-event.ts';
import type { CoreSystemMessage } from '../../kit/contracts/messages.ts';
import type { ThreadTurn } from '../../kit/contracts/thread-turn.ts';
import type { ThreadVersion } from '../../kit/contracts/thread-ref.ts';
import { collectRunFacts } from '../pipeline/run-facts.ts';
import type { RunFacts } from '../pipeline/run-facts.ts';
import { buildScorerInput } from '../pipeline/scorer-input.ts';
import type { ThreadScorerRun, ThreadTurnRun } from '../../kit/scorer/thread-run.ts';
import type { ScorerRunInputForAgent } from '../../kit/utils/message-types.ts';
import { conversationTrajectoryFacts } from './thread-trajectory.ts';

/** The facts of a thread version: its last turn's, with the thread key as the sampling key. */
export function threadFacts(turns: readonly ThreadTurn[]): RunFacts {
  const last = turns.at(-1)!;
  const facts = collectRunFacts(last.run, last.source, last.trace);
  return { ...facts, samplingKey: last.thread.key, predicateContext: { ...facts.predicateContext, threadId: last.thread.id } };
}

function turnRun(turn: ThreadTurn): ThreadTurnRun {
  const input = buildScorerInput(collectRunFacts(turn.run, turn.source, turn.trace)) as ThreadTurnRun;
  return { ...input, timestamp: turn.run.timestamp, runScores: turn.runScores, ...(turn.shed === undefined ? {} : { shed: turn.shed }) };
}

/** System prompts of every turn, each once, in the order they first appear. */
function systemMessagesOf(runs: readonly AgentRunEvent[]): CoreSystemMessage[] {
  const seen = new Set<string>();
  const messages: CoreSystemMessage[] = [];
  for (const run of runs) {
    for (const message of run.input.systemMessages) {
      const identity = JSON.stringify(message.content);
      if (seen.has(identity)) continue;
      seen.add(identity);
      messages.push(message);
    }
  }
  return messages;
}

/** `turns` in turn order, as the close effect lists them. */
export function buildThreadScorerInput(version: ThreadVersion, turns: readonly ThreadTurn[]): ThreadScorerRun {
  const runs = turns.map((turn) => turn.run);
  const input: ScorerRunInputForAgent = {
    inputMessages: runs.flatMap((run) => run.input.inputMessages),
    rememberedMessages: [],
    systemMessages: systemMessagesOf(runs),
    taggedSystemMessages: {},
  };
  const { tools: _lastTools, usage: _lastUsage, durationMs: _lastDuration, ...lastTurn } = buildScorerInput(threadFacts(turns));
  return {
    ...lastTurn,
    ...conversationTrajectoryFacts(runs),
    runId: turns.at(-1)!.run.runId,
    input,
    output: runs.flatMap((run) => run.output),
    turns: turns.map(turnRun),
    thread: version,
  };
}
