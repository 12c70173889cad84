// Exactly-once delivery against a real broker: a partition's records and its consumed offset go
// out in one transaction, so a read_committed reader sees every (run, scorer) exactly once —
// scores, dead letters, and nothing twice — and the group's offsets cover every run.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { answerLengthScorer, judgeScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { testKafka, uniqueGroupId } from '../../helpers/kafka.ts';
import { readAll } from '../../helpers/read-all.ts';
import { testRun } from '../../helpers/runs.ts';
import { committedTotal, produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';
import type { ServiceTopics } from '../../helpers/service.ts';
import { expectExactlyOnce, pairCounts } from './delivery-helpers.ts';

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
      scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('quick-judge', mockJudge({ answer: { score: 0.8 }, delayMs: 30 })) }],
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

  it('stays exactly once while a second instance joins and the first one leaves', async () => {
    const topics = await useServiceTopics(4);
    const groupId = uniqueGroupId('eos-pair');
    const batches = ['a', 'b', 'c'].map((name) => Array.from({ length: 40 }, (_, index) => `eos-pair-${name}-${index}`));
    const produce = (runIds: string[]) => produceRaw(topics.runs, runIds.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId })), partition: index % 4 })));
    const start = () => startInstance(topics, groupId, 200);

    await produce(batches[0]!);
    const first = await start();
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 20_000 }).toBeGreaterThan(0);
    // Joins while the first has judge calls in flight and finished runs held for a transaction.
    const second = await start();
    await produce(batches[1]!);
    await expect.poll(() => first.stats.consumed > 0 && second.stats.consumed > 0, { timeout: 30_000 }).toBe(true);
    await first.stop({ timeoutMs: 5_000 });
    await produce(batches[2]!);

    const all = batches.flat();
    await readUntil<ScoreRecord>(topics.results, (records) => pairCounts(records).size === all.length * scorerIds.length, 90_000);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 30_000 }).toBe(all.length);
    await second.stop({ timeoutMs: 5_000 });
    expectExactlyOnce(await readAll<ScoreRecord>(topics.results, { isolation: 'read_committed' }), all, scorerIds);
  });

  it('aborts a transaction that fails (its producer fenced), rewinds the partition and still publishes exactly once', async () => {
    const topics = await useServiceTopics(1);
    const groupId = uniqueGroupId('eos-fenced');
    const runIds = Array.from({ length: 40 }, (_, index) => `eos-fenced-${index}`);
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    const service = await startInstance(topics, groupId, 100, 4);
    await expect.poll(() => service.stats.transactions, { timeout: 20_000 }).toBeGreaterThan(1);

    // A zombie with the partition's transactional id: initialising it fences the service's producer.
    const zombie = testKafka('scorestream-test-zombie').producer({ transactionalId: `${groupId}-${topics.runs}-0`, idempotent: true, maxInFlightRequests: 1 });
    await zombie.connect();
    await (await zombie.transaction()).abort();
    await zombie.disconnect();

    await expect.poll(() => service.stats.transactionFailures, { timeout: 20_000 }).toBeGreaterThan(0);
    await readUntil<ScoreRecord>(topics.results, (records) => pairCounts(records).size === runIds.length * scorerIds.length, 60_000);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 20_000 }).toBe(runIds.length);
    await service.stop({ timeoutMs: 5_000 });
    expectExactlyOnce(await readAll<ScoreRecord>(topics.results, { isolation: 'read_committed' }), runIds, scorerIds);
    // The rewound runs were scored again: more finished than there are runs.
    expect(service.stats.completed).toBeGreaterThan(runIds.length);
  });
});

function startInstance(topics: ServiceTopics, groupId: string, judgeDelayMs: number, runsInFlight = 8) {
  return startTestService({
    topics,
    groupId,
    delivery: 'exactly-once',
    concurrency: { runsInFlight },
    scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('quick-judge', mockJudge({ answer: { score: 0.8 }, delayMs: judgeDelayMs })) }],
  });
}
