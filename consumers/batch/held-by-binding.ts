// The pairs a batch-tier partition holds, counted per binding (scorer id and version) with the
// oldest one's wait: what the `scorestream.batch.pending` and `oldest_wait` gauges report.
import type { BatchPartitionGauges } from '../service-stats.ts';

export function heldByBinding(held: Iterable<{ readonly retry: { readonly scorerId: string; readonly scorerVersion?: string | undefined }; readonly since: number }>, now: number): BatchPartitionGauges['byScorer'] {
  const byScorer = new Map<string, { scorerId: string; scorerVersion?: string; pendingPairs: number; oldestWaitMs: number }>();
  for (const { retry, since } of held) {
    const key = `${retry.scorerId}\n${retry.scorerVersion ?? ''}`;
    const entry = byScorer.get(key) ?? { scorerId: retry.scorerId, ...(retry.scorerVersion === undefined ? {} : { scorerVersion: retry.scorerVersion }), pendingPairs: 0, oldestWaitMs: 0 };
    byScorer.set(key, { ...entry, pendingPairs: entry.pendingPairs + 1, oldestWaitMs: Math.max(entry.oldestWaitMs, now - since) });
  }
  return [...byScorer.values()];
}
