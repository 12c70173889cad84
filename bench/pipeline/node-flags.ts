// The Node flags the pipeline benchmark (pipeline.bench.ts) starts its service children with: as
// the service ships them, and the what-ifs its report prices against them.
import { readFileSync } from 'node:fs';

/**
 * Service children run with the Node flags the service ships with (scripts/node-flags, used by
 * bin/scorestream and the Dockerfile): a V8 young generation of 16 MB semi-spaces, large enough
 * that a scavenge does not come every few dozen events and copy the runs in flight each time. The
 * what-if rows run with the small one the service shipped before (4 MB), which a user can still
 * choose through NODE_OPTIONS, to show the trade: more garbage collection in (c) for less RSS in
 * (d). What the earlier what-ifs measured is in docs/benchmarks.md.
 */
export const shippedNodeFlags = readFileSync(new URL('../../scripts/node-flags', import.meta.url), 'utf8').trim().split(/\s+/);
export const whatIfNodeFlags = ['--max-semi-space-size=4'];
/** The service's heap growth (service/heap-growth.ts) left to V8's own factor: the what-if of (c+tracing)'s memory. */
export const ownHeapGrowthFlag = '--heap-growing-percent=0';
export const nodeFlag = whatIfNodeFlags.join(' ');
