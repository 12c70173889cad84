// Scale-out on one machine (docs/scale-out.md): two, then four `scorestream start` processes in
// one consumer group drain a backlog of the same size. For each count: the group's final generation splits
// the partitions between exactly that many members (each owns some, none twice, all covered),
// the lag is drained (committed offsets reach the end of every partition), and nothing is lost
// (every (run, scorer) pair is on the results topic). The throughput of each count is
// printed, not asserted: it depends on the machine. The workload is judge-bound (a mock judge
// answering after 100 ms, 16 runs in flight per instance), the case scale-out is for: each
// instance's ceiling is its concurrency over the judge's latency, not this machine's cores.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { describeGroup, uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { committedTotal, produceRaw, readUntil, useServiceTopics } from '../../helpers/service.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';
import type { ServiceProcess } from '../../helpers/service-process.ts';

const partitions = 8;
const runCount = 2_000;
const scorerIds = ['answer-length', 'slow-judge'];

/** The partitions a member owns after its last join (its "joined the consumer group" line). */
function lastAssignment(service: ServiceProcess, topic: string): number[] {
  const joins = service.output.filter((line) => line.includes('joined the consumer group'));
  const last = joins.at(-1);
  if (last === undefined) return [];
  const { assignment } = JSON.parse(last) as { assignment: Record<string, number[]> };
  return [...(assignment[topic] ?? [])].sort((left, right) => left - right);
}

/** Committed offsets sampled every 250 ms until `total`; the rate between 10% and 90% of it. */
async function drainRate(groupId: string, topic: string, total: number, timeoutMs: number): Promise<number> {
  const samples: Array<{ at: number; committed: number }> = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const committed = await committedTotal(groupId, topic);
    samples.push({ at: performance.now(), committed });
    if (committed >= total) break;
    if (Date.now() > deadline) throw new Error(`lag not drained in ${timeoutMs} ms: ${committed} of ${total} committed`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const from = samples.find((sample) => sample.committed >= total * 0.1)!;
  const to = samples.find((sample) => sample.committed >= total * 0.9)!;
  return to.at === from.at ? Number.NaN : (to.committed - from.committed) / ((to.at - from.at) / 1000);
}

async function drainWith(count: number): Promise<{ count: number; runsPerSecond: number }> {
  // A backlog of its own for each count, produced once the group is stable with every member in
  // it, so the rate is that of `count` instances and not of the first one while the others start.
  const topics = await useServiceTopics(partitions);
  const { runs } = topics;
  const groupId = uniqueGroupId(`scale-${count}`);
  const env = { FIXTURE_JUDGE_DELAY_MS: '100', FIXTURE_RUNS_IN_FLIGHT: '16' };
  const services = Array.from({ length: count }, () => spawnService({ topics, groupId, env }));
  // Starting a process takes seconds on a loaded machine; four at once longer.
  await Promise.all(services.map((service) => waitForLog(service, /joined the consumer group/, 180_000)));
  const group = async () => {
    const { state, memberIds } = await describeGroup(groupId);
    return `${state} with ${memberIds.length} members`;
  };
  await expect.poll(group, { timeout: 120_000, interval: 500 }).toBe(`Stable with ${count} members`);
  const runIds = Array.from({ length: runCount }, (_, index) => `scale-${count}-${index}`);
  await produceRaw(runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
  const runsPerSecond = await drainRate(groupId, runs, runCount, 240_000);

  // Nothing lost: every pair of every run is on the results topic.
  const records = await readUntil<ScoreRecord>(topics.results, (found) => new Set(found.map((record) => `${record.runId}/${record.scorerId}`)).size === runCount * scorerIds.length, 60_000);
  expect(new Set(records.map((record) => `${record.runId}/${record.scorerId}`)).size).toBe(runCount * scorerIds.length);
  expect(records.every((record) => record.status === 'scored')).toBe(true);

  // The last generation: `count` members, each with partitions of its own, all of them covered.
  const owned = services.map((service) => lastAssignment(service, runs));
  expect(owned.every((mine) => mine.length > 0)).toBe(true);
  expect(owned.flat().sort((left, right) => left - right)).toEqual(Array.from({ length: partitions }, (_, index) => index));

  await Promise.all(
    services.map(async (service) => {
      service.child.kill('SIGTERM');
      expect((await service.exited).code).toBe(0);
    }),
  );
  expect(await committedTotal(groupId, runs)).toBe(runCount);
  return { count, runsPerSecond };
}

describe('scale-out', () => {
  it('drains a backlog with two and with four instances in one group, losing nothing', { timeout: 600_000 }, async () => {
    const measured = [await drainWith(2), await drainWith(4)];
    console.info(
      [
        `scale-out: ${runCount} runs, ${partitions} partitions, 2 scorers (a code scorer and a mock judge answering after 100 ms), 16 runs in flight per instance`,
        ...measured.map(({ count, runsPerSecond }) => `  ${count} instances: ${Math.round(runsPerSecond)} runs/s (committed, between 10% and 90% of the backlog)`),
        `  4 / 2 instances: ${(measured[1]!.runsPerSecond / measured[0]!.runsPerSecond).toFixed(2)}`,
      ].join('\n'),
    );
  });
});
