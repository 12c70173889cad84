// The service as a real process: SIGKILL mid-stream and a restart lose no score (at-least-once,
// duplicates share a scoreId); SIGTERM with judge calls in flight finishes them, publishes,
// commits and exits 0; a second signal exits at once without committing anything unpublished.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { committedTotal, produceRaw, readUntil, useServiceTopics } from '../../helpers/service.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';

const pairs = (records: ScoreRecord[]) => new Set(records.map((record) => `${record.runId}/${record.scorerId}`));

describe('service process lifecycle', () => {
  it('loses no score when killed with SIGKILL mid-stream and restarted', async () => {
    const topics = await useServiceTopics(3);
    const groupId = uniqueGroupId('crash');
    const runIds = Array.from({ length: 90 }, (_, index) => `crash-${index}`);
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));

    const first = spawnService({ topics, groupId, env: { FIXTURE_JUDGE_DELAY_MS: '150', FIXTURE_RUNS_IN_FLIGHT: '8' } });
    await readUntil<ScoreRecord>(topics.results, (records) => pairs(records).size >= 30);
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const committedAtCrash = await committedTotal(groupId, topics.runs);
    expect(committedAtCrash).toBeLessThan(runIds.length);

    spawnService({ topics, groupId, env: { FIXTURE_JUDGE_DELAY_MS: '150', FIXTURE_RUNS_IN_FLIGHT: '8' } });
    const records = await readUntil<ScoreRecord>(topics.results, (all) => pairs(all).size === runIds.length * 2, 90_000);
    expect(pairs(records).size).toBe(runIds.length * 2);
    // Re-scored runs are recognisable duplicates: the same pair always has the same scoreId.
    const idByPair = new Map<string, string>();
    for (const record of records) {
      const pair = `${record.runId}/${record.scorerId}`;
      expect(idByPair.get(pair) ?? record.scoreId).toBe(record.scoreId);
      idByPair.set(pair, record.scoreId);
    }
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 20_000 }).toBe(runIds.length);
  });

  it('on SIGTERM finishes the judge calls in flight, publishes, commits and exits 0', async () => {
    const topics = await useServiceTopics(1);
    const groupId = uniqueGroupId('sigterm');
    const runIds = Array.from({ length: 10 }, (_, index) => `term-${index}`);
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    const service = spawnService({ topics, groupId, env: { FIXTURE_JUDGE_DELAY_MS: '8000', FIXTURE_RUNS_IN_FLIGHT: '16' } });
    await waitForLog(service, /joined the consumer group/);
    // The code scorer answers at once; once its records are out, every judge call is in flight.
    await readUntil<ScoreRecord>(topics.results, (records) => records.filter((record) => record.scorerId === 'answer-length').length >= runIds.length);
    service.child.kill('SIGTERM');
    const exit = await service.exited;
    expect(exit.code).toBe(0);
    const records = await readUntil<ScoreRecord>(topics.results, (all) => pairs(all).size === runIds.length * 2, 10_000);
    expect(records.filter((record) => record.scorerId === 'slow-judge').every((record) => record.status === 'scored')).toBe(true);
    expect(await committedTotal(groupId, topics.runs)).toBe(runIds.length);
    expect(service.output.some((line) => line.includes('letting in-flight runs finish'))).toBe(true);
  });

  it('exits at once on a second signal and commits nothing that was not published', async () => {
    const topics = await useServiceTopics(1);
    const groupId = uniqueGroupId('double-signal');
    const runIds = Array.from({ length: 6 }, (_, index) => `twice-${index}`);
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    const service = spawnService({ topics, groupId, env: { FIXTURE_JUDGE_DELAY_MS: '60000', FIXTURE_RUNS_IN_FLIGHT: '16' } });
    await readUntil<ScoreRecord>(topics.results, (records) => records.length >= runIds.length);
    service.child.kill('SIGTERM');
    await waitForLog(service, /letting in-flight runs finish/);
    service.child.kill('SIGTERM');
    const exit = await service.exited;
    expect(exit.code).toBe(130);
    expect(await committedTotal(groupId, topics.runs)).toBe(0);
  });
});
