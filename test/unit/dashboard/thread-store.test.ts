// The threads view's store: thread scorers' records grouped by thread and version, newest version
// first, every scorer of a version beside the others, and both bounds (threads, versions a thread).
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../dashboard/dashboard-limits.ts';
import { DashboardState } from '../../../dashboard/dashboard-state.ts';
import { ThreadStore } from '../../../dashboard/thread-store.ts';
import { decisionRecord, scoreRecord, threadDecisionRecord, threadScoreRecord } from '../../helpers/dashboard-records.ts';

describe('ThreadStore', () => {
  it('groups a thread\'s versions newest first, each with every thread scorer\'s outcome, and keeps what a version supersedes', () => {
    const store = new ThreadStore({ maxThreads: 10, maxVersions: 10 });
    store.add(threadScoreRecord({ status: 'scored', score: 2 }, { threadId: 't-1', tenant: 'acme', version: 1, turns: 2, at: 1_000 }));
    store.add(threadScoreRecord({ status: 'scored', score: 0.5, verdict: 'fail' }, { threadId: 't-1', tenant: 'acme', version: 1, turns: 2, scorerId: 'resolution', at: 1_100 }));
    const latest = store.add(threadScoreRecord({ status: 'scored', score: 3 }, { threadId: 't-1', tenant: 'acme', version: 2, turns: 3, at: 5_000, supersedes: 'acme:t-1-v1' }));
    expect(latest).toMatchObject({ key: 'acme:t-1', id: 't-1', tenant: 'acme', agent: 'support-agent', at: 5_000, olderVersions: 0 });
    expect(latest!.versions.map((version) => [version.version, version.turns, version.supersedes])).toEqual([[2, 3, 'acme:t-1-v1'], [1, 2, undefined]]);
    expect(latest!.versions[1]!.scores.map((score) => [score.scorer, score.score, score.verdict])).toEqual([['resolution', 0.5, 'fail'], ['turn-count', 2, undefined]]);
  });

  it('ignores a run scorer\'s record, and a record seen again replaces itself', () => {
    const store = new ThreadStore({ maxThreads: 10, maxVersions: 10 });
    expect(store.add(scoreRecord({ status: 'scored', score: 1 }))).toBeUndefined();
    const record = threadScoreRecord({ status: 'scored', score: 2 }, { threadId: 't-1', version: 1, turns: 2 });
    store.add(record);
    expect(store.add(record)!.versions[0]!.scores).toHaveLength(1);
    expect(store.size).toBe(1);
  });

  it('keeps two tenants\' thread 42 apart', () => {
    const store = new ThreadStore({ maxThreads: 10, maxVersions: 10 });
    store.add(threadScoreRecord({ status: 'scored', score: 1 }, { threadId: '42', tenant: 'acme', version: 1, turns: 1 }));
    store.add(threadScoreRecord({ status: 'scored', score: 1 }, { threadId: '42', tenant: 'beta', version: 1, turns: 1 }));
    expect(store.view(0).map((thread) => thread.key).sort()).toEqual(['acme:42', 'beta:42']);
  });

  it('keeps the most recently scored threads and the newest versions, counting the older ones', () => {
    const store = new ThreadStore({ maxThreads: 2, maxVersions: 2 });
    for (const [index, id] of ['a', 'b', 'c'].entries()) store.add(threadScoreRecord({ status: 'scored', score: 1 }, { threadId: id, version: 1, turns: 1, at: 1_000 + index }));
    expect(store.view(0).map((thread) => thread.id)).toEqual(['c', 'b']);
    for (const version of [1, 2, 3]) store.add(threadScoreRecord({ status: 'scored', score: version }, { threadId: 'c', version, turns: version, at: 2_000 + version }));
    // A version older than every kept one arrives late: counted, not kept.
    const late = store.add(threadScoreRecord({ status: 'scored', score: 9 }, { threadId: 'c', version: 1, turns: 1, scorerId: 'late', at: 3_000 }));
    expect(late!.versions.map((version) => version.version)).toEqual([3, 2]);
    expect(late!.olderVersions).toBe(2);
    expect(store.view(2_500).map((thread) => thread.id)).toEqual(['c']);
  });
});

describe('ThreadStore bounds, whatever order the records arrive in', () => {
  it('keeps the most recently scored threads by their time: an older thread arriving later is not kept', () => {
    const store = new ThreadStore({ maxThreads: 2, maxVersions: 2 });
    store.add(threadScoreRecord({ status: 'scored', score: 1 }, { threadId: 'c', version: 1, turns: 1, at: 3_000 }));
    store.add(threadScoreRecord({ status: 'scored', score: 1 }, { threadId: 'b', version: 1, turns: 1, at: 2_000 }));
    // The latest-score view is read from its beginning beside the results' look-back: an old thread can come last.
    expect(store.add(threadScoreRecord({ status: 'scored', score: 1 }, { threadId: 'a', version: 1, turns: 1, at: 1_000 }))).toBeUndefined();
    expect(store.view().map((thread) => thread.id)).toEqual(['c', 'b']);
    expect(store.add(threadScoreRecord({ status: 'scored', score: 1 }, { threadId: 'd', version: 1, turns: 1, at: 4_000 }))?.id).toBe('d');
    expect(store.view().map((thread) => thread.id)).toEqual(['d', 'c']);
    // A kept thread scored again moves up: the other one leaves next.
    store.add(threadScoreRecord({ status: 'scored', score: 2 }, { threadId: 'c', version: 2, turns: 2, at: 5_000 }));
    store.add(threadScoreRecord({ status: 'scored', score: 1 }, { threadId: 'e', version: 1, turns: 1, at: 4_500 }));
    expect(store.view().map((thread) => thread.id)).toEqual(['c', 'e']);
  });

  it('stays within maxThreads over many threads and updates, and says which records it holds', () => {
    const store = new ThreadStore({ maxThreads: 50, maxVersions: 4 });
    for (let index = 0; index < 5_000; index += 1) {
      const id = `t-${index % 700}`;
      store.add(threadScoreRecord({ status: 'scored', score: 1 }, { threadId: id, version: 1 + Math.floor(index / 700), turns: 1, at: (index * 7_919) % 10_000 }));
      expect(store.size).toBeLessThanOrEqual(50);
    }
    const kept = store.view();
    expect(kept).toHaveLength(50);
    // The 50 kept are the 50 most recently scored of all threads.
    expect(Math.min(...kept.map((thread) => thread.at))).toBeGreaterThanOrEqual(9_900);
    const record = threadScoreRecord({ status: 'scored', score: 1 }, { threadId: 'fresh', version: 1, turns: 1, at: 20_000 });
    expect(store.holds(record)).toBe(false);
    store.add(record);
    expect(store.holds(record)).toBe(true);
  });
});

