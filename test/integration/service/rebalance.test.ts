// A rebalance revokes partitions while the old owner still has judge calls in flight: their runs
// finish after the revocation and are counted as stale completions, never committed by the old
// owner. Meanwhile the group's committed offsets never run ahead of the records that exist and
// never move backwards (a revoked owner committing late would drag the new owner's offset back);
// in the end every (run, scorer) has a record and the offsets cover every run.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { answerLengthScorer, judgeScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { readMessages, uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { committedTotal, produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { pairCounts, watchCommits } from './delivery-helpers.ts';

const scorerIds = ['answer-length', 'slow-judge'];

describe('rebalance', () => {
  it('does not commit revoked work: in-flight runs that finish after the revocation are stale, and the new owner scores them', async () => {
    const topics = await useServiceTopics(2);
    const groupId = uniqueGroupId('revoke');
    const runIds = Array.from({ length: 20 }, (_, index) => `revoke-${index}`);
    await produceRaw(topics.runs, runIds.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId })), partition: index % 2 })));
    const runAt = new Map((await readMessages(topics.runs, { count: runIds.length })).map((message) => [`${message.partition}:${message.offset}`, message.key!.toString('utf8')]));
    const watch = await watchCommits({ groupId, runsTopic: topics.runs, resultsTopic: topics.results, runAt, scorerIds });

    // A: 16 slots for 20 runs and a 6 s judge, so its judge calls are in flight when B joins.
    const first = await startTestService({
      topics,
      groupId,
      concurrency: { runsInFlight: 16 },
      scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('slow-judge', mockJudge({ answer: { score: 0.8 }, delayMs: 6_000 })) }],
    });
    await expect.poll(() => first.stats.inFlight, { timeout: 20_000 }).toBe(16);
    const second = await startTestService({
      topics,
      groupId,
      concurrency: { runsInFlight: 16 },
      scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('slow-judge', mockJudge({ answer: { score: 0.8 }, delayMs: 300 })) }],
    });

    await expect.poll(() => first.stats.staleCompletions, { timeout: 30_000 }).toBeGreaterThan(0);
    await readUntil<ScoreRecord>(topics.results, (records) => pairCounts(records).size === runIds.length * scorerIds.length, 60_000);
    const offsetsSettled = await expect
      .poll(() => committedTotal(groupId, topics.runs), { timeout: 30_000 })
      .toBe(runIds.length)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    // The watch's findings first: they say why the offsets did not settle, if they did not.
    const { checks, violations } = await watch.stop();
    expect(violations).toEqual([]);
    if (offsetsSettled !== undefined) throw offsetsSettled;
    expect(checks).toBeGreaterThan(5);
    // The new owner re-scored what the old one had in flight for the partition it lost.
    expect(second.stats.completed).toBeGreaterThan(0);
  });
});
