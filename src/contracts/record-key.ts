// The Kafka key of every score and decision record, and the key it is partitioned by: one
// function, so that every publisher (the service, a replay, whatever joins later) agrees.
//
// The key is the pair's scoreId, so a compacted topic keeps exactly one record per (run, scorer,
// version) and collapses only true duplicates (the same pair scored again after a crash, a
// rebalance or a replay). Keyed by run id, as before, compaction kept one record per run and
// deleted every other scorer's record of it. The partition still follows the run id (murmur2 of
// the run id, as if keyed by it), so a run's event and all of its records keep sharing a partition
// number, which is what readers that join by run rely on (docs/contracts.md, keys and partitions).
import { scoreIdFor } from './score-id.ts';
import type { ScoreIdParts } from './score-id.ts';

export type RecordKey = {
  /** The Kafka key: the pair's scoreId. What compaction keeps one record of. */
  key: string;
  /** What the partition is chosen by: the run id (producers/key-partitioner.ts). */
  partitionKey: string;
};

export function recordKeyFor(pair: ScoreIdParts): RecordKey {
  return { key: scoreIdFor(pair), partitionKey: pair.runId };
}
