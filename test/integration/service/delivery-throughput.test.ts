// What exactly-once costs: the same backlog of runs scored with code scorers under each delivery
// mode, in alternating rounds, each with a fresh group and results topic. Timed from the first
// message consumed (so group joins do not count) until every record is visible to a
// read_committed reader — at-least-once: all acknowledged (stats, polled every 5 ms);
// exactly-once: all committed (group offsets, polled every 20 ms) — and until every offset is
// committed. Opt-in (SCORESTREAM_MEASURE_DELIVERY=1): it prints numbers, and checks only
// that every run was committed and, for exactly-once, that every record is there once. Run this
// file alone (name it): in a full run, other integration files share the CPU.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import type { DeliveryMode } from '../../../src/engine/config/config-types.ts';
import { answerLengthScorer, refundOnlyScorer } from '../../fixtures/scorers.ts';
import { uniqueGroupId, useTopic } from '../../helpers/kafka.ts';
import { readAll } from '../../helpers/read-all.ts';
import { testRun } from '../../helpers/runs.ts';
import { committedTotal, produceRaw, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { expectExactlyOnce } from './delivery-helpers.ts';

const runCount = Number(process.env.SCORESTREAM_MEASURE_RUNS ?? '20000');
const rounds = Number(process.env.SCORESTREAM_MEASURE_ROUNDS ?? '2');

async function measure(runsTopic: string, delivery: DeliveryMode) {
  const results = await useTopic({ prefix: `scores-${delivery}` });
  const deadLetter = await useTopic({ prefix: 'dlq' });
  const groupId = uniqueGroupId(`measure-${delivery}`);
  const service = await startTestService(
    { topics: { runs: runsTopic, results, deadLetter }, groupId, delivery, scorers: [{ scorer: answerLengthScorer }, { scorer: refundOnlyScorer }] },
    { consumer: { commitIntervalMs: 1000 }, productionFetchWait: true }, // the production defaults
  );
  const waitFor = async (what: string, condition: () => boolean | Promise<boolean>, everyMs: number) => {
    const deadline = Date.now() + 180_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`${delivery}: ${what} not reached in 180 s`);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    return performance.now();
  };
  const firstConsumed = await waitFor('first message', () => service.stats.consumed > 0, 5);
  // Visible to readers: at-least-once when every record is acknowledged, exactly-once when the
  // transactions holding them committed (which is also when the offsets are).
  const visible =
    delivery === 'at-least-once'
      ? await waitFor('all records acknowledged', () => service.stats.completed >= runCount, 5)
      : await waitFor('all committed', async () => (await committedTotal(groupId, runsTopic)) >= runCount, 20);
  const committed = await waitFor('all committed', async () => (await committedTotal(groupId, runsTopic)) >= runCount, 20);
  const { transactions } = service.stats;
  await service.stop({ timeoutMs: 5_000 });
  const rate = (until: number) => Math.round(runCount / ((until - firstConsumed) / 1000));
  return { delivery, visibleRate: rate(visible), committedRate: rate(committed), transactions, results };
}

describe.runIf(process.env.SCORESTREAM_MEASURE_DELIVERY === '1')('delivery throughput', () => {
  it(`scores ${runCount} runs with code scorers under each delivery mode`, async () => {
    const topics = await useServiceTopics(6);
    const runIds = Array.from({ length: runCount }, (_, index) => `measure-${index}`);
    for (let start = 0; start < runIds.length; start += 2000) {
      await produceRaw(topics.runs, runIds.slice(start, start + 2000).map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    }
    const outcomes: Array<Awaited<ReturnType<typeof measure>>> = [];
    for (let round = 0; round < rounds; round += 1) {
      for (const delivery of ['at-least-once', 'exactly-once'] as const) outcomes.push(await measure(topics.runs, delivery));
    }
    for (const outcome of outcomes.filter((candidate) => candidate.delivery === 'exactly-once')) {
      expectExactlyOnce(await readAll<ScoreRecord>(outcome.results, { isolation: 'read_committed' }), runIds, ['answer-length', 'refund-only']);
    }
    const median = (delivery: DeliveryMode) => {
      const rates = outcomes.filter((outcome) => outcome.delivery === delivery).map((outcome) => outcome.visibleRate).sort((left, right) => left - right);
      return rates[Math.floor(rates.length / 2)]!;
    };
    console.info(
      [
        `delivery throughput, ${runCount} runs × 2 code scorers, 6 partitions, runsInFlight 256, commit interval 1 s`,
        '(runs/s from the first message consumed until every record is visible to a read_committed reader / every offset committed):',
        ...outcomes.map(
          (outcome) =>
            `  ${outcome.delivery.padEnd(14)} ${String(outcome.visibleRate).padStart(6)} visible  ${String(outcome.committedRate).padStart(6)} committed${outcome.delivery === 'exactly-once' ? `  (${outcome.transactions} transactions)` : ''}`,
        ),
        `  exactly-once / at-least-once (medians): ${(median('exactly-once') / median('at-least-once')).toFixed(2)}`,
      ].join('\n'),
    );
    expect(outcomes.length).toBe(rounds * 2);
  }, 600_000);
});
