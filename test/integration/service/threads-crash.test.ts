// Thread state through a crash (docs/threads.md, guarantees): the service is SIGKILLed while its
// threads are open — some turns applied and in the changelog, some not yet — and restarted. The
// restarted instance restores the committed turns from the changelog and reads the others again,
// so every thread is scored with all its turns, under the same score ids as a run of the same
// traffic that was never interrupted (a version's id is derived from the set of its turns).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { threadTopicsFor } from '../../../src/engine/topology/thread-topics.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { threadBindings } from '../../fixtures/thread-bindings.ts';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { readAll } from '../../helpers/read-all.ts';
import { committedTotal, produceRaw, startTestService } from '../../helpers/service.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';
import { changelogTurnRunIds, isThreadScore, threadEnded, threadScores, turn, useThreadServiceTopics } from './thread-helpers.ts';
import type { ThreadScore } from './thread-helpers.ts';

const threadsConfig = fileURLToPath(new URL('../../fixtures/threads.config.ts', import.meta.url));
const threads = Array.from({ length: 10 }, (_, index) => `k-${index}`);
const turns = threads.flatMap((thread) => [turn(thread, 1), turn(thread, 2), turn(thread, 3)]);
const runIds = turns.map((message) => message.key!);
const threadScorerIds = ['run-score-mean', 'turn-count'];
/** No thread closes by the clock during the test: each is closed by its explicit end, once all its turns are held. */
const idleMs = 120_000;

/** thread id → scorer → the one scoreId it was scored under (a thread scored under two ids fails the test). */
function scoreIdsOf(scores: readonly ThreadScore[]): Map<string, string> {
  const ids = new Map<string, Set<string>>();
  for (const score of scores) ids.set(`${score.thread.id}/${score.scorerId}`, (ids.get(`${score.thread.id}/${score.scorerId}`) ?? new Set()).add(score.scoreId));
  return new Map([...ids].map(([pair, set]) => [pair, [...set].join(' and ')]));
}

const everyPair = (scores: readonly ThreadScore[]) => scoreIdsOf(scores).size === threads.length * threadScorerIds.length;

describe('thread state through a SIGKILL', () => {
  for (const delivery of ['at-least-once', 'exactly-once'] as const) {
    it(`loses no thread and no turn, and scores under the ids of an uninterrupted run (${delivery})`, async () => {
      const isolation = delivery === 'exactly-once' ? 'read_committed' : 'read_uncommitted';
      const [reference, crashed] = await Promise.all([useThreadServiceTopics(3), useThreadServiceTopics(3)]);
      // The uninterrupted run: the same turns, the same bindings, in process.
      await produceRaw(reference.runs, turns);
      await startTestService({ topics: reference, delivery, scorers: threadBindings(idleMs) });

      // The first turns, then — once some were applied and committed — the others, killed while they flow.
      const firstTurns = turns.filter((_, index) => index % 3 === 0);
      await produceRaw(crashed.runs, firstTurns);
      const groupId = uniqueGroupId('threads-crash');
      const environment = { SCORESTREAM_DELIVERY: delivery, FIXTURE_THREAD_IDLE_MS: String(idleMs) };
      const first = spawnService({ topics: crashed, groupId, config: threadsConfig, env: environment });
      await waitForLog(first, /scorestream is consuming/);
      const { byThread } = threadTopicsFor(crashed.runs);
      await expect.poll(() => committedTotal(groupId, byThread).catch(() => 0), { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
      await produceRaw(crashed.runs, turns.filter((_, index) => index % 3 !== 0));
      await new Promise((resolve) => setTimeout(resolve, 150));
      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      const committedAtKill = await committedTotal(groupId, byThread);
      // The threads were open: none was scored before the kill.
      expect((await readAll<ScoreRecord>(crashed.results, { isolation: 'read_uncommitted' })).filter(isThreadScore)).toEqual([]);

      const second = spawnService({ topics: crashed, groupId, config: threadsConfig, env: environment });
      // Every turn held again — restored from the changelog or read again — before the ends close the threads.
      for (const topics of [reference, crashed]) {
        await expect.poll(async () => (await changelogTurnRunIds(threadTopicsFor(topics.runs).state, isolation).catch(() => new Set())).size, { timeout: 90_000, interval: 500 }).toBe(runIds.length);
        await produceRaw(topics.runs, threads.map((thread) => threadEnded(thread, { reason: 'user_closed_chat' })));
      }
      const expected = await threadScores(reference.results, everyPair);
      await threadScores(crashed.results, everyPair, 60_000);
      second.child.kill('SIGTERM');
      expect((await second.exited).code).toBe(0);

      const scored = (await readAll<ScoreRecord>(crashed.results, { isolation })).filter(isThreadScore);
      console.info(`threads through a SIGKILL (${delivery}): ${committedAtKill} of ${runIds.length} turns committed at the kill; ${scored.length} thread score records for ${threads.length * threadScorerIds.length} (thread, scorer) pairs`);
      // The same (thread, scorer) pairs under the same score ids as the uninterrupted run, one id each.
      expect(scoreIdsOf(scored)).toEqual(scoreIdsOf(expected));
      for (const score of scored) {
        expect(score).toMatchObject({ status: 'scored', thread: { version: 1, turns: 3, firstRunId: `${score.thread.id}-run-1`, lastRunId: `${score.thread.id}-run-3`, closedBy: 'ended' } });
        if (score.scorerId === 'turn-count') expect((score as { score: number }).score).toBe(3);
      }
      // Exactly-once: each thread version's score once for read_committed readers.
      if (delivery === 'exactly-once') expect(scored).toHaveLength(threads.length * threadScorerIds.length);
    });
  }
});
