// Closing threads other than by their idle gap, through a real broker (docs/threads.md, when a
// thread is scored; bounds): an explicit end — an `agent.thread.ended` event on the runs topic, or
// a run marked as the last — closes a thread at once; a thread over `maxTurns`, and a partition's
// state over `maxThreads` or `maxStateBytes`, close with a score or a decision record, never by
// dropping turns.
import { describe, expect, it } from 'vitest';
import type { DecisionRecord } from '../../../src/kit/contracts/decision-record.ts';
import type { RunningService } from '../../../service/start-service.ts';
import { threadBindings } from '../../fixtures/thread-bindings.ts';
import { produceRaw, readUntil, startTestService } from '../../helpers/service.ts';
import type { RawRun } from '../../helpers/service.ts';
import { threadEnded, threadScores, turn, useThreadServiceTopics } from './thread-helpers.ts';
import type { ThreadScore } from './thread-helpers.ts';

const heldTurns = (service: RunningService) => [...service.stats.threads.byPartition.values()].reduce((sum, read) => sum + read().heldTurns, 0);
const heldThreads = (service: RunningService) => [...service.stats.threads.byPartition.values()].reduce((sum, read) => sum + read().threads, 0);

/** Produces `messages`, then waits until the service holds `turns` turns (they were applied to the state). */
async function produceAndHold(service: RunningService, runs: string, messages: RawRun[], turns: number): Promise<void> {
  await produceRaw(runs, messages);
  await expect.poll(() => heldTurns(service), { timeout: 30_000 }).toBe(turns);
}

const turnCounts = (scores: ThreadScore[]) => new Map(scores.filter((score) => score.scorerId === 'turn-count').map((score) => [score.thread.id, score]));

describe('an explicit end closes a thread at once', () => {
  it('by an agent.thread.ended event, by a run marked as the last, and by an end that overtook the turns it names', async () => {
    const topics = await useThreadServiceTopics(2);
    // The idle gap is far beyond the test: only an end can close these threads in time.
    const service = await startTestService({ topics, scorers: threadBindings(600_000) });

    await produceAndHold(service, topics.runs, [turn('e-event', 1)], 1);
    await produceAndHold(service, topics.runs, [turn('e-event', 2)], 2);
    await produceRaw(topics.runs, [threadEnded('e-event', { reason: 'user_closed_chat' })]);

    await produceAndHold(service, topics.runs, [turn('e-last', 1)], 3);
    await produceRaw(topics.runs, [turn('e-last', 2, { metadata: { threadEnded: true } })]);

    // The end comes first, naming the conversation's last run: the thread waits for it.
    await produceRaw(topics.runs, [threadEnded('e-early', { lastRunId: 'e-early-run-2' })]);
    await expect.poll(() => heldThreads(service), { timeout: 30_000 }).toBe(3);
    await produceAndHold(service, topics.runs, [turn('e-early', 1)], 5);
    await produceRaw(topics.runs, [turn('e-early', 2)]);

    const scores = await threadScores(topics.results, (found) => found.length >= 6, 30_000);
    const counts = turnCounts(scores);
    for (const thread of ['e-event', 'e-last', 'e-early']) {
      expect(counts.get(thread)).toMatchObject({ status: 'scored', score: 2, thread: { version: 1, turns: 2, firstRunId: `${thread}-run-1`, lastRunId: `${thread}-run-2`, closedBy: 'ended' } });
    }
    expect(scores.every((score) => score.thread.closedBy === 'ended')).toBe(true);
    expect(service.stats.threads.closesByReason.get('ended')).toBe(6);
  });
});

