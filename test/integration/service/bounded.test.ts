// Bounded resources under a backlog: never more than `runsInFlight` runs in flight nor
// `judgeCallsPerModel` concurrent calls to one judge model (also for a model object given
// directly in a scorer's judge config, and for a classifier's decision model); partitions are
// paused while full and resumed, and every run is still scored.
import { describe, expect, it } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { Classifier, createClassifierScorer } from '../../../src/index.ts';
import { judgeScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { decisionResult, questions, scriptedDecisionModel } from '../../unit/src/kit/classifier/fixtures.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readUntil, startTestService, useServiceTopics } from '../../helpers/service.ts';

describe('bounded resources', () => {
  it('caps runs in flight and judge calls per model, pausing partitions while full', async () => {
    const topics = await useServiceTopics(3);
    const runIds = Array.from({ length: 120 }, (_, index) => `bounded-${index}`);
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    const judge = mockJudge({ modelId: 'counting-judge', answer: { score: 0.5 }, delayMs: 40 });
    const service = await startTestService({
      topics,
      scorers: [{ scorer: judgeScorer('capped-judge', judge) }],
      concurrency: { runsInFlight: 8, judgeCallsPerModel: 3 },
    });
    let maxInFlight = 0;
    let sawPaused = false;
    const sampler = setInterval(() => {
      maxInFlight = Math.max(maxInFlight, service.stats.inFlight);
      if (service.stats.pausedPartitions.size > 0) sawPaused = true;
    }, 5);
    try {
      const records = await readUntil<ScoreRecord>(topics.results, (found) => new Set(found.map((record) => record.runId)).size === runIds.length, 90_000);
      expect(records.every((record) => record.status === 'scored')).toBe(true);
    } finally {
      clearInterval(sampler);
    }
    expect(judge.maxActiveCalls).toBe(3);
    expect(judge.calls.length).toBeGreaterThanOrEqual(runIds.length);
    expect(maxInFlight).toBeLessThanOrEqual(8);
    expect(maxInFlight).toBeGreaterThan(3);
    expect(sawPaused).toBe(true);
    await expect.poll(() => service.stats.pausedPartitions.size, { timeout: 10_000 }).toBe(0);
  });

  it("caps a classifier scorer's decision-model calls per model too", async () => {
    const topics = await useServiceTopics(3);
    const runIds = Array.from({ length: 40 }, (_, index) => `classified-${index}`);
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    const calls = { active: 0, max: 0, total: 0 };
    const { model } = scriptedDecisionModel([
      async () => {
        calls.active += 1;
        calls.total += 1;
        calls.max = Math.max(calls.max, calls.active);
        await new Promise((resolve) => setTimeout(resolve, 30));
        calls.active -= 1;
        return decisionResult();
      },
    ]);
    const classifier = new Classifier({ id: 'tone-classifier', model, questions });
    const scorer = createClassifierScorer({ id: 'tone', classifier, question: 'tone', scores: { polite: 1, neutral: 0.5, rude: 0 }, state: ({ run }) => ({ runId: String(run.runId) }) });
    const service = await startTestService({ topics, scorers: [{ scorer }], concurrency: { runsInFlight: 16, judgeCallsPerModel: 2 } });
    const records = await readUntil<ScoreRecord>(topics.results, (found) => new Set(found.map((record) => record.runId)).size === runIds.length, 60_000);
    expect(records.every((record) => record.status === 'scored' && record.score === 1)).toBe(true);
    expect(calls.total).toBeGreaterThanOrEqual(runIds.length);
    expect(calls.max).toBe(2);
    expect(service.models.limiters.get('mock-provider:mock-decider')?.limit).toBe(2);
  });
});
