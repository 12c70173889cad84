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
// A pair scored again for a feedback (docs/feedback.md, re-scoring; its `rescore` block) is keyed by
// rescoreIdFor — the pair and the feedbackId — and so are its decision, its retry message and the
// request for it on the rescore topic: one re-score per feedback, which a duplicate feedback or a
// redelivered request collapses into, and never in place of the pair's own record.
//
// A thread scorer's record (docs/threads.md; its `thread` block) is about a version of a thread,
// not a pair: a score record is keyed by its own scoreId (threadScoreIdFor: one per thread, scorer,
// scorer version and version, so a compacted results topic keeps every version — the thread's
// append-only history — and collapses only a version scored again after a crash or a restore), a
// decision by threadDecisionKeyFor (its thread, binding and turns); both are partitioned by the
// thread key, so a thread's records share a partition and stay in order.
//
// A record about a run or a thread and not about a pair — feedback — is keyed by what it is about:
//   run     the run id
//   trace   the run id the OTLP input gives the agent span: `<traceId>-<spanId>` (runIdOf)
//   thread  the thread key (threadKeyFor, thread-ids.ts): the feedback's tenant (its
//           `metadata.tenantId`, as a run's thread takes its run's) and the thread id, so thread
//           feedback lands on the partition of the thread's records and two tenants' thread `42`
//           stay apart. Without a tenant it is `:42`, the thread of the runs without one.
//
// A record about a monitor — an alert notice (scorestream monitor, docs/alerts.md) — is keyed by
// the monitor's name: its notices share a partition, so they stay in order, and an alerts topic
// compacted keeps each monitor's last notice, which is all a restarted monitor restores its phase from.
//
// The thread transport's own topics are keyed by functions of their own, one each:
//   `{runs}-by-thread`     a re-keyed turn or end event: the thread key (threadKeyFor, thread-ids.ts)
//   `{runs}-thread-state`  the changelog: `t:<thread key>` (threadRecordKey) and
//                          `u:<arrival>:<thread key>` (turnRecordKey, src/engine/threads/thread-changelog.ts),
//                          written to the partition of its by-thread partition, not by key
//   `{runs}-thread-scores` the latest-score view: a thread score under threadScoreViewKeyFor
//                          (thread, scorer, scorer version; thread-ids.ts), partitioned by the thread key
import type { AlertRecord } from './alert-record.ts';
import { runIdOf } from './otlp-run-id.ts';
import { deterministicId } from './deterministic-id.ts';
import type { DecisionRecord } from './decision-record.ts';
import type { FeedbackRecord } from './feedback-record.ts';
import type { ScoreRecord } from './score-record.ts';
import { rescoreIdFor, scoreIdFor } from './score-id.ts';
import type { ScoreIdParts } from './score-id.ts';
import type { ThreadRef } from './thread-ref.ts';
import { threadKeyFor } from './thread-ids.ts';

const THREAD_DECISION_DOMAIN = 'scorestream.thread-decision-key.v1';

export type RecordKey = {
  /** The Kafka key: the pair's scoreId. What compaction keeps one record of. */
  key: string;
  /** What the partition is chosen by: the run id, or a thread's key (kafka/key-partitioner.ts). */
  partitionKey: string;
};

/** A pair, and the feedback it is scored again for when it is a re-score. */
export type PairKeyParts = ScoreIdParts & { rescore?: { feedbackId: string } | undefined };

/** The key and partition key of a record about the pair (its runId, scorerId and scorerVersion; and its re-score's feedback). */
export function recordKeyFor(pair: PairKeyParts): RecordKey {
  const key = pair.rescore === undefined ? scoreIdFor(pair) : rescoreIdFor({ ...pair, feedbackId: pair.rescore.feedbackId });
  return { key, partitionKey: pair.runId };
}

/**
 * The key of a thread scorer's decision (it has no scoreId: an unsampled thread holds no turns to
 * derive a version from): one per (thread, scorer, scorer version, turns decided about), so the
 * same close decided again after a restore collapses and a later close does not.
 */
export function threadDecisionKeyFor(decision: { scorerId: string; scorerVersion?: string | undefined; thread: ThreadRef }): string {
  const { thread } = decision;
  return deterministicId(THREAD_DECISION_DOMAIN, [thread.key, decision.scorerId, decision.scorerVersion, thread.firstRunId, thread.lastRunId, String(thread.turns)]);
}

/** The key and partition key of a score or decision record: its pair's (recordKeyFor), or its thread's. */
export function recordKeyOf(record: ScoreRecord | DecisionRecord): RecordKey {
  // A score record carries its id (scoreIdFor of its pair, or its thread version's): not hashed again per record.
  if (record.thread === undefined) return 'scoreId' in record ? { key: record.scoreId, partitionKey: record.runId } : recordKeyFor(record);
  return { key: 'scoreId' in record ? record.scoreId : threadDecisionKeyFor({ ...record, thread: record.thread }), partitionKey: record.thread.key };
}

/** The key of feedback: its run's id (partitioned like the run's score records), or its thread's key (partitioned like the thread's). */
export function feedbackKeyFor(feedback: Pick<FeedbackRecord, 'target' | 'metadata'>): string {
  const { target } = feedback;
  if (target.type === 'run') return target.runId;
  if (target.type === 'trace') return runIdOf(target);
  return threadKeyFor(feedback.metadata?.tenantId, target.threadId);
}

/** The key of an alert notice: its monitor's name (one partition, in order, per monitor). */
export function alertKeyFor(alert: Pick<AlertRecord, 'monitor'>): string {
  return alert.monitor.name;
}
