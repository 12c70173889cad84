// Degradation episodes of the sample traffic: one agent answers badly for a while, and again
// later when asked, so that the demo's monitors fire and recover (docs/alerts.md). The run builder
// (build-run.ts) draws a degraded agent's runs from the degraded mix (run-mix.ts).

/**
 * One agent degrades from `startsAt` for `durationMs`, again every `everyMs` when given: its
 * answers are mostly off topic or empty and its tools fail more. Decided by each run's clock
 * reading, so the same seed and clock readings still give the same runs.
 */
export type Degradation = { agentId: string; startsAt: number; durationMs: number; everyMs?: number };

/** Whether `atMs` falls in an episode of `degradation`. */
export function inDegradation(degradation: Degradation, atMs: number): boolean {
  const since = atMs - degradation.startsAt;
  if (since < 0) return false;
  const offset = degradation.everyMs === undefined ? since : since % degradation.everyMs;
  return offset < degradation.durationMs;
}
