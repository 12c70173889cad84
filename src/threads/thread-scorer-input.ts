// The run a thread scorer receives (docs/threads.md, thread scorers): an ordinary scorer run whose
// `input` and `output` are the whole conversation flattened — every turn's input messages, then
// every turn's output, in turn order — so Mastra's utils read it as one long exchange
// (getUserMessageFromRunInput: the opening request; getAssistantMessageFromRunOutput: the final
// answer; extractToolCalls: every tool call of the thread), plus `turns`, each turn as the run a
// run scorer would have received with its run scores, and `thread`, which version this is. The
// other fields are the last turn's: its run id, request context, entity and trace (the score span's
// parent).
import type { AgentRunEvent } from '../contracts/agent-run-event.ts';
import type { CoreSystemMessage } from '../contracts/messages.ts';
import type { RunScoreSummary, ThreadTurn, ThreadTurnShed } from '../contracts/thread-turn.ts';
import type { ThreadVersion } from '../contracts/thread-ref.ts';
import { collectRunFacts } from '../pipeline/run-facts.ts';
import type { RunFacts } from '../pipeline/run-facts.ts';
import { buildScorerInput } from '../pipeline/scorer-input.ts';
import type { ScorerRunInputForAgent, ScorerRunOutputForAgent } from '../utils/message-types.ts';
import { isRecord } from '../utils/message-text.ts';

/** One turn of a thread run: what a run scorer received for it, with its run scores and time. */
export type ThreadTurnRun = {
  runId: string;
  /** When the run completed (ISO). */
  timestamp: string;
  input: ScorerRunInputForAgent;
  output: ScorerRunOutputForAgent;
  entity: { id: string; name?: string };
  requestContext: Record<string, string | number | boolean>;
  targetTraceId?: string;
  targetSpanId?: string;
  targetMetadata?: Record<string, unknown>;
  runScores: RunScoreSummary[];
  /** What the turn budget removed from this run (ThreadTurn `shed`). */
  shed?: ThreadTurnShed[];
  [key: string]: unknown;
};

/** What a thread scorer's `run.thread` says: the thread block its record will carry. */
export type ThreadRunInfo = ThreadVersion;

/** What a thread scorer's run() receives (besides the fields of buildScorerInput, the last turn's). */
export type ThreadScorerRun = {
  runId: string;
  input: ScorerRunInputForAgent;
  output: ScorerRunOutputForAgent;
  turns: ThreadTurnRun[];
  thread: ThreadRunInfo;
  [key: string]: unknown;
};

/** The parts of a thread run a thread scorer reads (threadRunOf). */
export type ThreadRunView = { thread: ThreadRunInfo; turns: ThreadTurnRun[] };

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
  return {
    ...buildScorerInput(threadFacts(turns)),
    runId: turns.at(-1)!.run.runId,
    input,
    output: runs.flatMap((run) => run.output),
    turns: turns.map(turnRun),
    thread: version,
  };
}

/**
 * The thread of a scorer run, or undefined when the run is not a thread run (a thread scorer bound
 * with `level: 'run'`): what built-in thread scorers check first.
 */
export function threadRunOf(run: unknown): ThreadRunView | undefined {
  if (!isRecord(run) || !Array.isArray(run.turns) || !isRecord(run.thread)) return undefined;
  const turns = run.turns.filter((turn): turn is ThreadTurnRun => isRecord(turn) && typeof turn.runId === 'string' && Array.isArray(turn.output));
  if (turns.length !== run.turns.length) return undefined;
  return { thread: run.thread as ThreadRunInfo, turns };
}
