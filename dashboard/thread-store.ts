// What the threads view shows (docs/threads.md, docs/dashboard.md): thread scorers' records grouped
// by thread, each thread with its versions — the append-only history a resumed conversation
// builds (version 1, then 2 superseding it, …) — and each version with every thread scorer's
// outcome; and the thread scorers' decisions about it (a re-score refused, a thread not sampled,
// one closed because the state was full), which say why a thread has no score. Fed the score and
// decision records that carry a `thread` block — from the results and decisions topics, and each
// thread's latest score per scorer from the latest-score view (kafka-reader.ts); a run's records
// never come here.
// Bounded: the `maxThreads` most recently active threads (by their latest record's time, whatever
// order the records arrive in: the view is read from its beginning beside the results' look-back,
// so an old thread may come after a recent one; the least recently active goes first), the
// `maxVersions` newest versions of each (older ones are counted, not kept) and as many of its most
// recent decisions. Pure.
import type { DecisionRecord } from '../src/kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../src/kit/contracts/score-record.ts';
import type { ThreadCloseReason } from '../src/kit/contracts/thread-ref.ts';
import { DeadlineHeap } from '../src/engine/threads/deadline-heap.ts';
import { seriesOf, skipSeriesOf } from './aggregates.ts';

export type ThreadScoreSummary = {
  scoreId: string;
  scorer: string;
  /** The binding's version; '' without one. */
  version: string;
  status: ScoreRecord['status'];
  score?: number;
  verdict?: 'pass' | 'fail';
  /** Epoch ms of scoredAt. */
  at: number;
};

export type ThreadVersionSummary = {
  version: number;
  versionId: string;
  scope: 'conversation' | 'segment';
  turns: number;
  firstRunId: string;
  lastRunId: string;
  closedBy: ThreadCloseReason;
  supersedes?: string;
  /** Its turns' run ids in order (the last 100 of a longer thread), when the record names them. */
  runIds?: string[];
  /** Epoch ms of the latest of its scores. */
  at: number;
  /** One per thread scorer (binding) that scored this version, in scorer order. */
  scores: ThreadScoreSummary[];
};

/** A thread scorer's decision about the thread: why a close gave no score. */
export type ThreadDecisionSummary = {
  scorer: string;
  version: string;
  reason: DecisionRecord['reason'];
  detail?: string;
  turns: number;
  closedBy: ThreadCloseReason;
  /** Epoch ms of decidedAt. */
  at: number;
};

export type ThreadSummary = {
  /** Tenant + thread id: what identifies the thread. */
  key: string;
  id: string;
  agent: string;
  tenant: string;
  /** Epoch ms of its latest score. */
  at: number;
  /** Newest first, at most `maxVersions`. */
  versions: ThreadVersionSummary[];
  /** Versions older than those kept. */
  olderVersions: number;
  /** Its thread scorers' decisions, newest first, at most `maxVersions`. */
  decisions: ThreadDecisionSummary[];
};

export type ThreadStoreLimits = { maxThreads: number; maxVersions: number };

export class ThreadStore {
  private readonly threads = new Map<string, ThreadSummary>();
  /** (latest activity, key) of the kept threads, least recent on top; an entry whose thread moved on or left is stale and skipped. */
  private readonly byActivity = new DeadlineHeap();
  readonly limits: ThreadStoreLimits;

  constructor(limits: ThreadStoreLimits) {
    if (!(limits.maxThreads >= 1) || !(limits.maxVersions >= 1)) throw new RangeError('thread store: maxThreads and maxVersions must be at least 1');
    this.limits = limits;
  }

  /** Whether the thread of `record` is kept with this record among its scores (a record seen again). */
  holds(record: ScoreRecord): boolean {
    const ref = record.thread;
    if (ref === undefined || !('version' in ref)) return false;
    return this.threads.get(ref.key)?.versions.some((version) => version.versionId === ref.versionId && version.scores.some((score) => score.scoreId === record.scoreId)) === true;
  }

