// The Kafka keys of Scorestream's records, in one place, so that every publisher (the service's
// emitter, consumers/record-emitter.ts; a replay, which goes through it; the feedback publisher;
// the feedback join) agrees (docs/contracts.md, keys, partitions and compaction).
//
// A record about a (run, scorer) pair — score records, decision records, retry messages — is keyed
// by the pair's scoreId, so a compacted topic keeps exactly one record per (run, scorer, version)
// and collapses only true duplicates (the same pair scored again after a crash, a rebalance or a
// replay). Keyed by run id, as before, compaction kept one record per run and deleted every other
// scorer's record of it. The partition still follows the run id (murmur2 of the run id, as if keyed
// by it: kafka/key-partitioner.ts), so a run's event, its records and its feedback keep sharing a
// partition number, which is what readers that join by run (the feedback join, docs/feedback.md)
// rely on.
//
// A record about a run and not about a pair — feedback — is keyed by the run id alone:
//   run     the run id
//   trace   the run id the OTLP input gives the agent span: `<traceId>-<spanId>` (runIdOf)
//   thread  the thread id
//
// A record about a monitor — an alert notice (scorestream monitor, docs/alerts.md) — is keyed by
// the monitor's name: its notices share a partition, so they stay in order, and an alerts topic
// compacted keeps each monitor's last notice, which is all a restarted monitor restores its phase from.
import type { AlertRecord } from './alert-record.ts';
import { runIdOf } from '../otlp/run-from-trace.ts';
import type { FeedbackTarget } from './feedback-record.ts';
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

/** The key of feedback about `target`: its run id (partitioned like the run's score records), or its thread id. */
export function feedbackKeyFor(target: FeedbackTarget): string {
  if (target.type === 'run') return target.runId;
  if (target.type === 'trace') return runIdOf(target);
  return target.threadId;
}

/** The key of an alert notice: its monitor's name (one partition, in order, per monitor). */
export function alertKeyFor(alert: Pick<AlertRecord, 'monitor'>): string {
  return alert.monitor.name;
}
