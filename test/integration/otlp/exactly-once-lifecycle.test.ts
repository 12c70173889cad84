// The OTLP input's assembly under exactly-once, where the state's owner matters: each trace split
// over two messages (model and tool spans first, the agent span after), and
//   - a transaction that fails (its producer fenced) while traces are still assembling: the claim
//     and its assembly end, the partition is read again from its last commit, and the traces are
//     rebuilt from the re-read spans — none dropped as late;
//   - a second instance joining and leaving while traces assemble: the assembly of a moved
//     partition ends with its claim, and its new owner rebuilds it.
// Either way a read_committed reader (the abort markers applied, test/helpers/read-all.ts) sees
// every run scored exactly once, and every message is committed.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { answerLengthScorer } from '../../fixtures/scorers.ts';
import { testKafka, uniqueGroupId } from '../../helpers/kafka.ts';
import { splitAgentTraffic } from '../../helpers/otlp-traces.ts';
import { readAll } from '../../helpers/read-all.ts';
import { committedTotal, produceRaw, startTestService, useServiceTopics } from '../../helpers/service.ts';
import type { ServiceTopics } from '../../helpers/service.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function instance(topics: ServiceTopics, groupId: string) {
  return startTestService({ topics, groupId, delivery: 'exactly-once', concurrency: { runsInFlight: 64 }, input: { format: 'otlp', gracePeriodMs: 200 }, scorers: [{ scorer: answerLengthScorer }] });
}

function expectEachRunOnce(records: ScoreRecord[], agents: Array<{ traceId: string; spanId: string }>) {
  const counts = new Map<string, number>();
  for (const record of records) counts.set(record.runId, (counts.get(record.runId) ?? 0) + 1);
  const expected = agents.map((agent) => `${agent.traceId}-${agent.spanId}`).sort();
  expect([...counts.keys()].sort()).toEqual(expected);
  expect([...counts.values()].filter((count) => count !== 1)).toEqual([]);
}

describe('OTLP input under exactly-once: the assembly belongs to the claim', () => {
  it('a transaction aborted while traces assemble: every run scored once for read_committed readers', { timeout: 120_000 }, async () => {
    const topics = await useServiceTopics(1);
    const groupId = uniqueGroupId('otlp-eos-abort');
    const traffic = splitAgentTraffic({ traces: 40, encoding: 'otlp_proto', prefix: 'abort' });
    const service = await instance(topics, groupId);
    // Two whole traces first, so that the partition has a transaction behind it.
    await produceRaw(topics.runs, [traffic.early[0]!, traffic.late[0]!, traffic.early[1]!, traffic.late[1]!]);
    await expect.poll(() => service.stats.transactions, { timeout: 30_000 }).toBeGreaterThan(0);
    // Thirty traces start assembling: their agent spans are still to come.
    await produceRaw(topics.runs, traffic.early.slice(2, 32));
    await expect.poll(() => service.otlp!.openTraces, { timeout: 30_000 }).toBe(30);
    // A zombie with the partition's transactional id fences the service's producer: the next
    // transaction (the first fifteen traces, once their agent spans close them) fails.
    const zombie = testKafka('scorestream-test-zombie').producer({ transactionalId: `${groupId}-${topics.runs}-0`, idempotent: true, maxInFlightRequests: 1 });
    await zombie.connect();
    await (await zombie.transaction()).abort();
    await zombie.disconnect();
    await produceRaw(topics.runs, traffic.late.slice(2, 17));
    await expect.poll(() => service.stats.transactionFailures, { timeout: 30_000 }).toBeGreaterThan(0);
    // The other fifteen were assembling when it failed; then the rest of the traffic.
    await produceRaw(topics.runs, traffic.late.slice(17, 32));
    await produceRaw(topics.runs, [...traffic.early.slice(32), ...traffic.late.slice(32)]);
    const messages = traffic.early.length + traffic.late.length;
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 60_000 }).toBe(messages);
    expect(service.otlp!.claimsEnded).toBeGreaterThan(0);
    await service.stop({ timeoutMs: 5_000 });
    expectEachRunOnce(await readAll<ScoreRecord>(topics.results, { isolation: 'read_committed' }), traffic.agents);
  });

  it('across a rebalance onto a second instance while traces assemble: every run scored once for read_committed readers', { timeout: 150_000 }, async () => {
    const topics = await useServiceTopics(4);
    const groupId = uniqueGroupId('otlp-eos-rebalance');
    const traffic = splitAgentTraffic({ traces: 120, encoding: 'otlp_proto', prefix: 'rebalance' });
    const first = await instance(topics, groupId);
    let second: Awaited<ReturnType<typeof instance>> | undefined;
    // Waves of 20 traces: their model and tool spans, then 1.5 s later their agent spans.
    for (let wave = 0; wave < 6; wave += 1) {
      const range = [wave * 20, wave * 20 + 20] as const;
      await produceRaw(topics.runs, traffic.early.slice(...range));
      if (wave === 1) {
        // Joins while traces assemble, and takes partitions over.
        const joined = await instance(topics, groupId);
        second = joined;
        await expect.poll(() => joined.stats.consumed, { timeout: 30_000 }).toBeGreaterThan(0);
      }
      if (wave === 4) await second!.stop({ timeoutMs: 5_000 }); // and leaves while they do
      await sleep(1_500);
      await produceRaw(topics.runs, traffic.late.slice(...range));
    }
    const messages = traffic.early.length + traffic.late.length;
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 90_000 }).toBe(messages);
    await first.stop({ timeoutMs: 5_000 });
    expect(first.otlp!.runsAssembled).toBeGreaterThan(0);
    expect(second!.otlp!.runsAssembled).toBeGreaterThan(0);
    expectEachRunOnce(await readAll<ScoreRecord>(topics.results, { isolation: 'read_committed' }), traffic.agents);
  });
});
