// The threads view's store: thread scorers' records grouped by thread and version, newest version
// first, every scorer of a version beside the others, and both bounds (threads, versions a thread).
import { describe, expect, it } from 'vitest';
import { DashboardState, DEFAULT_LIMITS } from '../../../dashboard/dashboard-state.ts';
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
});
