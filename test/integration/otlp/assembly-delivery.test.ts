// The OTLP input's delivery guarantees against a real broker, with traffic shaped as a Collector's
// kafka exporter writes it (one message per trace keyed by trace id, each agent's tool span a late
// descendant in a message of its own): SIGKILL mid-stream and a restart lose no run, a rebalance
// loses no run, and the committed offsets end up covering every message. Re-scored runs keep
// their scoreId.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { answerLengthScorer, judgeScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { otlpTraffic } from '../../helpers/otlp-traces.ts';
import { readAll } from '../../helpers/read-all.ts';
import { committedTotal, produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { spawnService } from '../../helpers/service-process.ts';

const pairs = (records: ScoreRecord[]) => new Set(records.map((record) => `${record.runId}/${record.scorerId}`));

function expectStableScoreIds(records: ScoreRecord[]) {
  const idByPair = new Map<string, string>();
  for (const record of records) {
    const pair = `${record.runId}/${record.scorerId}`;
    expect(idByPair.get(pair) ?? record.scoreId).toBe(record.scoreId);
    idByPair.set(pair, record.scoreId);
  }
}

describe('OTLP input delivery', () => {
  it('loses no run when the service is killed with SIGKILL mid-stream and restarted', async () => {
    const topics = await useServiceTopics(3);
    const groupId = uniqueGroupId('otlp-crash');
    const traffic = otlpTraffic({ traces: 120, agentEvery: 3, encoding: 'otlp_proto', byTrace: true });
    await produceRaw(topics.runs, traffic.messages);
    const env = { SCORESTREAM_INPUT_FORMAT: 'otlp', FIXTURE_JUDGE_DELAY_MS: '150', FIXTURE_RUNS_IN_FLIGHT: '64' };

    const first = spawnService({ topics, groupId, env });
    await readUntil<ScoreRecord>(topics.results, (records) => pairs(records).size >= 20);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(await committedTotal(groupId, topics.runs)).toBeLessThan(traffic.messages.length);

    spawnService({ topics, groupId, env });
    const expected = traffic.agents.length * 2;
    const records = await readUntil<ScoreRecord>(topics.results, (all) => pairs(all).size === expected, 90_000);
    expect(pairs(records).size).toBe(expected);
    const runIds = new Set(records.map((record) => record.runId));
    for (const agent of traffic.agents) expect(runIds.has(`${agent.traceId}-${agent.spanId}`)).toBe(true);
    expectStableScoreIds(records);
    // every run has its late tool span: the tool call made it into the run
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 30_000 }).toBe(traffic.messages.length);
  });

  it('loses no run when a second instance joins and the partitions move mid-stream', async () => {
    const topics = await useServiceTopics(4);
    const groupId = uniqueGroupId('otlp-rebalance');
    const traffic = otlpTraffic({ traces: 160, agentEvery: 4, encoding: 'otlp_json', byTrace: true });
    await produceRaw(topics.runs, traffic.messages);
    const service = (delayMs: number, runsInFlight: number) =>
      startTestService({
        topics,
        groupId,
        concurrency: { runsInFlight },
        input: { format: 'otlp', encoding: 'otlp_json', gracePeriodMs: 300 },
        scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('slow-judge', mockJudge({ answer: { score: 0.8 }, delayMs })) }],
      });
    // A slow first instance, so that work is left when the second one joins.
    const first = await service(3_000, 8);
    await readUntil<ScoreRecord>(topics.results, (records) => pairs(records).size >= 10);
    const second = await service(50, 32);
    const expected = traffic.agents.length * 2;
    const records = await readUntil<ScoreRecord>(topics.results, (all) => pairs(all).size === expected, 90_000);
    expect(pairs(records).size).toBe(expected);
    expectStableScoreIds(records);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 30_000 }).toBe(traffic.messages.length);
    // both instances assembled runs: the partitions really moved
    expect(first.otlp!.runsAssembled).toBeGreaterThan(0);
    expect(second.otlp!.runsAssembled).toBeGreaterThan(0);
  });

  it('works with exactly-once delivery: each run scored once for read_committed readers, every message committed', async () => {
    const topics = await useServiceTopics(2);
    const groupId = uniqueGroupId('otlp-eos');
    const traffic = otlpTraffic({ traces: 60, agentEvery: 3, encoding: 'otlp_proto', byTrace: true });
    await produceRaw(topics.runs, traffic.messages);
    await startTestService({ topics, groupId, delivery: 'exactly-once', input: { format: 'otlp', gracePeriodMs: 200 }, scorers: [{ scorer: answerLengthScorer }] });
    const records = await readUntil<ScoreRecord>(topics.results, (all) => all.length >= traffic.agents.length);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 30_000 }).toBe(traffic.messages.length);
    expect(records.length).toBeGreaterThanOrEqual(traffic.agents.length);
    // An OTLP run's time: to its trace's first spans fetched, their slot, then the assembly — at least the grace after its agent span.
    for (const record of records) {
      expect(Object.keys(record.latency!).sort()).toEqual(['assemblyMs', 'dispatchMs', 'kafkaMs', 'runSlotMs', 'scoringMs']);
      expect(record.latency!.assemblyMs).toBeGreaterThanOrEqual(199);
    }
    // Everything committed so far, read to the end with the abort markers applied: once each.
    const all = await readAll<ScoreRecord>(topics.results, { isolation: 'read_committed' });
    expect(all).toHaveLength(traffic.agents.length);
    expect(pairs(all).size).toBe(traffic.agents.length);
  });
});
