// Replays on a real broker: runs produced with explicit Kafka timestamps, a replay of a time range
// scores exactly the runs in it (marked with the replay's id, with the live path's scoreIds),
// running it again scores nothing twice, a dry run calls no judge, and a replay stopped half-way
// and started again scores every run once.
import { describe, expect, it } from 'vitest';
import type { Logger } from 'pino';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import type { ScorestreamConfigInput } from '../../../src/engine/config/config-types.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { scoreIdFor } from '../../../src/kit/contracts/score-id.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { dryRunReplay } from '../../../service/replay-dry-run.ts';
import { startReplay } from '../../../service/replay.ts';
import type { ReplayOptions } from '../../../service/replay.ts';
import { answerLengthScorer, judgeScorer } from '../../fixtures/scorers.ts';
import { testBrokers, testKafka, uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { readRecords, readUntil, silentLogger, testServiceFetchWait, useServiceTopics } from '../../helpers/service.ts';
import type { ServiceTopics } from '../../helpers/service.ts';

const base = Date.parse('2026-11-30T10:00:00.000Z');

/** Run `prefix-i` at Kafka timestamp base + i seconds, spread over the topic's partitions. */
async function produceTimedRuns(topic: string, count: number, partitions: number, prefix = 'run'): Promise<string[]> {
  const producer = testKafka('scorestream-test-producer').producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const runIds = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
  try {
    await producer.send({
      topic,
      acks: -1,
      messages: runIds.map((runId, index) => ({
        key: runId,
        value: JSON.stringify(testRun({ runId })),
        partition: index % partitions,
        timestamp: String(base + index * 1000),
      })),
    });
  } finally {
    await producer.disconnect();
  }
  return runIds;
}

function replayConfig(topics: ServiceTopics, input: Pick<ScorestreamConfigInput, 'scorers'> & Partial<ScorestreamConfigInput>) {
  return resolveConfig({ ...input, kafka: { brokers: testBrokers(), clientId: 'scorestream-test-replay' }, groupId: input.groupId ?? uniqueGroupId('live'), topics });
}

function replayOptions(config: ReturnType<typeof replayConfig>, options: Omit<ReplayOptions, 'config' | 'logger'>): ReplayOptions {
  const logger: Logger = silentLogger();
  return { config, logger, ...testServiceFetchWait, pollIntervalMs: 100, consumer: { commitIntervalMs: 100 }, ...options };
}

describe('scorestream replay', () => {
  it('scores exactly the runs of the time range, marked with the replay id and with the live scoreIds, and scores nothing again when rerun', async () => {
    const topics = await useServiceTopics(3);
    const runIds = await produceTimedRuns(topics.runs, 30, 3);
    const config = replayConfig(topics, { scorers: [{ scorer: answerLengthScorer }] });
    const range = { from: new Date(base + 10_000), to: new Date(base + 20_000) }; // runs 10..19

    const first = await startReplay(replayOptions(config, range));
    const outcome = await first.outcome;
    expect(outcome).toMatchObject({ finished: true, progress: { done: 10, total: 10 } });
    const records = await readRecords<ScoreRecord>(topics.results, 10);
    const expected = runIds.slice(10, 20);
    expect(records.map((record) => record.runId).sort()).toEqual([...expected].sort());
    for (const record of records) {
      expect(record.replay).toEqual({ id: first.range.id });
      expect(record.scoreId).toBe(scoreIdFor({ runId: record.runId, scorerId: 'answer-length' }));
      // A replayed event's age is no latency of the pipeline: only the wait to start and the scorer are timed.
      expect(Object.keys(record.latency!).filter((stage) => stage !== 'judgeMs').sort()).toEqual(['dispatchMs', 'scoringMs']);
    }

    const again = await startReplay(replayOptions(config, range));
    expect(again.range.id).toBe(first.range.id);
    expect(await again.outcome).toMatchObject({ finished: true, stats: undefined, progress: { done: 10, total: 10 } });
    // Nothing new: a marker produced after the rerun is the next record to arrive.
    const marker = await startReplay(replayOptions(config, { from: new Date(base + 29_000) }));
    await marker.outcome;
    const after = await readUntil<ScoreRecord>(topics.results, (found) => found.some((record) => record.runId === 'run-29'), 30_000);
    expect(after.map((record) => record.runId).sort()).toEqual([...expected, 'run-29'].sort());
  });

  it('dry run: counts the eligible runs of the range and estimates their judge tokens and cost without calling the judge', async () => {
    const topics = await useServiceTopics(2);
    await produceTimedRuns(topics.runs, 12, 2);
    const judge = mockJudge({ answer: { score: 1 } });
    const config = replayConfig(topics, {
      scorers: [{ scorer: judgeScorer('judged', judge) }, { scorer: answerLengthScorer, sampling: { type: 'ratio', rate: 0 } }],
      pricing: { models: { 'mock-judge': { inputPerMillion: 1000, outputPerMillion: 2000 } }, estimate: { outputTokensPerCall: 100 } },
    });
    const report = await dryRunReplay(replayOptions(config, { from: new Date(base + 2_000), to: new Date(base + 8_000) }));
    expect(judge.calls).toHaveLength(0);
    expect(report.runs).toBe(6);
    const judged = report.byScorer.get('judged')!;
    expect(judged).toMatchObject({ eligible: 6, skipped: 0, failed: 0, judgeCalls: 6, outputTokens: 600 });
    expect(judged.inputTokens).toBeGreaterThan(6 * 10);
    // Priced like real calls: tokens × price per million.
    expect(judged.cost).toBeCloseTo((judged.inputTokens * 1000 + judged.outputTokens * 2000) / 1e6, 9);
    expect(report.byScorer.get('answer-length')).toMatchObject({ eligible: 0, skipped: 6 });
    // A dry run commits nothing: the replay itself still has the whole range to do.
    const replay = await startReplay(replayOptions(config, { from: new Date(base + 2_000), to: new Date(base + 8_000), scorers: ['answer-length'] }));
    expect((await replay.outcome).progress).toMatchObject({ done: 6, total: 6 });
  });

  it('stopped half-way and started again, scores every run of the range once', async () => {
    const topics = await useServiceTopics(2);
    const runIds = await produceTimedRuns(topics.runs, 40, 2);
    const judge = mockJudge({ answer: { score: 1 }, delayMs: 40 });
    const config = replayConfig(topics, { scorers: [{ scorer: judgeScorer('judged', judge) }], concurrency: { runsInFlight: 2 } });
    const range = { from: new Date(base) };

    let done = 0;
    const first = await startReplay(replayOptions(config, { ...range, onProgress: (progress) => (done = progress.done) }));
    await expect.poll(() => done, { timeout: 30_000 }).toBeGreaterThanOrEqual(8);
    const stopped = await first.stop();
    expect(stopped.finished).toBe(false);
    expect(stopped.progress.done).toBeLessThan(40);

    const second = await startReplay(replayOptions(config, range));
    expect(second.range.id).toBe(first.range.id);
    expect((await second.outcome).finished).toBe(true);
    const records = await readRecords<ScoreRecord>(topics.results, 40);
    expect(records.map((record) => record.runId).sort()).toEqual([...runIds].sort());
    expect(judge.calls).toHaveLength(40);
  });
});
