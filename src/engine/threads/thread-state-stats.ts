// What a partition's thread state (thread-state.ts) reports of itself: the thread stage's gauges
// (threads held and open, turns held and their bytes), counted over its threads when asked for
// rather than kept up to date on every step.
import { hasPending } from './thread.ts';
import type { Thread } from './thread.ts';

export type ThreadStateStats = {
  /** Threads held, open or kept for a resume. */
  threads: number;
  /** Threads with turns some binding has not closed yet. */
  openThreads: number;
  heldTurns: number;
  /** UTF-8 bytes of the held turns. */
  bytes: number;
};

/** The stats of the threads held, `bytes` their held turns' bytes. */
export function threadStateStats(threads: ReadonlyMap<string, Thread>, bytes: number): ThreadStateStats {
  let openThreads = 0;
  let heldTurns = 0;
  for (const thread of threads.values()) {
    if (hasPending(thread)) openThreads += 1;
    heldTurns += thread.turns.length;
  }
  return { threads: threads.size, openThreads, heldTurns, bytes };
}
