// Thread scorers through a real broker (docs/threads.md, the transport): runs with a thread are
// re-keyed to `{runs}-by-thread`, each by-thread partition's thread state lives in the consumer
// that claimed it, with its changelog on `{runs}-thread-state`, restored on the next claim.
import { describe, expect, it } from 'vitest';
import { threadTopicsFor } from '../../../src/engine/topology/thread-topics.ts';
import { parseScoreRecord } from '../../../src/kit/contracts/parse.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { threadBindings } from '../../fixtures/thread-bindings.ts';
import { readAll } from '../../helpers/read-all.ts';
import { traceFor } from '../../helpers/runs.ts';
import { committedTotal, produceRaw, startTestService } from '../../helpers/service.ts';
import type { ServiceTopics } from '../../helpers/service.ts';
import { readMessages, testKafka, uniqueGroupId } from '../../helpers/kafka.ts';
import { threadScoreViewKeyFor } from '../../../src/kit/contracts/thread-ids.ts';
import { committedOffsets } from './delivery-helpers.ts';
import { isThreadScore, threadScores as readThreadScores, turn, useThreadServiceTopics } from './thread-helpers.ts';
import type { ThreadScore } from './thread-helpers.ts';

async function cleanupPolicyOf(topic: string): Promise<string | undefined> {
  const admin = testKafka('scorestream-test-admin').admin();
  await admin.connect();
  try {
    const { resources } = await admin.describeConfigs({ resources: [{ type: 2, name: topic, configNames: ['cleanup.policy'] }], includeSynonyms: false });
    return resources[0]?.configEntries.find((entry) => entry.configName === 'cleanup.policy')?.configValue;
  } finally {
    await admin.disconnect();
  }
}

const threadScores = (topics: ServiceTopics, done: (scores: ThreadScore[]) => boolean) => readThreadScores(topics.results, done);

