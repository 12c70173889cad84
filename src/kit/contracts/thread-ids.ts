// The identities of thread scoring (docs/threads.md): the key of a thread, the id of one of its
// scored versions, the scoreId of a thread score, and the key of the latest-score view. Each is a
// pure function of its parts, so a crash, a restore from the changelog or a replay of the
// repartition topic yields the same ids, and duplicates are recognisable.
import { deterministicId } from './deterministic-id.ts';

const VERSION_DOMAIN = 'scorestream.thread-version.v1';
const SCORE_DOMAIN = 'scorestream.thread-score-id.v1';
const VIEW_DOMAIN = 'scorestream.thread-score-view.v1';

/**
 * The key of a thread: its tenant and its id, so two tenants' thread `42` are two threads. The
 * tenant is percent-encoded, so the first `:` always ends it (`acme:42`; no tenant: `:42`) and no
 * (tenant, thread) pair can be spelled like another. The Kafka key of the `{runs}-by-thread` topic.
 */
export function threadKeyFor(tenantId: string | undefined, threadId: string): string {
  return `${encodeURIComponent(tenantId ?? '')}:${threadId}`;
}

/**
 * The id of a thread version: derived from the *set* of its turns' run ids (order and duplicates
 * do not matter), so the same turns scored again, in whatever order they arrived, are the same
 * version. A different set is a different version.
 */
export function threadVersionIdFor(threadKey: string, runIds: Iterable<string>): string {
  const sorted = [...new Set(runIds)].sort();
  return deterministicId(VERSION_DOMAIN, [threadKey, ...sorted]);
}

export type ThreadScoreIdParts = { threadKey: string; scorerId: string; scorerVersion?: string | undefined; versionId: string };

/** The scoreId of a thread score: one per (thread, scorer, scorer version, thread version). */
export function threadScoreIdFor(parts: ThreadScoreIdParts): string {
  return deterministicId(SCORE_DOMAIN, [parts.threadKey, parts.scorerId, parts.scorerVersion, parts.versionId]);
}

export type ThreadScoreViewParts = Omit<ThreadScoreIdParts, 'versionId'>;

/**
 * The key of the compacted latest-score view: one entry per (thread, scorer, scorer version), so a
 * compacted topic keeps each thread's latest score per scorer while the results topic keeps every
 * version. Partitioned by the thread key, so one thread's entries share a partition.
 */
export function threadScoreViewKeyFor(parts: ThreadScoreViewParts): { key: string; partitionKey: string } {
  return { key: deterministicId(VIEW_DOMAIN, [parts.threadKey, parts.scorerId, parts.scorerVersion]), partitionKey: parts.threadKey };
}
