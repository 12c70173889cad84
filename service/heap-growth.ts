// How far V8 lets the old generation grow past what survived its last full collection before it
// collects again. V8's own factor goes up to 4× when collection is cheap next to allocation, which
// is the service's case: runs in flight survive two scavenges and are promoted by the thousand a
// second, and die soon after. With the factor at 4, the old generation swelled to 4× its live size
// before each full collection, and (c) with tracing on peaked at 384–440 MB, over the service's
// 400 MB bound. At 3 the same runs peak at 339–353 MB (docs/benchmarks.md, 2026-12-03 night), for
// more frequent full collections, each as cheap as the live data is small: a few percent of (c)'s
// throughput, inside the machine's noise (2.5 went to 308–336 MB for 7–9%). The factor is a
// ratio, not a cap: a deployment whose live state is large (long threads) gets a
// proportionally larger heap, never an out-of-memory error a fixed --max-old-space-size would bring.
//
// Node refuses this V8 flag in NODE_OPTIONS, so the command line sets it as it starts; V8 reads it
// at every full collection. A `--heap-growing-percent` given to node itself wins. Near the process's
// memory target the factor is lowered (service/memory-target.ts).
import { setFlagsFromString } from 'node:v8';

/** The growing factor as V8 takes it: 1 + percent / 100. */
export const shippedHeapGrowingPercent = 200;

const flag = '--heap-growing-percent';

/** The heap growth in force: `own` when node was started with its own flag. */
export type HeapGrowth = { percent: number; own: boolean };

/** Sets the shipped growing factor unless node was started with its own; returns the percent in force (0: V8's own factor). */
export function applyHeapGrowth(execArgv: readonly string[] = process.execArgv): HeapGrowth {
  const own = execArgv.find((argument) => argument === flag || argument.startsWith(`${flag}=`) || argument.startsWith('--heap_growing_percent'));
  if (own !== undefined) return { percent: Number(own.split('=')[1] ?? 0), own: true };
  setFlagsFromString(`${flag}=${shippedHeapGrowingPercent}`);
  return { percent: shippedHeapGrowingPercent, own: false };
}
