// Exactly-once delivery against a real broker: a partition's records and its consumed offset go
// out in one transaction, so a read_committed reader sees every (run, scorer) exactly once —
// scores, dead letters, and nothing twice — and the group's offsets cover every run.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { answerLengthScorer, delayedJudgeModel, judgeScorer } from '../../fixtures/scorers.ts';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { committedTotal, produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { expectExactlyOnce, pairCounts, readAll } from './delivery-helpers.ts';

const scorerIds = ['answer-length', 'quick-judge'];

describe('exactly-once delivery', () => {
  it('publishes every (run, scorer) and dead letter exactly once, with the offsets in the same transactions', async () => {
    const topics = await useServiceTopics(3);
    const groupId = uniqueGroupId('eos');
    const runIds = Array.from({ length: 60 }, (_, index) => `eos-${index}`);
    await produceRaw(topics.runs, [
      ...runIds.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId })), partition: index % 3 })),
      { key: 'broken-1', value: '{"runId": ', partition: 0 },
      { key: 'broken-2', value: 'not json at all', partition: 2 },
    ]);
    const service = await startTestService({
      topics,
      groupId,
      delivery: 'exactly-once',
      concurrency: { runsInFlight: 8 },
      scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('quick-judge', delayedJudgeModel(30)) }],
    });

    await readUntil<ScoreRecord>(topics.results, (records) => pairCounts(records).size === runIds.length * scorerIds.length);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 20_000 }).toBe(runIds.length + 2);
    await service.stop({ timeoutMs: 5_000 });

    expectExactlyOnce(await readAll<ScoreRecord>(topics.results, { isolation: 'read_committed' }), runIds, scorerIds);
    const deadLetters = await readAll<{ source: { offset: string; partition: number } }>(topics.deadLetter, { isolation: 'read_committed' });
    expect(deadLetters.map((deadLetter) => deadLetter.source.partition).sort()).toEqual([0, 2]);
    // Several transactions (runsInFlight 8 < 62 messages), none failed.
    expect(service.stats.transactions).toBeGreaterThan(3);
    expect(service.stats.transactionFailures).toBe(0);
    expect(service.stats.staleCompletions).toBe(0);
  });
});
