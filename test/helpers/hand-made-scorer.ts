// A scorer not made with this library: an object with an id and a run() that resolves with
// whatever its author wrote. The service accepts any such `ScorerLike` from a config file, and the
// engine checks its value where it enters (src/engine/pipeline/scorer-outcome.ts), so tests hand it
// bare `{ score }` objects, non-objects and values that never come.
import type { ScorerLike } from '../../src/engine/config/config-types.ts';

export type HandMadeRun = (input: Record<string, unknown>, options?: Record<string, unknown>) => Promise<unknown>;

/** Its run(), typed as the engine's: what it resolves with is checked at run time, not here. */
export function handMadeRun(run: HandMadeRun): ScorerLike['run'] {
  return run as ScorerLike['run'];
}

export function handMadeScorer(id: string, run: HandMadeRun): ScorerLike {
  return { id, run: handMadeRun(run) };
}
