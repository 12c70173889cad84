// The threads view's pure module (a plain browser ES module): the page's threads bounded by key,
// which threads the filters show, the table's scorer columns and what a version's line says.
import { describe, expect, it } from 'vitest';
import { ThreadStore } from '../../../dashboard/thread-store.ts';
import type { ThreadSummary, ThreadVersionSummary } from '../../../dashboard/thread-store.ts';
import { threadDecisionRecord, threadScoreRecord } from '../../helpers/dashboard-records.ts';

type ThreadViewModule = {
  addThread(threads: Map<string, ThreadSummary>, thread: ThreadSummary, limit: number): void;
  threadsShown(threads: Map<string, ThreadSummary>, filters: Record<string, unknown>, window: { start: number; end: number }): ThreadSummary[];
  threadScorers(threads: ThreadSummary[]): string[];
  scoreText(version: ThreadVersionSummary, scorer: string): string;
  latestOutcomeText(thread: ThreadSummary, scorer: string): string;
  threadsWithId(threads: Map<string, ThreadSummary>, id: string): ThreadSummary[];
  versionLine(version: ThreadVersionSummary): string;
};
const view = (await import(new URL('../../../dashboard/public/thread-view.js', import.meta.url).href)) as ThreadViewModule;

function threads(): Map<string, ThreadSummary> {
  const store = new ThreadStore({ maxThreads: 10, maxVersions: 10 });
  store.add(threadScoreRecord({ status: 'scored', score: 2 }, { threadId: 'a', tenant: 'acme', version: 1, turns: 2, at: 1_000 }));
  store.add(threadScoreRecord({ status: 'scored', score: 0.25, verdict: 'fail' }, { threadId: 'b', tenant: 'beta', version: 1, turns: 1, scorerId: 'resolution', at: 2_000, agent: 'sales-agent' }));
  store.add(threadScoreRecord({ status: 'not_scorable' }, { threadId: 'c', tenant: 'acme', version: 2, turns: 4, at: 3_000, supersedes: 'acme:c-v1-long-id', closedBy: 'max_turns' }));
  const map = new Map<string, ThreadSummary>();
  for (const thread of store.view(0).reverse()) view.addThread(map, thread, 10);
  return map;
}

const all = { start: 0, end: Infinity };

describe('thread-view.js', () => {
  it('shows threads most recently scored first, narrowed by agent, tenant, scorer and time', () => {
    const map = threads();
    expect(view.threadsShown(map, {}, all).map((thread) => thread.id)).toEqual(['c', 'b', 'a']);
    expect(view.threadsShown(map, { tenant: 'acme' }, all).map((thread) => thread.id)).toEqual(['c', 'a']);
    expect(view.threadsShown(map, { agent: 'sales-agent' }, all).map((thread) => thread.id)).toEqual(['b']);
    expect(view.threadsShown(map, { scorer: 'resolution' }, all).map((thread) => thread.id)).toEqual(['b']);
    expect(view.threadsShown(map, { from: 1_500, to: 2_500 }, { start: 1_500, end: 2_500 }).map((thread) => thread.id)).toEqual(['b']);
    expect(view.threadsShown(map, { range: '1h' }, { start: 1_500, end: Infinity }).map((thread) => thread.id)).toEqual(['c', 'b']);
    expect(view.threadScorers(view.threadsShown(map, {}, all))).toEqual(['resolution', 'turn-count']);
  });

  it('lists, with no time range chosen, every kept thread: those last scored before the look-back (the latest-score view) too', () => {
    const map = threads();
    // The look-back starts at 2,500: thread a (1,000) and b (2,000) were last scored before it.
    expect(view.threadsShown(map, {}, { start: 2_500, end: Infinity }).map((thread) => thread.id)).toEqual(['c', 'b', 'a']);
  });

  it('keeps at most the limit, the least recently scored leaving first, and replaces a thread updated', () => {
    const map = threads();
    const updated = { ...map.get('acme:a')!, at: 9_000 };
    view.addThread(map, updated, 2);
    expect([...map.keys()].sort()).toEqual(['acme:a', 'acme:c']);
    expect(map.get('acme:a')!.at).toBe(9_000);
  });

  it('keeps the most recently scored by their time, not by arrival (the view brings old threads after recent ones)', () => {
    const map = threads();
    const old = { ...map.get('acme:a')!, key: 'acme:old', id: 'old', at: 10 };
    view.addThread(map, old, 3);
    expect([...map.keys()].sort()).toEqual(['acme:a', 'acme:c', 'beta:b']);
  });

  it('says what a version holds, why it closed and what it supersedes, and each score or its status', () => {
    const map = threads();
    const version = map.get('acme:c')!.versions[0]!;
    expect(view.versionLine(version)).toBe('version 2: the whole conversation, 4 turns (c-run-1 → c-run-4), closed by max turns, supersedes acme:c-v');
    expect(view.scoreText(version, 'turn-count')).toBe('not scorable');
    expect(view.scoreText(map.get('beta:b')!.versions[0]!, 'resolution')).toBe('0.25 fail');
    expect(view.scoreText(version, 'resolution')).toBe('');
  });

  it("says what each scorer said last — a later decision's reason over an earlier score — and finds a thread id in every tenant", () => {
    const store = new ThreadStore({ maxThreads: 10, maxVersions: 10 });
    store.add(threadScoreRecord({ status: 'scored', score: 2 }, { threadId: '42', tenant: 'acme', version: 1, turns: 2, at: 1_000 }));
    store.addDecision(threadDecisionRecord({ threadId: '42', tenant: 'acme', turns: 4, reason: 'rescore_refused', at: 2_000 }));
    store.addDecision(threadDecisionRecord({ threadId: '42', tenant: 'beta', turns: 1, reason: 'sampling', at: 500, scorerId: 'resolution' }));
    const map = new Map(store.view(0).map((thread) => [thread.key, thread]));
    expect(view.latestOutcomeText(map.get('acme:42')!, 'turn-count')).toBe('no score: rescore refused');
    expect(view.latestOutcomeText(map.get('beta:42')!, 'resolution')).toBe('no score: sampling');
    expect(view.latestOutcomeText(map.get('beta:42')!, 'turn-count')).toBe('');
    expect(view.threadScorers([...map.values()])).toEqual(['resolution', 'turn-count']);
    expect(view.threadsWithId(map, '42').map((thread) => thread.key).sort()).toEqual(['acme:42', 'beta:42']);
    expect(view.threadsWithId(map, '4')).toEqual([]);
  });
});
