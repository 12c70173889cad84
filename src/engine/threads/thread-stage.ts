// The thread stage of one partition of `{runs}-by-thread` (docs/threads.md): the thread state
// machine, the admission of new threads and the scoring of closes, behind the four calls the
// transport makes — a turn, an end event, the timer, a changelog record on restore. Each call
// returns the changelog writes its step made and, as data, the work of the closes it made: a
// version to score, or a decision. The stage scores nothing itself: the job runner scores each
// close as it scores a run (consumers/perform-job.ts, threadCloseOutcome). The transport publishes
// the records first and the writes after them (a write that records a close must not outlive a
// crash that lost the close's score), in call order; with exactly-once, both and the consumed
// offset go in one transaction.
//
// Calls are applied one after another in the order they were made (a turn may wait for its
// admission's `when`), so the transport may hand over a partition's messages without awaiting each.
import type { ResolvedThreadBinding } from '../config/config-types.ts';
import type { DecisionRecord } from '../../kit/contracts/decision-record.ts';
import type { ThreadEndedEvent } from '../../kit/contracts/thread-ended.ts';
import type { ThreadTurn } from '../../kit/contracts/thread-turn.ts';
import { admitThread } from './admit-thread.ts';
import type { ThreadClose, ThreadEffect } from './thread-effects.ts';
import { decisionRecordOf } from './thread-decision-record.ts';
import { threadPoliciesOf } from './thread-part.ts';
import { ThreadState } from './thread-state.ts';
import type { RestoreOutcome, RestoreResult, StateBudget, ThreadStateStats } from './thread-state.ts';
import type { ThreadsConfig } from './threads-schema.ts';
import { turnEntryOf } from './turn-entry.ts';

export type ThreadStageOptions<Event> = {
  bindings: readonly ResolvedThreadBinding<Event>[];
  threads: ThreadsConfig;
  /** Wall clock in ms (injected in tests). */
  now?: () => number;
  /** The instance's held-turn budget, shared by its partitions' stages (thread-state.ts). */
  budget?: StateBudget;
};

/** A changelog record to produce (thread-changelog.ts for its keys), value null = tombstone. */
export type ChangelogWrite = { key: string; value: string | null };

/**
 * A close's work, as data: a version to score with its binding (`parsed` holds the step's held
 * turns as they are read, so bindings closing the same version read them once), or a decision
 * record when the binding scores nothing at this close.
 */
export type ThreadCloseWork =
  | { readonly kind: 'score'; readonly close: ThreadClose; readonly parsed: Map<string, ThreadTurn> }
  | { readonly kind: 'decide'; readonly closedBy: ThreadClose['closedBy']; readonly decision: DecisionRecord };

export type ThreadOutcome = {
  /** What the state machine decided, in order (closes by reason are the stage's metrics). */
  effects: ThreadEffect[];
  /** Publish after `records` were acknowledged, in call order. */
  changelog: ChangelogWrite[];
  /** The work of this step's closes, one per close and decision effect, in their order. */
  closes: ThreadCloseWork[];
};

export class ThreadStage<Event = unknown> {
  readonly #options: ThreadStageOptions<Event>;
  readonly #state: ThreadState;
  readonly #now: () => number;
  #queue: Promise<unknown> = Promise.resolve();
  #epoch = 0;

  constructor(options: ThreadStageOptions<Event>) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#state = new ThreadState({ policies: threadPoliciesOf(options.bindings), limits: options.threads, ...(options.budget === undefined ? {} : { budget: options.budget }) });
  }

  /** Reads one changelog record, in offset order, before the partition is consumed (ThreadState.restore). */
  restore(key: string, value: string | null): RestoreOutcome {
    return this.#state.restore(key, value);
  }

  /**
   * After the last changelog record: the threads read take effect. Produce `changelog` (tombstones
   * of orphan turn records); report `problems` (thread records that could not be trusted).
   */
  restored(): { changelog: ChangelogWrite[]; problems: RestoreResult['problems'] } {
    const { effects, problems } = this.#state.finishRestore();
    return { changelog: effects.flatMap((effect) => (effect.type === 'delete' ? [{ key: effect.key, value: null }] : [])), problems };
  }

  /** A turn message, decoded (decodeThreadMessage); `json` is the text it was decoded from. */
  turn(turn: ThreadTurn, json: string): Promise<ThreadOutcome> {
    return this.#step(async (isCurrent) => {
      const entry = turnEntryOf(turn, json);
      if (this.#state.isDuplicate(entry)) return [];
      const missing = this.#state.missingAdmissions(entry.key);
      const admissions = missing.length === 0 ? undefined : await admitThread(this.#options.bindings, turn, missing);
      return isCurrent() ? this.#state.applyTurn(entry, this.#now(), admissions) : [];
    });
  }

  /** An end event, keyed by its thread (decodeThreadMessage gives the key). */
  end(end: ThreadEndedEvent, key: string): Promise<ThreadOutcome> {
    return this.#step(() => this.#state.applyEnd({ key, threadId: end.threadId, ...(end.tenantId === undefined ? {} : { tenantId: end.tenantId }), ...(end.lastRunId === undefined ? {} : { lastRunId: end.lastRunId }) }, this.#now()));
  }

  /** The timer fired: close what the clock closes. Arm the next timer at nextDeadline(). */
  advance(): Promise<ThreadOutcome> {
    return this.#step(() => this.#state.advance(this.#now()));
  }

  /** When to call advance next (epoch ms), undefined when no thread is held. */
  nextDeadline(): number | undefined {
    return this.#state.nextDeadline();
  }

  stats(): ThreadStateStats {
    return this.#state.stats();
  }

  /** The claim ended, was sought, or its transaction aborted: forget everything (steps still queued apply nothing). */
  clear(): void {
    this.#epoch += 1;
    this.#state.clear();
  }

  #step(apply: (isCurrent: () => boolean) => ThreadEffect[] | Promise<ThreadEffect[]>): Promise<ThreadOutcome> {
    const epoch = this.#epoch;
    const outcome = this.#queue.then(async () => this.#carryOut(await apply(() => epoch === this.#epoch)));
    this.#queue = outcome.catch(() => undefined);
    return outcome;
  }

  #carryOut(effects: ThreadEffect[]): ThreadOutcome {
    const changelog: ChangelogWrite[] = [];
    const closes: ThreadCloseWork[] = [];
    const decidedAt = new Date(this.#now()).toISOString();
    // Bindings closing the same version read the same held turns: parsed once for the step, shared (as a run's event is shared by its bindings).
    const parsed = new Map<string, ThreadTurn>();
    for (const effect of effects) {
      if (effect.type === 'write') changelog.push({ key: effect.key, value: effect.value });
      else if (effect.type === 'delete') changelog.push({ key: effect.key, value: null });
      else if (effect.type === 'decision') closes.push({ kind: 'decide', closedBy: effect.closedBy, decision: decisionRecordOf(effect, decidedAt) });
      else closes.push({ kind: 'score', close: effect, parsed });
    }
    return { effects, changelog, closes };
  }
}

export function createThreadStage<Event>(options: ThreadStageOptions<Event>): ThreadStage<Event> {
  return new ThreadStage(options);
}
