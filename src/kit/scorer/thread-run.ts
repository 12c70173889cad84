// What a thread scorer receives (docs/threads.md, thread scorers): an ordinary scorer run whose
// `input` and `output` are the whole conversation flattened — every turn's input messages, then
// every turn's output, in turn order — so Mastra's utils read it as one long exchange, plus `turns`,
// each turn as the run a run scorer would have received with its run scores, and `thread`, which
// version this is. The types, and the reader a thread scorer checks its run with; the engine
// builds it (src/engine/threads/thread-scorer-input.ts).
import type { RunScoreSummary, ThreadTurnShed } from '../contracts/thread-turn.ts';
import type { ThreadVersion } from '../contracts/thread-ref.ts';
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
