// Closing one binding's pending turns of one thread (docs/threads.md, when a thread is scored and
// when it resumes): the version to score — the whole conversation, or under onResume 'segment'
// the turns since the last close — or the decision that says why nothing is scored (the binding's
// admission said no, or the re-score is refused). Updates the part; the thread state releases the
// turns no part needs any more.
import { threadVersionIdFor } from '../../kit/contracts/thread-ids.ts';
import type { ThreadCloseReason } from '../../kit/contracts/thread-ref.ts';
import type { ThreadClose, ThreadDecision } from './thread-effects.ts';
import { acceptsTurns, refusalOf } from './thread-part.ts';
import type { OrderedAnchor, ThreadPart } from './thread-part.ts';
import type { Thread } from './thread.ts';
import type { TurnAnchor } from './turn-entry.ts';

function anchorOf({ arrival: _arrival, ...anchor }: OrderedAnchor): TurnAnchor {
  return anchor;
}

/** Undefined when the part has nothing pending. */
export function closePart(thread: Thread, part: ThreadPart, closedBy: ThreadCloseReason, now: number): ThreadClose | ThreadDecision | undefined {
  const pending = part.pending;
  if (pending === undefined) return undefined;
  const { policy, admission } = part;
  const base = {
    key: thread.key,
    threadId: thread.threadId,
    ...(thread.tenantId === undefined ? {} : { tenantId: thread.tenantId }),
    scorerId: policy.scorerId,
    ...(policy.scorerVersion === undefined ? {} : { scorerVersion: policy.scorerVersion }),
    closedBy,
    ...(admission.sampling === undefined ? {} : { sampling: admission.sampling }),
  };
  const decision = { type: 'decision' as const, ...base, turns: pending.count, first: anchorOf(pending.first), last: anchorOf(pending.last) };
  const refusal = admission.eligible ? refusalOf(part) : undefined;
  let effect: ThreadClose | ThreadDecision;
  if (!admission.eligible) {
    effect = { ...decision, reason: admission.reason, ...(admission.detail === undefined ? {} : { detail: admission.detail }) };
  } else if (refusal !== undefined) {
    effect = { ...decision, reason: 'rescore_refused', detail: refusal };
  } else {
    const segment = part.versions > 0 && policy.options.onResume === 'segment';
    const turns = segment ? thread.turns.filter((turn) => turn.arrival >= part.closedThrough) : thread.turns;
    const versionId = threadVersionIdFor(thread.key, turns.map((turn) => turn.runId));
    const supersedes = !segment && part.versions > 0 ? part.lastVersionId : undefined;
    effect = {
      type: 'close',
      ...base,
      version: part.versions + 1,
      versionId,
      ...(supersedes === undefined ? {} : { supersedes }),
      scope: segment ? 'segment' : 'conversation',
      turns: turns.map((turn) => ({ runId: turn.runId, json: turn.json })),
      lastJoinedAt: thread.lastActivityAt,
      closedAt: now,
    };
    part.versions += 1;
    part.lastVersionId = versionId;
    part.lastScoredAt = now;
    // The whole conversation reached maxTurns: it cannot be re-scored with more (a segment starts afresh).
    if (turns.length >= policy.options.maxTurns && policy.options.onResume !== 'segment') part.full = true;
  }
  delete part.pending;
  part.closedThrough = thread.nextArrival;
  return effect;
}

/** How many turns the part's next close would hold: what maxTurns bounds (the thread state closes at it). */
export function turnsOfNextClose(thread: Thread, part: ThreadPart): number {
  if (part.pending === undefined) return 0;
  const wholeConversation = part.versions === 0 || part.policy.options.onResume === 'rescore';
  return acceptsTurns(part) && wholeConversation ? thread.turns.length : part.pending.count;
}
