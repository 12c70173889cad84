// Judge calls longer than the group's session timeout must not get the member evicted: scoring
// runs outside kafkajs' batch handler, so the consumer keeps heartbeating while judges think.
// Evidence: no work finished after its assignment ended, and each (run, scorer) scored once.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { judgeScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/testing/mock-judge.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';

describe('heartbeats during long judge calls', () => {
  it('keeps the group membership through judge calls twice as long as the session timeout', async () => {
    const topics = await useServiceTopics(2);
    const runIds = Array.from({ length: 6 }, (_, index) => `long-judge-${index}`);
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    // 6 s is the broker's minimum session timeout (group.min.session.timeout.ms).
    const service = await startTestService(
      { topics, scorers: [{ scorer: judgeScorer('slow-judge', mockJudge({ answer: { score: 0.8 }, delayMs: 12_000 })), timeoutMs: 60_000 }] },
      { consumer: { sessionTimeoutMs: 6_000 } },
    );
    const records = await readUntil<ScoreRecord>(topics.results, (found) => found.length >= runIds.length, 60_000);
    expect(records.every((record) => record.status === 'scored')).toBe(true);
    // Settle, then check nothing was delivered twice: an eviction would rebalance, re-deliver
    // from the last commit and re-consume (consumed > runs), finishing old work as stale.
    await expect.poll(() => service.stats.completed, { timeout: 20_000 }).toBe(runIds.length);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(service.stats.consumed).toBe(runIds.length);
    expect(service.stats.staleCompletions).toBe(0);
  });
});