describe('ThreadStore decisions', () => {
  it("keeps a thread scorer's decisions with the thread, newest first and bounded, and lists a thread that has only decisions", () => {
    const store = new ThreadStore({ maxThreads: 10, maxVersions: 2 });
    expect(store.addDecision(decisionRecord({ runId: 'run-1' }))).toBeUndefined();
    const only = store.addDecision(threadDecisionRecord({ threadId: 't-9', tenant: 'acme', turns: 3, reason: 'sampling', at: 1_000 }));
    expect(only).toMatchObject({ key: 'acme:t-9', id: 't-9', agent: 'support-agent', tenant: 'acme', versions: [], decisions: [{ scorer: 'turn-count', reason: 'sampling', turns: 3, closedBy: 'idle', at: 1_000 }] });
    store.add(threadScoreRecord({ status: 'scored', score: 3 }, { threadId: 't-9', tenant: 'acme', version: 1, turns: 3, at: 2_000 }));
    store.addDecision(threadDecisionRecord({ threadId: 't-9', tenant: 'acme', turns: 5, reason: 'rescore_refused', at: 3_000, detail: 'maxRescores 0' }));
    const latest = store.addDecision(threadDecisionRecord({ threadId: 't-9', tenant: 'acme', turns: 6, reason: 'rescore_refused', at: 4_000 }));
    expect(latest!.decisions.map((decision) => [decision.reason, decision.turns])).toEqual([['rescore_refused', 6], ['rescore_refused', 5]]);
    expect(latest!.versions).toHaveLength(1);
    expect(latest!.at).toBe(4_000);
  });
});

describe('DashboardState and threads', () => {
  it('puts a thread scorer\'s record\'s thread in its record event and threads in the snapshot, most recently scored first', () => {
    const state = new DashboardState({ ...DEFAULT_LIMITS, windowMs: 3_600_000, bucketMs: 60_000 }, { now: () => 10_000 });
    const event = state.ingestScore(threadScoreRecord({ status: 'scored', score: 2 }, { threadId: 't-1', version: 1, turns: 2, at: 9_000 }), 100);
    expect(event?.type === 'record' && event.data.thread?.key).toBe(':t-1');
    const runEvent = state.ingestScore(scoreRecord({ status: 'scored', score: 1 }, { at: 9_100 }), 100);
    expect(runEvent?.type === 'record' && runEvent.data.thread).toBeUndefined();
    state.ingestScore(threadScoreRecord({ status: 'scored', score: 1 }, { threadId: 't-2', version: 1, turns: 1, at: 9_500 }), 100);
    expect(state.snapshot().threads.map((thread) => thread.id)).toEqual(['t-2', 't-1']);
    expect(state.counts().threads).toBe(2);
  });

  it('puts a latest-score view record in the threads view only, however old, with a thread event once', () => {
    const state = new DashboardState({ ...DEFAULT_LIMITS, windowMs: 3_600_000, bucketMs: 60_000 }, { now: () => 10 * 3_600_000 });
    // Scored two days before the look-back starts: only the view still holds it.
    const old = threadScoreRecord({ status: 'scored', score: 4 }, { threadId: 't-old', tenant: 'acme', version: 3, turns: 7, at: 3_600_000 });
    const event = state.ingestLatestScore(old);
    expect(event?.type).toBe('thread');
    expect(event?.type === 'thread' && event.data.thread).toMatchObject({ key: 'acme:t-old', versions: [{ version: 3, scores: [{ score: 4 }] }] });
    expect(state.ingestLatestScore(old)).toBeUndefined();
    expect(state.snapshot().threads.map((thread) => thread.id)).toEqual(['t-old']);
    expect(state.counts()).toMatchObject({ records: 0, duplicates: 0, latestScores: 2, threads: 1 });
    // A recent version arrives on the view and then on the results topic: counted once, as a record of the results.
    const recent = threadScoreRecord({ status: 'scored', score: 5 }, { threadId: 't-old', tenant: 'acme', version: 4, turns: 8, at: 10 * 3_600_000 - 1_000 });
    expect(state.ingestLatestScore(recent)?.type).toBe('thread');
    expect(state.ingestScore(recent, 100)?.type).toBe('record');
    expect(state.counts()).toMatchObject({ records: 1, duplicates: 0, latestScores: 3 });
    expect(state.snapshot().threads[0]!.versions.map((version) => version.version)).toEqual([4, 3]);
  });
});
