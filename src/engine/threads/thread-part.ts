// One binding's view of one thread (docs/threads.md, when a thread is scored and when it resumes):
// what it decided on the thread's first turn, which turns it has not closed yet, how many versions
// it scored. Pure functions over a part; the thread state (thread-state.ts) owns the parts.
import type { ThreadCloseReason } from '../../kit/contracts/thread-ref.ts';
import type { Eligibility } from '../pipeline/decide-eligibility.ts';
import type { ResolvedThreadBinding } from '../config/config-types.ts';
import type { ThreadOptions } from './threads-schema.ts';
import type { TurnAnchor } from './turn-entry.ts';

/** A thread binding as the state machine needs it. */
export type ThreadPolicy = { binding: string; scorerId: string; scorerVersion?: string; options: ThreadOptions };

/** A binding's identity within a thread: its scorer and version (resolveConfig refuses the same pair twice). */
export function bindingKeyOf(scorerId: string, scorerVersion: string | undefined): string {
  return JSON.stringify([scorerId, scorerVersion ?? null]);
}

export function threadPoliciesOf(bindings: readonly Pick<ResolvedThreadBinding, 'scorerId' | 'version' | 'thread'>[]): ThreadPolicy[] {
  return bindings.map((binding) => ({
    binding: bindingKeyOf(binding.scorerId, binding.version),
    scorerId: binding.scorerId,
    ...(binding.version === undefined ? {} : { scorerVersion: binding.version }),
    options: binding.thread,
  }));
}

/** A binding's decision on a thread, taken on its first turn and kept: eligibility with the thread's sampling. */
export type Admission = Eligibility;

/** A turn's place in the thread: run timestamp, then arrival. */
export type OrderedAnchor = TurnAnchor & { arrival: number };

export type PendingTurns = {
  /** Wall clock of the first turn not yet closed: maxAge counts from here. */
  since: number;
  count: number;
  first: OrderedAnchor;
  last: OrderedAnchor;
};

export type ThreadPart = {
  policy: ThreadPolicy;
  admission: Admission;
  /** Turns that arrived before this arrival number were in an earlier close. */
  closedThrough: number;
  pending?: PendingTurns;
  /** Versions scored so far (a refused close scores none). */
  versions: number;
  lastVersionId?: string;
  /** Wall clock of the last scored close: minRescoreIntervalMs counts from here. */
  lastScoredAt?: number;
  /** The thread reached maxTurns or maxThreadBytes for this binding: it takes no re-score. */
  full: boolean;
};

export function comesBefore(a: { timestampMs: number; arrival: number }, b: { timestampMs: number; arrival: number }): boolean {
  return a.timestampMs < b.timestampMs || (a.timestampMs === b.timestampMs && a.arrival < b.arrival);
}

export function withPendingTurn(part: ThreadPart, turn: OrderedAnchor, now: number): PendingTurns {
  const pending = part.pending;
  if (pending === undefined) return { since: now, count: 1, first: turn, last: turn };
  return {
    since: pending.since,
    count: pending.count + 1,
    first: comesBefore(turn, pending.first) ? turn : pending.first,
    last: comesBefore(pending.last, turn) ? turn : pending.last,
  };
}

/** Why the binding's next close would score nothing although it is eligible; undefined when it would score. */
export function refusalOf(part: ThreadPart): string | undefined {
  if (part.versions === 0) return undefined;
  const { onResume, maxRescores, maxTurns } = part.policy.options;
  if (onResume === 'once') return `the thread was scored before and onResume is 'once'`;
  if (part.full) return `the thread is full (maxTurns ${maxTurns} or threads.maxThreadBytes reached), so it takes no re-score`;
  if (part.versions - 1 >= maxRescores) return `the thread was re-scored ${part.versions - 1} time(s), which is maxRescores`;
  return undefined;
}

/** Whether the part will score turns that arrive from now on (so they must be held). */
export function acceptsTurns(part: ThreadPart): boolean {
  return part.admission.eligible && refusalOf(part) === undefined;
}

/** Whether the part still needs this held turn: for its next close, or as history of a future re-score. */
export function needsTurn(part: ThreadPart, arrival: number): boolean {
  if (!acceptsTurns(part)) return false;
  // The first version and every re-score hold the whole conversation; a segment only what is new.
  return part.versions === 0 || part.policy.options.onResume === 'rescore' || arrival >= part.closedThrough;
}

/** When the part's pending turns close by the clock (idle or maxAge), and for which reason. */
export function clockDeadlineOf(part: ThreadPart, lastActivityAt: number): { at: number; reason: ThreadCloseReason } | undefined {
  if (part.pending === undefined) return undefined;
  const { idleMs, maxAgeMs, minRescoreIntervalMs } = part.policy.options;
  const idleAt = lastActivityAt + idleMs;
  const ageAt = part.pending.since + maxAgeMs;
  const deadline = ageAt < idleAt ? { at: ageAt, reason: 'max_age' as const } : { at: idleAt, reason: 'idle' as const };
  // A re-score waits out minRescoreIntervalMs after the last score; a refused one need not wait.
  if (minRescoreIntervalMs > 0 && part.lastScoredAt !== undefined && acceptsTurns(part)) {
    deadline.at = Math.max(deadline.at, part.lastScoredAt + minRescoreIntervalMs);
  }
  return deadline;
}
