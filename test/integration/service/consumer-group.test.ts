// Two instances in one consumer group split the partitions, and when one leaves the other takes
// its partitions over: every (run, scorer) is scored, and committed offsets cover every run.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { answerLengthScorer } from '../../fixtures/scorers.ts';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { committedTotal, produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';

describe('consumer group', () => {
  it('splits partitions between two instances and survives one of them leaving', async () => {
    const topics = await useServiceTopics(4);
    const groupId = uniqueGroupId('pair');
    const firstBatch = Array.from({ length: 40 }, (_, index) => `pair-a-${index}`);
    await produceRaw(topics.runs, firstBatch.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId })), partition: index % 4 })));

    const one = await startTestService({ topics, groupId, scorers: [{ scorer: answerLengthScorer }] });
    const two = await startTestService({ topics, groupId, scorers: [{ scorer: answerLengthScorer }] });
    await readUntil<ScoreRecord>(topics.results, (records) => new Set(records.map((record) => record.runId)).size === firstBatch.length);
    // Both members got work once the group settled (the second one joins with a rebalance).
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 20_000 }).toBe(firstBatch.length);

    const secondBatch = Array.from({ length: 40 }, (_, index) => `pair-b-${index}`);
    await produceRaw(topics.runs, secondBatch.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId })), partition: index % 4 })));
    await expect.poll(() => one.stats.consumed > 0 && two.stats.consumed > 0, { timeout: 30_000 }).toBe(true);

    await one.stop({ timeoutMs: 5_000 });
    const thirdBatch = Array.from({ length: 40 }, (_, index) => `pair-c-${index}`);
    await produceRaw(topics.runs, thirdBatch.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId })), partition: index % 4 })));

    const all = [...firstBatch, ...secondBatch, ...thirdBatch];
    const records = await readUntil<ScoreRecord>(topics.results, (found) => all.every((runId) => found.some((record) => record.runId === runId)), 90_000);
    expect(new Set(records.map((record) => record.runId)).size).toBe(all.length);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 30_000 }).toBe(all.length);
  });
});
