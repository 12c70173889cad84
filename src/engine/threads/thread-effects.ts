// What the thread state asks of its caller (docs/threads.md, the thread state): score a thread
// version, publish a decision, write or delete a thread's changelog record. The state machine
// itself does no I/O; the caller carries effects out in the order given (a close's records before
// the state writes that follow it: see ThreadStage). Changelog records go to the partition of the
// changelog topic with the number of the repartition topic's partition they belong to.
import type { Sampling } from '../../kit/contracts/common.ts';
import type { SkipReason } from '../../kit/contracts/decision-record.ts';
import type { ThreadCloseReason, ThreadScope } from '../../kit/contracts/thread-ref.ts';
import type { TurnAnchor } from './turn-entry.ts';

type ThreadIdentityFields = { key: string; threadId: string; tenantId?: string };
type BindingFields = { scorerId: string; scorerVersion?: string };

/** Score this version of the thread with this binding. `turns` are in turn order (timestamp, then arrival). */
export type ThreadClose = ThreadIdentityFields &
  BindingFields & {
    type: 'close';
    closedBy: ThreadCloseReason;
    version: number;
    versionId: string;
    supersedes?: string;
    scope: ThreadScope;
    /** The thread's sampling decision for this binding, taken on its first turn. */
    sampling?: Sampling;
    turns: { runId: string; json: string }[];
    /** When the thread's latest turn joined the state, and when it closed, on the state's clock: the thread score's latency stages (arrival-latency.ts). */
    lastJoinedAt: number;
    closedAt: number;
  };

/** A close at which the binding scores nothing: its admission said no, or the re-score is refused. */
export type ThreadDecision = ThreadIdentityFields &
  BindingFields & {
    type: 'decision';
    closedBy: ThreadCloseReason;
    reason: SkipReason;
    detail?: string;
    sampling?: Sampling;
    /** How many turns the decision is about, and the first and last of them. */
    turns: number;
    first: TurnAnchor;
    last: TurnAnchor;
  };

/** Upsert a changelog record: a thread's (`t:<thread key>`) or a held turn's (`u:<arrival>:<thread key>`; thread-changelog.ts). */
export type ThreadStateWrite = { type: 'write'; key: string; value: string };

/** A tombstone for a changelog record: a released turn's, or a thread's that expired or was evicted (and its turns'). */
export type ThreadStateDelete = { type: 'delete'; key: string };

export type ThreadEffect = ThreadClose | ThreadDecision | ThreadStateWrite | ThreadStateDelete;