describe('bounds under the service: decided, never dropped', () => {
  it('a thread over maxTurns: a version of maxTurns turns at once, and a rescore_refused decision for the turns beyond', async () => {
    const topics = await useThreadServiceTopics(2);
    const service = await startTestService({ topics, scorers: threadBindings(1_500, { maxTurns: 3 }) });
    await produceRaw(topics.runs, [1, 2, 3, 4, 5].map((index) => turn('m-t', index)));

    const [version] = await threadScores(topics.results, (found) => found.length >= 2, 30_000).then((scores) => scores.filter((score) => score.scorerId === 'turn-count'));
    expect(version).toMatchObject({ status: 'scored', score: 3, thread: { version: 1, turns: 3, closedBy: 'max_turns' } });
    const decisions = await readUntil<DecisionRecord>(topics.decisions, (found) => found.filter((record) => record.thread !== undefined).length >= 2, 30_000);
    const refused = decisions.filter((record) => record.thread !== undefined);
    expect(refused.map((record) => record.scorerId).sort()).toEqual(['run-score-mean', 'turn-count']);
    for (const record of refused) {
      expect(record).toMatchObject({ decision: 'skipped', reason: 'rescore_refused', thread: { id: 'm-t', turns: 2, closedBy: 'idle' } });
      expect(record.detail).toContain('maxTurns 3');
    }
    // Every turn is in a version or in the decision.
    expect(version!.thread.turns + refused[0]!.thread!.turns).toBe(5);
    expect(service.stats.threads.closesByReason.get('max_turns')).toBe(2);
  });

  it('a new thread beyond maxThreads closes the least recently active one (overflow); every thread is scored', async () => {
    const topics = await useThreadServiceTopics(1);
    const service = await startTestService({ topics, scorers: threadBindings(2_000), threads: { maxThreads: 2 } });
    await produceAndHold(service, topics.runs, [turn('o-1', 1)], 1);
    await produceAndHold(service, topics.runs, [turn('o-2', 1)], 2);
    await produceAndHold(service, topics.runs, [turn('o-1', 2)], 3);
    // o-2 is now the least recently active: the third thread makes it close and go.
    await produceRaw(topics.runs, [turn('o-3', 1)]);

    const counts = turnCounts(await threadScores(topics.results, (found) => found.length >= 6, 30_000));
    expect(counts.get('o-2')).toMatchObject({ status: 'scored', score: 1, thread: { turns: 1, closedBy: 'overflow' } });
    expect(counts.get('o-1')).toMatchObject({ status: 'scored', score: 2, thread: { turns: 2, closedBy: 'idle' } });
    expect(counts.get('o-3')).toMatchObject({ status: 'scored', score: 1, thread: { turns: 1, closedBy: 'idle' } });
    expect(service.stats.threads.closesByReason.get('overflow')).toBe(2);
    expect(heldThreads(service)).toBe(2);
  });

  it('state over maxStateBytes closes the least recently active threads (overflow) until the held turns fit', async () => {
    const topics = await useThreadServiceTopics(1);
    // A turn of these conversations is about 1.3 kB: one thread of two turns fits, two do not.
    const threads = { maxStateBytes: 5_000, maxThreadBytes: 5_000, maxTurnBytes: 4_000 };
    const service = await startTestService({ topics, scorers: threadBindings(2_000), threads });
    await produceAndHold(service, topics.runs, [turn('b-1', 1)], 1);
    await produceAndHold(service, topics.runs, [turn('b-1', 2)], 2);
    await produceAndHold(service, topics.runs, [turn('b-2', 1)], 3);
    await produceRaw(topics.runs, [turn('b-2', 2)]);

    const counts = turnCounts(await threadScores(topics.results, (found) => found.length >= 4, 30_000));
    expect(counts.get('b-1')).toMatchObject({ status: 'scored', score: 2, thread: { turns: 2, closedBy: 'overflow' } });
    expect(counts.get('b-2')).toMatchObject({ status: 'scored', score: 2, thread: { turns: 2, closedBy: 'idle' } });
    const [stats] = [...service.stats.threads.byPartition.values()].map((read) => read());
    expect(stats!.bytes).toBeLessThanOrEqual(threads.maxStateBytes);
  });
});
