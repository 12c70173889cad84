// How long a judge request waited for a judge slot, carried from the concurrency cap (which knows
// the wait) up to the judge call's evidence (which records it as `queuedMs`), across the AI SDK's
// retry loop and the model wrappers in between, none of which pass anything of ours along. An
// AsyncLocalStorage scope per request does: the call opens it, the cap reports into it. Without a
// scope (a call made outside callJudge) a report goes nowhere. The same scope tells the cap the
// scorer's deadline, from which its default per-request timeout follows.
import { AsyncLocalStorage } from 'node:async_hooks';

export type SlotWaitTally = {
  queuedMs: number | undefined;
  /** The scorer run's deadline (its binding's timeoutMs), when known: the cap derives its default per-request timeout from it. */
  scorerTimeoutMs?: number;
};

const scope = new AsyncLocalStorage<SlotWaitTally>();

/** Runs `call` so that slot waits reported inside it add up in `tally.queuedMs`. */
export function slotWaitScope<T>(tally: SlotWaitTally, call: () => Promise<T>): Promise<T> {
  return scope.run(tally, call);
}

/** The scorer deadline the enclosing judge call declared, if any. */
export function scopeScorerTimeoutMs(): number | undefined {
  return scope.getStore()?.scorerTimeoutMs;
}

/** Adds a wait to the enclosing scope's tally, if any. */
export function reportSlotWait(waitedMs: number): void {
  const tally = scope.getStore();
  if (tally !== undefined) tally.queuedMs = (tally.queuedMs ?? 0) + waitedMs;
}
