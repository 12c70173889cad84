// One thread as the thread state holds it (docs/threads.md): its turns in order, every run id it
// has seen, and one part per thread binding. Turns are held only while a part still needs them
// (thread-part.ts: needsTurn); their run ids stay, so a duplicate turn is still recognised.
import type { ThreadPart } from './thread-part.ts';
import { comesBefore, needsTurn } from './thread-part.ts';

/** A turn held for a close: what orders it, and its text (parsed only when a close scores it). */
export type HeldTurn = { runId: string; timestampMs: number; arrival: number; bytes: number; json: string };

export type Thread = {
  key: string;
  threadId: string;
  tenantId?: string;
  /** In turn order: run timestamp, then arrival. */
  turns: HeldTurn[];
  /** UTF-8 bytes of the held turns. */
  bytes: number;
  /** Every run id applied, held or released: duplicates are dropped by run id. */
  seen: Set<string>;
  /** The arrival number the next turn gets. */
  nextArrival: number;
  createdAt: number;
  /** Wall clock of the last turn: idle and the state TTL count from here. */
  lastActivityAt: number;
  /** An end event named a last run that has not arrived yet: the thread ends when it does. */
  ending?: { lastRunId: string; since: number };
  /** By binding key (bindingKeyOf). */
  parts: Map<string, ThreadPart>;
};

/** Inserts in turn order; turns nearly always arrive last, so the search starts at the end. */
export function insertTurn(thread: Thread, turn: HeldTurn): void {
  let index = thread.turns.length;
  while (index > 0 && comesBefore(turn, thread.turns[index - 1]!)) index -= 1;
  thread.turns.splice(index, 0, turn);
  thread.bytes += turn.bytes;
}

/** Drops the turns no part needs any longer; returns them. */
export function releaseTurns(thread: Thread): HeldTurn[] {
  const parts = [...thread.parts.values()];
  const released: HeldTurn[] = [];
  const kept = thread.turns.filter((turn) => parts.some((part) => needsTurn(part, turn.arrival)) || (released.push(turn), false));
  if (released.length === 0) return released;
  thread.turns = kept;
  thread.bytes = kept.reduce((sum, turn) => sum + turn.bytes, 0);
  return released;
}

export function hasPending(thread: Thread): boolean {
  for (const part of thread.parts.values()) if (part.pending !== undefined) return true;
  return false;
}
