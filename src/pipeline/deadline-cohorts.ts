// Scorer timeouts, shared. A service scores thousands of runs a second, and a timer, an
// AbortController and its listeners per run were a measurable share of the work for code scorers
// that finish in microseconds. Runs of the same scorer with the same timeout that start within
// the same few milliseconds form a cohort: one AbortController, one timer, one shutdown listener.
// Every member gets at least its timeout (the timer starts `windowMs` late) and at most
// `windowMs` more. A cohort whose members all finished is closed at once: no timer is left behind.
import { setMaxListeners } from 'node:events';

export type DeadlineCohort = {
  /** Aborted when the cohort's time is up or the shutdown signal aborts. */
  readonly signal: AbortSignal;
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

type Cohort = DeadlineCohort & { openUntil: number; members: number };

const noShutdown = {};
/** Open cohorts by shutdown signal, timeout and key: nested maps, so joining builds no key string. */
const openCohorts = new WeakMap<object, Map<number, Map<string, Cohort>>>();

export function joinDeadlineCohort(key: string, options: CohortOptions): DeadlineCohort {
  const shutdownKey = options.shutdown ?? noShutdown;
  let byTimeout = openCohorts.get(shutdownKey);
  if (byTimeout === undefined) openCohorts.set(shutdownKey, (byTimeout = new Map()));
  let byKey = byTimeout.get(options.timeoutMs);
  if (byKey === undefined) byTimeout.set(options.timeoutMs, (byKey = new Map()));
  const now = performance.now();
  let cohort = byKey.get(key);
  if (cohort === undefined || now > cohort.openUntil || cohort.signal.aborted) {
    const cohorts = byKey;
    cohort = openCohort(options, now, () => {
      if (cohorts.get(key) === cohort) cohorts.delete(key);
    });
    byKey.set(key, cohort);
  }
  cohort.members += 1;
  return cohort;
}

function openCohort(options: CohortOptions, now: number, close: () => void): Cohort {
  const controller = new AbortController();
  // Judge calls of every member listen on this one signal.
  setMaxListeners(0, controller.signal);
  const { shutdown } = options;
  let graceTimer: NodeJS.Timeout | undefined;
  const onShutdown = () => controller.abort(shutdown!.reason);
  const timer = setTimeout(() => controller.abort(options.timeoutReason()), options.timeoutMs + deadlineWindowMs);
  const abandoned = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => (graceTimer = setTimeout(() => reject(controller.signal.reason), abandonGraceMs)), { once: true });
  });
  abandoned.catch(() => undefined);
  const cohort: Cohort = {
    signal: controller.signal,
    abandoned,
    openUntil: now + deadlineWindowMs,
    members: 0,
    release() {
      cohort.members -= 1;
      if (cohort.members > 0) return;
      close();
      clearTimeout(timer);
      clearTimeout(graceTimer);
      shutdown?.removeEventListener('abort', onShutdown);
    },
  };
  if (shutdown?.aborted) onShutdown();
  else shutdown?.addEventListener('abort', onShutdown, { once: true });
  return cohort;
}
