// Scorer timeouts, shared. A service scores thousands of runs a second, and a timer, an
// AbortController and its listeners per run were a measurable share of the work for code scorers
// that finish in microseconds. Runs of the same scorer with the same timeout that start within
// the same few milliseconds form a cohort: one AbortController, one timer, one shutdown listener.
// Every member gets at least its timeout (the timer starts `windowMs` late) and at most
// `windowMs` more. A cohort is armed — its timer and shutdown listener set — only when a run
// needs waiting for: a run that finishes synchronously (a code scorer's, start to end) only reads
// its signal, and leaves nothing behind. An armed cohort whose members all finished is closed at
// once: no timer is left behind.
import { setMaxListeners } from 'node:events';

export type DeadlineCohort = {
  /** Aborted when the cohort's time is up or the shutdown signal aborts (once armed; at once when shutdown was aborted already). */
  readonly signal: AbortSignal;
  /** A run that did not finish synchronously joins: the cohort is armed, and its timer runs for this member too. */
  join(): DeadlineMembership;
};

export type DeadlineMembership = {
  /** Rejects with the abort reason `graceMs` after the abort: stop waiting for code that ignores signals. */
  readonly abandoned: Promise<never>;
  /** The member finished; the last one out clears the timer. */
  release(): void;
};

export type CohortOptions = {
  timeoutMs: number;
  /** What the signal aborts with when the time is up. */
  timeoutReason: () => unknown;
  shutdown?: AbortSignal;
};

/** How long a cohort accepts new members: the most a run's timeout can be stretched. */
export const deadlineWindowMs = 5;
/** How long an aborted run may take to notice its signal before we stop waiting for it. */
export const abandonGraceMs = 250;

type Cohort = DeadlineCohort & { openUntil: number };

const noShutdown = {};
/** Open cohorts by shutdown signal, timeout and key: nested maps, so finding one builds no key string. */
const openCohorts = new WeakMap<object, Map<number, Map<string, Cohort>>>();

/** The cohort a run of `key` starting now belongs to: its signal for the run, `join()` once the run is waited for. */
export function deadlineCohortFor(key: string, options: CohortOptions): DeadlineCohort {
  const shutdownKey = options.shutdown ?? noShutdown;
  let byTimeout = openCohorts.get(shutdownKey);
  if (byTimeout === undefined) openCohorts.set(shutdownKey, (byTimeout = new Map()));
  let byKey = byTimeout.get(options.timeoutMs);
  if (byKey === undefined) byTimeout.set(options.timeoutMs, (byKey = new Map()));
  const now = performance.now();
  let cohort = byKey.get(key);
  // A cohort opened before the shutdown and not armed since has no listener: one with its signal aborted replaces it.
  if (cohort === undefined || now > cohort.openUntil || cohort.signal.aborted || options.shutdown?.aborted === true) {
    const cohorts = byKey;
    cohort = openCohort(options, now, () => {
      if (cohorts.get(key) === cohort) cohorts.delete(key);
    });
    byKey.set(key, cohort);
  }
  return cohort;
}

function openCohort(options: CohortOptions, now: number, close: () => void): Cohort {
  const controller = new AbortController();
  const { shutdown } = options;
  // Already shutting down: every run sees an aborted signal at once, armed or not.
  if (shutdown?.aborted) controller.abort(shutdown.reason);
  let members = 0;
  let armed: { timer: NodeJS.Timeout; abandoned: Promise<never>; graceTimer: NodeJS.Timeout | undefined } | undefined;
  const onShutdown = () => controller.abort(shutdown!.reason);
  const arm = () => {
    // Judge calls of every member listen on this one signal.
    setMaxListeners(0, controller.signal);
    const state = {
      timer: setTimeout(() => controller.abort(options.timeoutReason()), options.timeoutMs + deadlineWindowMs),
      abandoned: undefined as unknown as Promise<never>,
      graceTimer: undefined as NodeJS.Timeout | undefined,
    };
    state.abandoned = new Promise<never>((_, reject) => {
      const abandon = () => (state.graceTimer = setTimeout(() => reject(controller.signal.reason), abandonGraceMs));
      if (controller.signal.aborted) abandon();
      else controller.signal.addEventListener('abort', abandon, { once: true });
    });
    state.abandoned.catch(() => undefined);
    if (shutdown?.aborted) onShutdown();
    else shutdown?.addEventListener('abort', onShutdown, { once: true });
    return state;
  };
  const membership: DeadlineMembership = {
    get abandoned() {
      return armed!.abandoned;
    },
    release() {
      members -= 1;
      if (members > 0 || armed === undefined) return;
      close();
      clearTimeout(armed.timer);
      clearTimeout(armed.graceTimer);
      shutdown?.removeEventListener('abort', onShutdown);
      armed = undefined;
    },
  };
  return {
    signal: controller.signal,
    openUntil: now + deadlineWindowMs,
    join() {
      members += 1;
      armed ??= arm();
      return membership;
    },
  };
}
