// The Kafka key of every record about a (run, scorer) pair — score records, decision records,
// retry messages — and the key it is partitioned by: one function, so that every publisher (the
// service's emitter, consumers/record-emitter.ts; a replay, which goes through it; whatever joins
// later) agrees (docs/contracts.md, keys, partitions and compaction).
//
// The key is the pair's scoreId, so a compacted topic keeps exactly one record per (run, scorer,
// version) and collapses only true duplicates (the same pair scored again after a crash, a
// rebalance or a replay). Keyed by run id, as before, compaction kept one record per run and
// deleted every other scorer's record of it. The partition still follows the run id (murmur2 of
// the run id, as if keyed by it: kafka/key-partitioner.ts), so a run's event and all of its
// records keep sharing a partition number, which is what readers that join by run rely on.
// A record that is about a run and not about a pair is partitioned by the run id alone and needs
// no function: its key is the run id.
import { scoreIdFor } from './score-id.ts';
import type { ScoreIdParts } from './score-id.ts';

export type RecordKey = {
  /** The Kafka key: the pair's scoreId. What compaction keeps one record of. */
  key: string;
  /** What the partition is chosen by: the run id (kafka/key-partitioner.ts). */
  partitionKey: string;
};

/** The key and partition key of a record about the pair (its runId, scorerId and scorerVersion). */
export function recordKeyFor(pair: ScoreIdParts): RecordKey {
  return { key: scoreIdFor(pair), partitionKey: pair.runId };
}
