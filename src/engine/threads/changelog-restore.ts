// Restoring one partition's thread state from its changelog (docs/threads.md, the thread state;
// the record kinds: thread-changelog.ts). The records are read in offset order into a buffer where
// a later record of a key replaces the earlier one and a tombstone deletes it; nothing takes effect
// until the state's finishRestore (thread-state.ts) builds the threads at once with restoreThreads,
// so a thread is built from its last record and only the turns that record lists.
import type { ThreadEffect } from './thread-effects.ts';
import { parseChangelogKey, parseThreadValue, threadRecordKey, turnRecordKey } from './thread-changelog.ts';
import type { ThreadPolicy } from './thread-part.ts';
import type { Thread } from './thread.ts';

export type RestoreOutcome = { restored: true } | { restored: false; problem: string };

/** What finishRestore found: orphan turn records to delete, and thread records it could not trust. */
export type RestoreResult = { effects: ThreadEffect[]; problems: { key: string; problem: string }[] };

/** Changelog records read since the last finishRestore: thread values, and turn texts by arrival. */
export type RestoringRecords = { threads: Map<string, string | null>; turns: Map<string, Map<number, string>> };

export function noRecords(): RestoringRecords {
  return { threads: new Map(), turns: new Map() };
}

/** Reads one changelog record (null: a tombstone) into `records`. A key this changelog never writes is refused. */
export function readRecord(records: RestoringRecords, key: string, value: string | null): RestoreOutcome {
  const parsed = parseChangelogKey(key);
  if (parsed === undefined) return { restored: false, problem: `${JSON.stringify(key)} is not a thread state key (t:<thread> or u:<arrival>:<thread>)` };
  if (parsed.kind === 'thread') {
    records.threads.set(parsed.threadKey, value);
    return { restored: true };
  }
  let turns = records.turns.get(parsed.threadKey);
  if (turns === undefined) records.turns.set(parsed.threadKey, (turns = new Map()));
  if (value === null) turns.delete(parsed.arrival);
  else turns.set(parsed.arrival, value);
  return { restored: true };
}

/** The state being restored, as restoreThreads changes it. */
export type RestoreTarget = {
  /** Removes the state's thread of this key, if it holds one: the record read replaces it. */
  drop(threadKey: string): void;
  /** Holds a restored thread (its bytes, its deadlines), pushing the tombstones of the turns it no longer needs. */
  hold(thread: Thread, effects: ThreadEffect[]): void;
  holds(threadKey: string): boolean;
};

/**
 * Builds the threads of the records read: each replaces the state's thread of its key (a
 * tombstone removes it), with its parts taking the current config (bindings no longer configured
 * are dropped, new ones are admitted on the thread's next turn). Turn records no thread lists are
 * orphans: their tombstones are the effects. A thread record that cannot be trusted is a problem,
 * and its thread is not restored.
 */
export function restoreThreads(records: RestoringRecords, policies: readonly ThreadPolicy[], target: RestoreTarget): RestoreResult {
  const { threads, turns } = records;
  const effects: ThreadEffect[] = [];
  const problems: RestoreResult['problems'] = [];
  for (const [threadKey, value] of threads) {
    target.drop(threadKey);
    if (value === null) continue;
    const texts = turns.get(threadKey) ?? new Map<number, string>();
    const parsed = parseThreadValue(value, policies, texts);
    if (!parsed.success) {
      problems.push({ key: threadRecordKey(threadKey), problem: parsed.message });
      turns.delete(threadKey);
      continue;
    }
    if (parsed.data.key !== threadKey) {
      problems.push({ key: threadRecordKey(threadKey), problem: `the record holds thread ${JSON.stringify(parsed.data.key)}` });
      turns.delete(threadKey);
      continue;
    }
    const thread = parsed.data;
    const held = new Set(thread.turns.map((turn) => turn.arrival));
    for (const arrival of texts.keys()) if (!held.has(arrival)) effects.push({ type: 'delete', key: turnRecordKey(threadKey, arrival) });
    turns.delete(threadKey);
    target.hold(thread, effects);
  }
  // Turn records of threads that have no record (a crash before their thread was first written).
  for (const [threadKey, texts] of turns) {
    if (target.holds(threadKey)) continue;
    for (const arrival of texts.keys()) effects.push({ type: 'delete', key: turnRecordKey(threadKey, arrival) });
  }
  return { effects, problems };
}
