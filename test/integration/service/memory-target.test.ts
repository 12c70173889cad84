// The memory target through `scorestream start` (service/memory-target.ts, cli/main.ts): a target
// the process cannot hold is logged once as a warning that says what to change, and scoring goes on.
// (Its start line is also where the run event's validation is reported, compiled before the first message.)
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readUntil, useServiceTopics } from '../../helpers/service.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';

describe('the memory target of a service process', () => {
  it('warns once when the resident set is over the target, and goes on scoring', async () => {
    const topics = await useServiceTopics(1);
    const groupId = uniqueGroupId('memory-target');
    const runIds = Array.from({ length: 5 }, (_, index) => `memory-${index}`);
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    // 32 MB: below what the process holds once loaded, so its readings are over it from the start.
    const service = spawnService({ topics, groupId, env: { SCORESTREAM_MEMORY_TARGET_MB: '32', FIXTURE_JUDGE_DELAY_MS: '10' } });
    const warning = JSON.parse(await waitForLog(service, /memory target/)) as { level: number; msg: string; rssMb: number; memoryTargetMb: number; heapGrowthPercent: number };
    expect(warning).toMatchObject({ level: 40, memoryTargetMb: 32, heapGrowthPercent: 25 });
    expect(warning.rssMb).toBeGreaterThanOrEqual(32);
    expect(warning.msg).toContain('raise SCORESTREAM_MEMORY_TARGET_MB');
    const records = await readUntil<ScoreRecord>(topics.results, (all) => new Set(all.map((record) => `${record.runId}/${record.scorerId}`)).size === runIds.length * 2);
    expect(records.every((record) => record.status === 'scored')).toBe(true);
    // The start line says how run events are validated: compiled before the first message.
    expect(JSON.parse(await waitForLog(service, /scorestream is consuming/))).toMatchObject({ input: 'run-event', runEventValidation: 'compiled' });
    // Over the target all along, and said once: another notice needs a reading below 90% of it.
    expect(service.output.filter((line) => line.includes('memory target'))).toHaveLength(1);
    service.child.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
  });
});