  /**
   * Adds a thread scorer's record to its thread and version (a record seen again replaces itself);
   * returns the thread as it now is, or undefined for a record without a thread block or whose
   * thread is not kept (less recently active than every kept thread, once they are `maxThreads`).
   */
  add(record: ScoreRecord): ThreadSummary | undefined {
    const ref = record.thread;
    if (ref === undefined || !('version' in ref)) return undefined;
    const at = Date.parse(record.scoredAt);
    const names = seriesOf(record);
    const existing = this.threads.get(ref.key);
    const before = existing?.at;
    const thread: ThreadSummary = existing ?? { key: ref.key, id: ref.id, agent: names.agent, tenant: names.tenant, at, versions: [], olderVersions: 0, decisions: [] };
    let version = thread.versions.find((kept) => kept.versionId === ref.versionId);
    if (version === undefined) {
      // A version older than every kept one, once the thread is full, is only counted.
      const oldest = thread.versions[thread.versions.length - 1];
      if (thread.versions.length >= this.limits.maxVersions && oldest !== undefined && ref.version < oldest.version) {
        thread.olderVersions += 1;
        thread.at = Math.max(thread.at, at);
        return this.touch(thread, before);
      }
      version = { version: ref.version, versionId: ref.versionId, scope: ref.scope, turns: ref.turns, firstRunId: ref.firstRunId, lastRunId: ref.lastRunId, closedBy: ref.closedBy, ...(ref.supersedes === undefined ? {} : { supersedes: ref.supersedes }), ...(ref.runIds === undefined ? {} : { runIds: ref.runIds }), at, scores: [] };
      thread.versions.push(version);
      thread.versions.sort((a, b) => b.version - a.version || b.at - a.at);
      while (thread.versions.length > this.limits.maxVersions) {
        thread.versions.pop();
        thread.olderVersions += 1;
      }
    }
    const score: ThreadScoreSummary = {
      scoreId: record.scoreId,
      scorer: names.scorer,
      version: names.version,
      status: record.status,
      ...(record.status === 'scored' ? { score: record.score, ...(record.verdict === undefined ? {} : { verdict: record.verdict }) } : {}),
      at,
    };
    version.scores = [...version.scores.filter((kept) => kept.scoreId !== score.scoreId), score].sort((a, b) => a.scorer.localeCompare(b.scorer) || a.version.localeCompare(b.version));
    version.at = Math.max(version.at, at);
    thread.at = Math.max(thread.at, at);
    return this.touch(thread, before);
  }

  /** Adds a thread scorer's decision to its thread; returns the thread as it now is, or undefined for a decision without a thread block or whose thread is not kept. */
  addDecision(decision: DecisionRecord): ThreadSummary | undefined {
    const ref = decision.thread;
    if (ref === undefined) return undefined;
    const at = Date.parse(decision.decidedAt);
    const existing = this.threads.get(ref.key);
    const before = existing?.at;
    const thread: ThreadSummary = existing ?? { key: ref.key, id: ref.id, ...skipSeriesOf(decision), at, versions: [], olderVersions: 0, decisions: [] };
    const summary: ThreadDecisionSummary = { scorer: decision.scorerId, version: decision.scorerVersion ?? '', reason: decision.reason, ...(decision.detail === undefined ? {} : { detail: decision.detail }), turns: ref.turns, closedBy: ref.closedBy, at };
    thread.decisions = [summary, ...thread.decisions].sort((a, b) => b.at - a.at).slice(0, this.limits.maxVersions);
    thread.at = Math.max(thread.at, at);
    return this.touch(thread, before);
  }

  /** Keeps the thread (`before`: its activity time before this record, undefined for a new one), then the least recently active leave while there are too many. */
  private touch(thread: ThreadSummary, before: number | undefined): ThreadSummary | undefined {
    this.threads.set(thread.key, thread);
    if (thread.at !== before) this.byActivity.push({ at: thread.at, key: thread.key, stamp: 0 });
    const isLive = (entry: { at: number; key: string }) => this.threads.get(entry.key)?.at === entry.at;
    while (this.threads.size > this.limits.maxThreads) {
      const oldest = this.byActivity.pop();
      if (oldest === undefined) break;
      if (isLive(oldest)) this.threads.delete(oldest.key);
    }
    // Stale entries (a thread scored again, or gone) are dropped before they outnumber the live ones.
    if (this.byActivity.size > 2 * this.limits.maxThreads + 64) this.byActivity.compact(isLive);
    return this.threads.has(thread.key) ? structuredClone(thread) : undefined;
  }

  /** Every kept thread active at or after `sinceMs` (default: every kept thread), most recently active first. */
  view(sinceMs = Number.NEGATIVE_INFINITY): ThreadSummary[] {
    return [...this.threads.values()].filter((thread) => thread.at >= sinceMs).sort((a, b) => b.at - a.at).map((thread) => structuredClone(thread));
  }

  get size(): number {
    return this.threads.size;
  }
}