describe('thread scorers on Kafka-native session state', () => {
  it("scores a thread's turns as one thread, whichever runs partition each turn came in on, with the run scores they carried", async () => {
    const topics = await useThreadServiceTopics(3);
    // Keyed by run id: the turns of one thread land on different runs partitions.
    await produceRaw(topics.runs, [turn('t-a', 1), turn('t-b', 1), turn('t-a', 2), turn('t-a', 3), turn('t-b', 2)]);
    const service = await startTestService({ topics, scorers: threadBindings(1_500) });

    const scores = await threadScores(topics, (found) => found.length >= 4);
    for (const score of scores) expect(parseScoreRecord(score).success).toBe(true);
    const turnCounts = new Map(scores.filter((score) => score.scorerId === 'turn-count').map((score) => [score.thread.id, score]));
    expect(turnCounts.get('t-a')).toMatchObject({ status: 'scored', score: 3, thread: { key: 'acme:t-a', turns: 3, firstRunId: 't-a-run-1', lastRunId: 't-a-run-3', closedBy: 'idle', version: 1, scope: 'conversation' } });
    expect(turnCounts.get('t-b')).toMatchObject({ status: 'scored', score: 2, thread: { turns: 2, version: 1 } });
    // Where a thread score's time went: its last turn's way to the thread state, then the idle gap (1.5 s) until the close.
    for (const score of scores) {
      expect(Object.keys(score.latency!).sort(), score.scorerId).toEqual(['dispatchMs', 'kafkaMs', 'scoringMs', 'threadWaitMs']);
      expect(score.latency!.threadWaitMs).toBeGreaterThanOrEqual(1_500);
      expect(score.latency!.threadWaitMs).toBeLessThan(1_500 + 10_000);
    }
    // The thread score's trace is the last turn's: a child of its agent span.
    expect(turnCounts.get('t-a')!.trace).toMatchObject({ traceId: traceFor('t-a-run-3').traceId, parentSpanId: traceFor('t-a-run-3').spanId });
    // The mean of the turns' own answer-length scores: the run scores travelled with the turns.
    const runScores = (await readAll<ScoreRecord>(topics.results, { isolation: 'read_uncommitted' })).filter((record) => record.thread === undefined && record.runId.startsWith('t-a-'));
    expect(runScores).toHaveLength(3);
    const mean = scores.find((score) => score.scorerId === 'run-score-mean' && score.thread.id === 't-a')!;
    expect(mean.status).toBe('scored');
    expect((mean as { score: number }).score).toBeCloseTo(runScores.reduce((sum, record) => sum + (record.status === 'scored' ? record.score : 0), 0) / 3);

    const { byThread, state } = threadTopicsFor(topics.runs);
    expect((await readAll(byThread, { isolation: 'read_uncommitted' })).length).toBe(5);
    // The changelog: every turn written once, then the thread records; after the closes, tombstones for the released turns.
    const changelog = await readAll<unknown>(state, { isolation: 'read_uncommitted' }).catch(() => []);
    expect(changelog.length).toBeGreaterThan(0);
    expect(service.stats.threads.rekeyed).toBe(5);
    expect(service.stats.threads.closesByReason.get('idle')).toBe(4);
    expect(service.stats.threads.restores).toBeGreaterThanOrEqual(1);
  });

  it('re-scores a resumed thread with its whole history, keeping both scores (append-only)', async () => {
    const topics = await useThreadServiceTopics(2);
    await produceRaw(topics.runs, [turn('t-r', 1), turn('t-r', 2)]);
    await startTestService({ topics, scorers: threadBindings(1_000) });
    const first = await threadScores(topics, (found) => found.some((score) => score.scorerId === 'turn-count'));
    const v1 = first.find((score) => score.scorerId === 'turn-count')!;
    expect(v1).toMatchObject({ score: 2, thread: { version: 1, turns: 2 } });

    await produceRaw(topics.runs, [turn('t-r', 3)]);
    const both = (await threadScores(topics, (found) => found.filter((score) => score.scorerId === 'turn-count').length >= 2)).filter((score) => score.scorerId === 'turn-count');
    expect(both.map((score) => [score.thread.version, score.thread.turns, score.score])).toEqual([
      [1, 2, 2],
      [2, 3, 3],
    ]);
    expect(both[1]!.thread).toMatchObject({ scope: 'conversation', supersedes: v1.thread.versionId, firstRunId: 't-r-run-1', lastRunId: 't-r-run-3' });
    expect(both[1]!.scoreId).not.toBe(v1.scoreId);
    // On Kafka each version is keyed by its own scoreId (a compacted topic keeps both) and placed by the thread key (one partition).
    const written = await readAll(topics.results, { isolation: 'read_uncommitted' });
    const messages = await readMessages(topics.results, { count: written.length });
    const versions = messages.filter((message) => both.some((score) => score.scoreId === message.key?.toString()));
    expect(versions.map((message) => message.key?.toString()).sort()).toEqual(both.map((score) => score.scoreId).sort());
    expect(new Set(versions.map((message) => message.partition)).size).toBe(1);

    // The latest-score view: compacted, one key per (thread, scorer), each key's last record the latest version.
    const { latestScores } = threadTopicsFor(topics.runs);
    expect(await cleanupPolicyOf(latestScores)).toBe('compact');
    const viewMessages = await readMessages(latestScores, { count: 4 });
    const lastByKey = new Map(viewMessages.map((message) => [message.key!.toString(), JSON.parse(message.value!.toString()) as ThreadScore]));
    for (const scorerId of ['turn-count', 'run-score-mean']) {
      const latest = lastByKey.get(threadScoreViewKeyFor({ threadKey: 'acme:t-r', scorerId }).key);
      expect(latest).toMatchObject({ scorerId, thread: { version: 2, turns: 3 } });
    }
    expect(lastByKey.get(threadScoreViewKeyFor({ threadKey: 'acme:t-r', scorerId: 'turn-count' }).key)!.scoreId).toBe(both[1]!.scoreId);
    expect(lastByKey.size).toBe(2);
    // Partitioned by the thread key, as the thread's results are.
    expect(new Set(viewMessages.map((message) => message.partition)).size).toBe(1);
  });

  for (const delivery of ['at-least-once', 'exactly-once'] as const) {
    it(`restores a thread's state after a restart mid-thread and scores it once (${delivery})`, async () => {
      const topics = await useThreadServiceTopics(2);
      const groupId = uniqueGroupId('threads-restart');
      const scorers = threadBindings(4_000);
      await produceRaw(topics.runs, [turn('t-s', 1), turn('t-s', 2)]);
      const first = await startTestService({ topics, groupId, delivery, scorers });
      // Both turns applied to the state and their changelog writes out (and, exactly-once, committed).
      await expect.poll(() => first.stats.threads.stateWrites, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
      await expect.poll(() => [...first.stats.threads.byPartition.values()].reduce((sum, read) => sum + read().heldTurns, 0), { timeout: 30_000 }).toBe(2);
      // Their by-thread offsets committed: the next instance reads neither turn again, only the state.
      // (Exactly-once, the runs partitions' transaction markers sit between the turns: the
      // committed offset is the one after the last turn, not the number of turns.)
      const { byThread } = threadTopicsFor(topics.runs);
      const [last] = (await readMessages(byThread, { count: 2 })).sort((a, b) => Number(b.offset) - Number(a.offset));
      await expect.poll(async () => (await committedOffsets(groupId, byThread)).get(last!.partition), { timeout: 30_000 }).toBe(Number(last!.offset) + 1);
      await first.stop({ timeoutMs: 5_000 });

      await produceRaw(topics.runs, [turn('t-s', 3)]);
      const second = await startTestService({ topics, groupId, delivery, scorers });
      const isolation = delivery === 'exactly-once' ? 'read_committed' : 'read_uncommitted';
      await expect.poll(async () => (await readAll<ScoreRecord>(topics.results, { isolation })).filter((record) => record.thread !== undefined && record.scorerId === 'turn-count').length, { timeout: 60_000, interval: 500 }).toBe(1);
      const [score] = (await readAll<ScoreRecord>(topics.results, { isolation })).filter(isThreadScore).filter((record) => record.scorerId === 'turn-count');
      // Turns 1 and 2 came back from the changelog: the first instance committed their offsets.
      expect(score).toMatchObject({ score: 3, thread: { turns: 3, version: 1, firstRunId: 't-s-run-1', lastRunId: 't-s-run-3' } });
      expect(second.stats.threads.restoredRecords).toBeGreaterThanOrEqual(3);
      // Nothing more comes: one score per binding for the three turns.
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      const after = (await readAll<ScoreRecord>(topics.results, { isolation })).filter(isThreadScore);
      expect(after.map((record) => record.scorerId).sort()).toEqual(['run-score-mean', 'turn-count']);
      // The latest-score view got the same records (exactly-once: in the same transactions).
      const view = (await readAll<ThreadScore>(threadTopicsFor(topics.runs).latestScores, { isolation })).map((record) => record.scoreId);
      expect(view.sort()).toEqual(after.map((record) => record.scoreId).sort());
    });
  }

  it("moves a thread's state with its partition when the group rebalances", async () => {
    const topics = await useThreadServiceTopics(2);
    const groupId = uniqueGroupId('threads-rebalance');
    const scorers = threadBindings(8_000);
    const threads = ['t-0', 't-1', 't-2', 't-3', 't-4', 't-5'];
    const first = await startTestService({ topics, groupId, scorers });
    await produceRaw(topics.runs, threads.flatMap((thread) => [turn(thread, 1), turn(thread, 2)]));
    await expect.poll(() => [...first.stats.threads.byPartition.values()].reduce((sum, read) => sum + read().heldTurns, 0), { timeout: 30_000 }).toBe(12);
    await expect.poll(() => committedTotal(groupId, threadTopicsFor(topics.runs).byThread), { timeout: 30_000 }).toBe(12);

    // A second member joins: one by-thread partition moves to it, and its state with it.
    const second = await startTestService({ topics, groupId, scorers });
    await expect.poll(() => second.stats.threads.byPartition.size, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => first.stats.threads.byPartition.size, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => second.stats.threads.restores, { timeout: 30_000 }).toBe(1);
    expect(second.stats.threads.restoredRecords).toBeGreaterThan(0);

    await produceRaw(topics.runs, threads.map((thread) => turn(thread, 3)));
    // Each thread's conversation scored with all three turns, whichever member held it: the two
    // turns from before the move came back from the changelog. (On a loaded machine the move can
    // outlast the idle gap: a thread then has a version 1 of two turns too, and the third turn
    // re-scores it — never a version with a turn missing.)
    const hasAll = (found: ThreadScore[]) => threads.every((thread) => found.some((score) => score.scorerId === 'turn-count' && score.thread.id === thread && score.thread.turns === 3));
    const turnCounts = (await threadScores(topics, hasAll)).filter((score) => score.scorerId === 'turn-count');
    for (const thread of threads) {
      const mine = turnCounts.filter((score) => score.thread.id === thread);
      const last = mine.find((score) => score.thread.turns === 3)!;
      expect(last.thread).toMatchObject({ firstRunId: `${thread}-run-1`, lastRunId: `${thread}-run-3`, scope: 'conversation' });
      // One scoreId per version (at-least-once may repeat a record, never a version with other turns).
      const byVersion = new Map<number, Set<string>>();
      for (const score of mine) byVersion.set(score.thread.version, (byVersion.get(score.thread.version) ?? new Set()).add(`${score.scoreId} ${score.thread.turns}`));
      for (const ids of byVersion.values()) expect(ids.size).toBe(1);
    }
    const closedBy = (member: typeof first) => member.stats.threads.closesByReason.get('idle') ?? 0;
    expect(closedBy(first)).toBeGreaterThan(0);
    expect(closedBy(second)).toBeGreaterThan(0);
  });
});
