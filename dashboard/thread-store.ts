// What the threads view shows (docs/threads.md, docs/dashboard.md): thread scorers' records grouped
// by thread, each thread with its versions — the append-only history a resumed conversation
// builds (version 1, then 2 superseding it, …) — and each version with every thread scorer's
// outcome; and the thread scorers' decisions about it (a re-score refused, a thread not sampled,
// one closed because the state was full), which say why a thread has no score. Fed the score and
// decision records that carry a `thread` block; a run's records never come here.
// Bounded: the `maxThreads` most recently active threads (the least recently active goes first),
// the `maxVersions` newest versions of each (older ones are counted, not kept) and as many of its
// most recent decisions. Pure.
import type { DecisionRecord } from '../src/contracts/decision-record.ts';
import type { ScoreRecord } from '../src/contracts/score-record.ts';
import type { ThreadCloseReason } from '../src/contracts/thread-ref.ts';
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
  readonly limits: ThreadStoreLimits;

  constructor(limits: ThreadStoreLimits) {
    if (!(limits.maxThreads >= 1) || !(limits.maxVersions >= 1)) throw new RangeError('thread store: maxThreads and maxVersions must be at least 1');
    this.limits = limits;
  }

  /**
   * Adds a thread scorer's record to its thread and version (a record seen again replaces itself);
   * returns the thread as it now is, or undefined for a record without a thread block.
   */
  add(record: ScoreRecord): ThreadSummary | undefined {
    const ref = record.thread;
    if (ref === undefined || !('version' in ref)) return undefined;
    const at = Date.parse(record.scoredAt);
    const names = seriesOf(record);
    const existing = this.threads.get(ref.key);
    const thread: ThreadSummary = existing ?? { key: ref.key, id: ref.id, agent: names.agent, tenant: names.tenant, at, versions: [], olderVersions: 0, decisions: [] };
    let version = thread.versions.find((kept) => kept.versionId === ref.versionId);
    if (version === undefined) {
      // A version older than every kept one, once the thread is full, is only counted.
      const oldest = thread.versions[thread.versions.length - 1];
      if (thread.versions.length >= this.limits.maxVersions && oldest !== undefined && ref.version < oldest.version) {
        thread.olderVersions += 1;
        thread.at = Math.max(thread.at, at);
        return this.touch(thread, existing === undefined);
      }
      version = { version: ref.version, versionId: ref.versionId, scope: ref.scope, turns: ref.turns, firstRunId: ref.firstRunId, lastRunId: ref.lastRunId, closedBy: ref.closedBy, ...(ref.supersedes === undefined ? {} : { supersedes: ref.supersedes }), at, scores: [] };
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
    return this.touch(thread, existing === undefined);
  }

  /** Adds a thread scorer's decision to its thread; returns the thread as it now is, or undefined for a decision without a thread block. */
  addDecision(decision: DecisionRecord): ThreadSummary | undefined {
    const ref = decision.thread;
    if (ref === undefined) return undefined;
    const at = Date.parse(decision.decidedAt);
    const existing = this.threads.get(ref.key);
    const thread: ThreadSummary = existing ?? { key: ref.key, id: ref.id, ...skipSeriesOf(decision), at, versions: [], olderVersions: 0, decisions: [] };
    const summary: ThreadDecisionSummary = { scorer: decision.scorerId, version: decision.scorerVersion ?? '', reason: decision.reason, ...(decision.detail === undefined ? {} : { detail: decision.detail }), turns: ref.turns, closedBy: ref.closedBy, at };
    thread.decisions = [summary, ...thread.decisions].sort((a, b) => b.at - a.at).slice(0, this.limits.maxVersions);
    thread.at = Math.max(thread.at, at);
    return this.touch(thread, existing === undefined);
  }

  /** The thread as most recently active: last in the map, the least recently active first out. */
  private touch(thread: ThreadSummary, added: boolean): ThreadSummary {
    this.threads.delete(thread.key);
    this.threads.set(thread.key, thread);
    if (added) while (this.threads.size > this.limits.maxThreads) this.threads.delete(this.threads.keys().next().value as string);
    return structuredClone(thread);
  }

  /** Every kept thread active at or after `sinceMs`, most recently active first. */
  view(sinceMs: number): ThreadSummary[] {
    return [...this.threads.values()].filter((thread) => thread.at >= sinceMs).sort((a, b) => b.at - a.at).map((thread) => structuredClone(thread));
  }

  get size(): number {
    return this.threads.size;
  }
}
