// Judge calls longer than the group's session timeout must not get the member evicted: scoring
// runs outside kafkajs' batch handler, so the consumer keeps heartbeating while judges think.
// Evidence: the coordinator still knows the member by the id it joined with, no work finished
// after its assignment ended, and each (run, scorer) scored once.
import { describe, expect, it, vi } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { judgeScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { describeGroup, uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';

describe('heartbeats during long judge calls', () => {
  it('keeps the group membership through judge calls twice as long as the session timeout', async () => {
    const topics = await useServiceTopics(2);
    const groupId = uniqueGroupId('heartbeat');
    const runIds = Array.from({ length: 6 }, (_, index) => `long-judge-${index}`);
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    // 6 s is the broker's minimum session timeout (group.min.session.timeout.ms). kafkajs
    // heartbeats between fetches, so the service's own fetch wait is part of what must fit in it.
    const service = await startTestService(
      { topics, groupId, scorers: [{ scorer: judgeScorer('slow-judge', mockJudge({ answer: { score: 0.8 }, delayMs: 12_000 })), timeoutMs: 60_000 }] },
      { consumer: { sessionTimeoutMs: 6_000 }, productionFetchWait: true },
    );
    const joined = await vi.waitFor(
      async () => {
        const group = await describeGroup(groupId);
        expect(group).toMatchObject({ state: 'Stable', memberIds: [expect.any(String)] });
        return group;
      },
      { timeout: 20_000, interval: 200 },
    );
    const records = await readUntil<ScoreRecord>(topics.results, (found) => found.length >= runIds.length, 60_000);
    expect(records.every((record) => record.status === 'scored')).toBe(true);
    await expect.poll(() => service.stats.completed, { timeout: 20_000 }).toBe(runIds.length);
    // The judge calls took twice the session timeout: a member that stopped heartbeating during
    // them was expired by the coordinator before they ended, and is gone from the group (or back
    // under a new member id). Asking the coordinator needs no settling time; waiting for the
    // evicted member to notice, rejoin and re-consume would.
    expect(await describeGroup(groupId)).toEqual(joined);
    expect(service.stats.consumed).toBe(runIds.length);
    expect(service.stats.staleCompletions).toBe(0);
  });
});
