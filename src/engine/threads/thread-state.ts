// The state of the threads of one partition of `{runs}-by-thread`, as a pure state machine
// (docs/threads.md, the thread state). Turns, end events and the clock go in; effects come out:
// close this thread version for this binding, publish this decision, write or delete this thread's
// changelog record. Wall-clock time is an argument of every call (a quiet partition still closes
// its threads: the caller arms one timer at nextDeadline() and calls advance), and the state is
// written to changelog records (thread-changelog.ts) and restored from them with its deadlines
// re-armed.
//
// One instance per partition claim: the transport creates it when the partition is assigned,
// restores it from the changelog, and drops it (clear) at the claim's end, a seek or an abort.
// Its parts: the deadlines (thread-schedule.ts), the restore (changelog-restore.ts), what it is
// made with (thread-state-options.ts), its stats (thread-state-stats.ts), the close of a part
// (thread-close.ts).
import type { ThreadCloseReason } from '../../kit/contracts/thread-ref.ts';
import { ScorestreamError } from '../../kit/errors.ts';
import { noRecords, readRecord, restoreThreads } from './changelog-restore.ts';
import type { RestoreOutcome, RestoreResult } from './changelog-restore.ts';
import type { ThreadEffect } from './thread-effects.ts';
import { serializeThread, threadRecordKey, turnRecordKey } from './thread-changelog.ts';
import { closePart, turnsOfNextClose } from './thread-close.ts';
import type { Admission, ThreadPart, ThreadPolicy } from './thread-part.ts';
import { clockDeadlineOf, needsTurn, withPendingTurn } from './thread-part.ts';
import { ThreadSchedule } from './thread-schedule.ts';
import { StateBudget } from './thread-state-options.ts';
import type { ThreadLimits, ThreadStateOptions } from './thread-state-options.ts';
import { threadStateStats } from './thread-state-stats.ts';
import type { ThreadStateStats } from './thread-state-stats.ts';
import { hasPending, insertTurn, releaseTurns } from './thread.ts';
import type { Thread } from './thread.ts';
import type { TurnEntry } from './turn-entry.ts';

// Where their importers have always found them (consumers/thread-source.ts, thread-stage.ts).
export { StateBudget };
export type { RestoreOutcome, RestoreResult, ThreadStateStats };

/** An agent.thread.ended event, keyed (threadKeyFor). */
export type ThreadEnd = { key: string; threadId: string; tenantId?: string; lastRunId?: string };

export class ThreadState {
  readonly #policies: readonly ThreadPolicy[];
  readonly #limits: ThreadLimits;
  /** In least-recently-active order: a thread is moved to the end on each turn (Map keeps insertion order). */
  readonly #threads = new Map<string, Thread>();
  readonly #deadlines = new ThreadSchedule();
  /** This partition's share of the budget's bytes. */
  #bytes = 0;
  readonly #budget: StateBudget;
  /** Changelog records read since the last finishRestore. */
  #restoring = noRecords();

  constructor(options: ThreadStateOptions) {
    this.#policies = options.policies;
    this.#limits = options.limits;
    this.#budget = options.budget ?? new StateBudget(options.limits.maxStateBytes);
  }

  #addBytes(delta: number): void {
    this.#bytes += delta;
    this.#budget.used += delta;
  }

  /** The bindings that have not decided on this thread yet (all of them for a new thread): admit them before applyTurn. */
  missingAdmissions(key: string): ThreadPolicy[] {
    const thread = this.#threads.get(key);
    return thread === undefined ? [...this.#policies] : this.#policies.filter((policy) => !thread.parts.has(policy.binding));
  }

  /** Whether the run was applied to its thread before (at-least-once redelivery, a replay): applyTurn ignores it. */
  isDuplicate(turn: Pick<TurnEntry, 'key' | 'runId'>): boolean {
    return this.#threads.get(turn.key)?.seen.has(turn.runId) === true;
  }

  /**
   * Applies one turn. `admissions`: by binding key, for every binding missingAdmissions named (the
   * thread's sampling and filters, decided once on its first turn). A duplicate yields no effects.
   */
  applyTurn(turn: TurnEntry, now: number, admissions: ReadonlyMap<string, Admission> = new Map()): ThreadEffect[] {
    if (this.isDuplicate(turn)) return [];
    const effects: ThreadEffect[] = [];
    let thread = this.#threads.get(turn.key);
    if (thread === undefined) {
      this.#makeRoom(turn.key, now, effects);
      thread = { key: turn.key, threadId: turn.threadId, ...(turn.tenantId === undefined ? {} : { tenantId: turn.tenantId }), turns: [], bytes: 0, seen: new Set(), nextArrival: 0, createdAt: now, lastActivityAt: now, parts: new Map() };
    }
    for (const policy of this.#policies) {
      if (thread.parts.has(policy.binding)) continue;
      const admission = admissions.get(policy.binding);
      if (admission === undefined) throw new ScorestreamError(`no admission for binding ${policy.binding} on thread ${turn.key}: call missingAdmissions(key) and admit those bindings before applyTurn`, { code: 'thread_admission_missing' });
      // A binding added while the thread was open starts with the turns from here on.
      thread.parts.set(policy.binding, { policy, admission, closedThrough: thread.nextArrival, versions: 0, full: false });
    }

    const ordered = { ...turn.anchor, arrival: thread.nextArrival };
    const parts = [...thread.parts.values()];
    if (parts.some((part) => needsTurn(part, ordered.arrival))) {
      insertTurn(thread, { runId: turn.runId, timestampMs: turn.timestampMs, arrival: ordered.arrival, bytes: turn.bytes, json: turn.json });
      this.#addBytes(turn.bytes);
      // Before the thread record that lists it.
      effects.push({ type: 'write', key: turnRecordKey(thread.key, ordered.arrival), value: turn.json });
    }
    thread.seen.add(turn.runId);
    thread.nextArrival += 1;
    thread.lastActivityAt = now;
    for (const part of parts) part.pending = withPendingTurn(part, ordered, now);
    // Most recently active last.
    this.#threads.delete(thread.key);
    this.#threads.set(thread.key, thread);

    if (turn.ended || thread.ending?.lastRunId === turn.runId) {
      delete thread.ending;
      for (const part of parts) this.#close(thread, part, 'ended', now, effects);
    } else {
      for (const part of parts) if (turnsOfNextClose(thread, part) >= part.policy.options.maxTurns) this.#close(thread, part, 'max_turns', now, effects);
      if (thread.bytes >= this.#limits.maxThreadBytes) {
        for (const part of parts) {
          this.#close(thread, part, 'max_bytes', now, effects);
          // A segment starts afresh; the whole conversation cannot grow any more.
          if (part.policy.options.onResume !== 'segment') part.full = true;
        }
      }
    }
    this.#persist(thread, effects);
    this.#schedule(thread);
    // Over the instance's byte bound: this partition's least recently active other threads close
    // (another partition's threads are not this step's to close: their changelog is another
    // partition's). Each partition's own turns make room, so the sum stays within the bound but
    // for, at most, one thread per partition that had nothing else to close.
    for (const [key, other] of this.#threads) {
      if (this.#budget.used <= this.#budget.maxBytes) break;
      if (key !== thread.key) this.#evict(other, now, effects);
    }
    return effects;
  }

  /** Applies an end event: the thread's open versions close now, or once its named last run has arrived. */
  applyEnd(end: ThreadEnd, now: number): ThreadEffect[] {
    const effects: ThreadEffect[] = [];
    let thread = this.#threads.get(end.key);
    if (thread === undefined) {
      // The end overtook every turn (turns are re-keyed only after their run is scored): remember it.
      if (end.lastRunId === undefined) return effects;
      this.#makeRoom(end.key, now, effects);
      thread = { key: end.key, threadId: end.threadId, ...(end.tenantId === undefined ? {} : { tenantId: end.tenantId }), turns: [], bytes: 0, seen: new Set(), nextArrival: 0, createdAt: now, lastActivityAt: now, parts: new Map() };
      this.#threads.set(thread.key, thread);
    }
    if (end.lastRunId !== undefined && !thread.seen.has(end.lastRunId)) {
      thread.ending = { lastRunId: end.lastRunId, since: now };
    } else {
      delete thread.ending;
      for (const part of thread.parts.values()) this.#close(thread, part, 'ended', now, effects);
    }
    this.#persist(thread, effects);
    this.#schedule(thread);
    return effects;
  }

  /** When advance must next be called (epoch ms); undefined when no thread is held. */
  nextDeadline(): number | undefined {
    return this.#deadlines.next();
  }

  /** Closes what the clock closes by `now` (idle, maxAge) and expires threads past the state TTL. */
  advance(now: number): ThreadEffect[] {
    const effects: ThreadEffect[] = [];
    for (let key = this.#deadlines.takeDue(now); key !== undefined; key = this.#deadlines.takeDue(now)) {
      const thread = this.#threads.get(key)!;
      let closed = false;
      for (const part of thread.parts.values()) {
        const deadline = clockDeadlineOf(part, thread.lastActivityAt);
        if (deadline === undefined || deadline.at > now) continue;
        this.#close(thread, part, deadline.reason, now, effects);
        closed = true;
      }
      if (!hasPending(thread) && now >= thread.lastActivityAt + this.#limits.stateTtlMs) {
        this.#forget(thread, effects);
        continue;
      }
      if (closed) this.#persist(thread, effects);
      this.#schedule(thread);
    }
    return effects;
  }

  /**
   * Reads one changelog record (null: a tombstone), in offset order; nothing takes effect before
   * finishRestore. A key this changelog never writes is refused.
   */
  restore(key: string, value: string | null): RestoreOutcome {
    return readRecord(this.#restoring, key, value);
  }

  /**
   * Builds the threads of the records read (restoreThreads): each replaces the state's thread of
   * its key, its deadlines re-armed from the stored last activity. Orphan turn records' tombstones
   * are the effects; a thread record that cannot be trusted is a problem, its thread not restored.
   */
  finishRestore(): RestoreResult {
    const records = this.#restoring;
    this.#restoring = noRecords();
    return restoreThreads(records, this.#policies, {
      drop: (threadKey) => {
        const existing = this.#threads.get(threadKey);
        if (existing !== undefined) this.#remove(existing);
      },
      hold: (thread, effects) => {
        this.#threads.set(thread.key, thread);
        this.#addBytes(thread.bytes);
        // Turns only a binding no longer configured needed are not held again.
        for (const turn of releaseTurns(thread)) {
          this.#addBytes(-turn.bytes);
          effects.push({ type: 'delete', key: turnRecordKey(thread.key, turn.arrival) });
        }
        this.#schedule(thread);
      },
      holds: (threadKey) => this.#threads.has(threadKey),
    });
  }

  /** The changelog records of a thread as it is now: its thread record, then its held turns'. */
  recordsOf(key: string): { key: string; value: string }[] {
    const thread = this.#threads.get(key);
    if (thread === undefined) return [];
    return [...thread.turns.map((turn) => ({ key: turnRecordKey(key, turn.arrival), value: turn.json })), { key: threadRecordKey(key), value: serializeThread(thread) }];
  }

  stats(): ThreadStateStats {
    return threadStateStats(this.#threads, this.#bytes);
  }

  /** Forgets everything (the claim ended, was sought, or its transaction aborted): restore again from the changelog. */
  clear(): void {
    this.#restoring = noRecords();
    this.#threads.clear();
    this.#deadlines.clear();
    this.#addBytes(-this.#bytes);
  }

  #close(thread: Thread, part: ThreadPart, closedBy: ThreadCloseReason, now: number, effects: ThreadEffect[]): void {
    const effect = closePart(thread, part, closedBy, now);
    if (effect !== undefined) effects.push(effect);
  }

  /** Before a new thread: at maxThreads, the least recently active thread makes room. */
  #makeRoom(newKey: string, now: number, effects: ThreadEffect[]): void {
    for (const [key, thread] of this.#threads) {
      if (this.#threads.size < this.#limits.maxThreads) return;
      if (key !== newKey) this.#evict(thread, now, effects);
    }
  }

  /** Overflow: the thread's open versions are closed (scored or decided, never dropped) and it is forgotten. */
  #evict(thread: Thread, now: number, effects: ThreadEffect[]): void {
    for (const part of thread.parts.values()) this.#close(thread, part, 'overflow', now, effects);
    this.#forget(thread, effects);
  }

  /** After a step: the thread's record, then tombstones of the turns it released (in that order: thread-changelog.ts). */
  #persist(thread: Thread, effects: ThreadEffect[]): void {
    const released = releaseTurns(thread);
    effects.push({ type: 'write', key: threadRecordKey(thread.key), value: serializeThread(thread) });
    for (const turn of released) {
      this.#addBytes(-turn.bytes);
      effects.push({ type: 'delete', key: turnRecordKey(thread.key, turn.arrival) });
    }
  }

  /** The thread is gone from the state and from the changelog. */
  #forget(thread: Thread, effects: ThreadEffect[]): void {
    this.#remove(thread);
    effects.push({ type: 'delete', key: threadRecordKey(thread.key) });
    for (const turn of thread.turns) effects.push({ type: 'delete', key: turnRecordKey(thread.key, turn.arrival) });
  }

  #remove(thread: Thread): void {
    this.#threads.delete(thread.key);
    this.#deadlines.delete(thread.key);
    this.#addBytes(-thread.bytes);
  }

  #schedule(thread: Thread): void {
    let at = Number.POSITIVE_INFINITY;
    for (const part of thread.parts.values()) {
      const deadline = clockDeadlineOf(part, thread.lastActivityAt);
      if (deadline !== undefined && deadline.at < at) at = deadline.at;
    }
    if (at === Number.POSITIVE_INFINITY) at = thread.lastActivityAt + this.#limits.stateTtlMs;
    this.#deadlines.set(thread.key, at);
  }
}

export function createThreadState(options: ThreadStateOptions): ThreadState {
  return new ThreadState(options);
}
