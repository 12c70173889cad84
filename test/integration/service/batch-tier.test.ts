// The batch tier against the real broker (docs/spend-and-replay.md, the batch tier): a two-step
// judge scorer in batch mode, through the real OpenAI-compatible provider, its batches on the
// repo's mock batch server (OpenAI's Batch API shape), against the same scorer judged live on a
// live judge server answering the same bodies the same way. Every pair is scored once, with the
// live path's score id, score, verdict and reason, at the batch rate; nothing is submitted twice,
// across a SIGKILL with batches open too; requests that fail inside their batch recover through
// the ordinary retry tiers.
import { createAnthropic } from '@ai-sdk/anthropic';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { batchStateTopic, batchTierTopic, replayRetryPrefix } from '../../../src/engine/topology/batch-topics.ts';
import { scoreIdFor } from '../../../src/kit/contracts/score-id.ts';
import { startReplay } from '../../../service/replay.ts';
import type { DecisionRecord } from '../../../src/kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { batchJudgeConfig, liveJudgeConfig } from '../../fixtures/batch-judge.ts';
import type { BatchTiming } from '../../fixtures/batch-judge.ts';
import { startFaultJudgeServer } from '../../helpers/fault-judge-server.ts';
import { testBrokers, testKafka, uniqueGroupId } from '../../helpers/kafka.ts';
import { startMockBatchServer } from '../../helpers/mock-batch-server.ts';
import type { MockBatchServerOptions } from '../../helpers/mock-batch-server.ts';
import { readAll } from '../../helpers/read-all.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readUntil, silentLogger, startTestService, testServiceFetchWait, useRetryPrefix, useServiceTopics } from '../../helpers/service.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';
import { fileURLToPath } from 'node:url';

const batchConfigFile = fileURLToPath(new URL('../../fixtures/batch.config.ts', import.meta.url));

async function useBatchServer(options: MockBatchServerOptions) {
  const server = await startMockBatchServer(options);
  onTestFinished(() => server.close());
  return server;
}

async function useTopics() {
  return { ...(await useServiceTopics(2)), retry: useRetryPrefix() };
}

/** Runs whose answers differ, so that no two pairs ask the same question. */
async function produceRuns(topic: string, count: number): Promise<string[]> {
  const runIds = Array.from({ length: count }, (_, index) => `batch-run-${index}`);
  const output = (index: number) => (index % 2 === 0 ? `Thank you for waiting, order ${index} left today.` : `Order ${index}? Not my problem.`);
  await produceRaw(topic, runIds.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId, answer: output(index) })) })));
  return runIds;
}

/** A mock batch server's pick (`fails`, `expires`) of the requests at the positions `at` says, each once: those it picked. */
function onceAt(at: (index: number) => boolean) {
  const picked = new Set<string>();
  const pick = (customId: string, index: number) => {
    if (!at(index) || picked.has(customId)) return false;
    picked.add(customId);
    return true;
  };
  return { picked, pick };
}

const scored = (count: number) => (records: ScoreRecord[]) => new Set(records.filter((record) => record.status === 'scored').map((record) => record.runId)).size >= count;

/** What a pair's score says, keyed by run: its id, score, verdict and reason. */
function byRun(records: readonly ScoreRecord[]) {
  return new Map(records.filter((record) => record.status === 'scored').map((record) => [record.runId, { scoreId: record.scoreId, score: (record as { score: number }).score, reason: record.reason }]));
}

/** The live reference: the same runs, the same binding, judged live. */
async function liveReference(runs: number) {
  const live = await startFaultJudgeServer('ok');
  onTestFinished(() => live.close());
  const topics = await useTopics();
  await produceRuns(topics.runs, runs);
  await startTestService({ topics, ...liveJudgeConfig(live.baseURL) });
  return readUntil<ScoreRecord>(topics.results, scored(runs));
}

async function scoreInBatchMode(batchURL: string, runs: number, delivery: 'at-least-once' | 'exactly-once', timing: BatchTiming = {}) {
  const topics = await useTopics();
  await produceRuns(topics.runs, runs);
  const service = await startTestService({ topics, delivery, retries: { delaysMs: [300] }, ...batchJudgeConfig(batchURL, timing) });
  return { topics, service };
}

describe('the batch tier', () => {
  for (const delivery of ['at-least-once', 'exactly-once'] as const) {
    it(`scores every pair once with the live path's score id, score and reason, each request submitted once, at the batch rate (${delivery})`, async () => {
      const runs = 24;
      const batches = await useBatchServer({ completeAfterMs: 150 });
      const [reference, { topics, service }] = await Promise.all([liveReference(runs), scoreInBatchMode(batches.baseURL, runs, delivery)]);
      const isolation = delivery === 'exactly-once' ? 'read_committed' : 'read_uncommitted';
      await readUntil<ScoreRecord>(topics.results, scored(runs), 60_000);
      const records = await readAll<ScoreRecord>(topics.results, { isolation });
      // The same pairs, ids, scores and reasons as the live path.
      expect(byRun(records)).toEqual(byRun(reference));
      if (delivery === 'exactly-once') expect(records.length).toBe(runs);
      // Two rounds per pair (the verdict, then the reason), each a `deferred_batch` decision.
      const decisions = (await readAll<DecisionRecord>(topics.decisions, { isolation })).filter((decision) => decision.reason === 'deferred_batch');
      expect(decisions.length).toBeGreaterThanOrEqual(runs * 2);
      // Nothing submitted twice; the same question from two pairs is one line.
      expect([...batches.submissions.values()].every((count) => count === 1)).toBe(true);
      // At the batch rate: half the live cost of the same usage.
      const live = byRunSpend(reference);
      for (const [runId, spend] of byRunSpend(records)) {
        expect(spend.judgeCalls).toBe(live.get(runId)!.judgeCalls);
        expect(spend.cost).toBeCloseTo(live.get(runId)!.cost / 2, 8);
      }
      const stats = service.stats.batch;
      console.info(`batch tier (${delivery}): ${runs} runs, ${stats.deferred} deferrals, ${stats.batchesSubmitted} batches (${stats.requestsSubmitted} requests) submitted, ${stats.polls} polls, ${stats.answered} answered, ${stats.resumed} pairs resumed; ${batches.submissions.size} distinct requests`);
    });
  }

  for (const delivery of ['at-least-once', 'exactly-once'] as const) {
  it(`a SIGKILL with batches open: the restarted service polls them from the state topic, submits nothing twice, and scores every pair (${delivery})`, async () => {
    const runs = 16;
    const batches = await useBatchServer({ completeAfterMs: 'manual' });
    const topics = await useTopics();
    await produceRuns(topics.runs, runs);
    const groupId = uniqueGroupId('batch-crash');
    const env = { FIXTURE_BATCH_URL: batches.baseURL, SCORESTREAM_TOPIC_RETRY: topics.retry, SCORESTREAM_TOPIC_DECISIONS: topics.decisions, SCORESTREAM_DELIVERY: delivery };
    const first = spawnService({ topics, groupId, config: batchConfigFile, env });
    await waitForLog(first, /submitted a judge batch/, 60_000);
    // The open batch is in the state topic before the kill.
    await expect.poll(async () => (await readAll<{ batchId: string }>(batchStateTopic(topics.retry), { isolation: 'read_uncommitted' }).catch(() => [])).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const submittedBeforeKill = batches.batchesCreated;
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const second = spawnService({ topics, groupId, config: batchConfigFile, env });
    await waitForLog(second, /restored the open judge batches/, 60_000);
    // Every round's batches end when the test says so.
    const ending = setInterval(() => batches.complete(), 200);
    onTestFinished(() => clearInterval(ending));
    const records = await readUntil<ScoreRecord>(topics.results, scored(runs), 90_000);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
    expect(new Set(records.map((record) => record.runId)).size).toBe(runs);
    expect(records.every((record) => record.status === 'scored')).toBe(true);
    // Pairs read again after the kill are scored again under the same id (at-least-once).
    expect(new Set(records.map((record) => record.scoreId)).size).toBe(runs);
    // Nothing was submitted twice: the first round's batches were polled after the restart.
    expect([...batches.submissions.entries()].filter(([, count]) => count > 1)).toEqual([]);
    const tierMessages = await readAll(batchTierTopic(topics.retry), { isolation: 'read_uncommitted' });
    console.info(`batch tier through a SIGKILL (${delivery}): ${submittedBeforeKill} batches open at the kill, ${batches.batchesCreated} in all, ${batches.polls} polls, ${tierMessages.length} batch-tier messages, ${records.length} score records for ${runs} pairs`);
  });
  }

  it('a rebalance moves the pairs waiting on batches and their open batches: the new owners poll them, nothing is submitted twice', async () => {
    const runs = 24;
    const batches = await useBatchServer({ completeAfterMs: 'manual' });
    const topics = await useTopics();
    await produceRuns(topics.runs, runs);
    const groupId = uniqueGroupId('batch-rebalance');
    const config = { topics, groupId, ...batchJudgeConfig(batches.baseURL) };
    const first = await startTestService(config);
    // Every pair waits on a first-round batch, open at the provider.
    await expect.poll(() => first.stats.batch.requestsSubmitted, { timeout: 30_000 }).toBe(runs);
    const second = await startTestService(config);
    // The second member took some batch-tier partitions and restored their open batches from the state topic.
    await expect.poll(() => second.stats.batch.restoredBatches, { timeout: 60_000 }).toBeGreaterThan(0);
    const ending = setInterval(() => batches.complete(), 200);
    onTestFinished(() => clearInterval(ending));
    const records = await readUntil<ScoreRecord>(topics.results, scored(runs), 90_000);
    expect(records.every((record) => record.status === 'scored')).toBe(true);
    expect([...batches.submissions.entries()].filter(([, count]) => count > 1)).toEqual([]);
    expect(new Set(records.map((record) => record.scoreId)).size).toBe(runs);
    console.info(`batch tier through a rebalance: ${second.stats.batch.restoredBatches} open batches restored by the new member, ${first.stats.batch.resumed + second.stats.batch.resumed} pairs resumed, ${batches.batchesCreated} batches in all`);
  });

  it('replay --judge-mode batch: the range scored through a batch tier of the replay\'s own, with the replay mark and the live ids; the replay ends once its batches answered', async () => {
    const runs = 12;
    const batches = await useBatchServer({ completeAfterMs: 100 });
    const topics = await useTopics();
    await produceRuns(topics.runs, runs);
    // The live config judges live; the replay asks for batch.
    const config = resolveConfig({ ...liveJudgeConfig('http://127.0.0.1:9/v1'), judge: { ...batchJudgeConfig(batches.baseURL).judge }, kafka: { brokers: testBrokers() }, groupId: uniqueGroupId('live'), topics });
    const replay = await startReplay({ config, logger: silentLogger(), ...testServiceFetchWait, pollIntervalMs: 100, consumer: { commitIntervalMs: 100 }, from: new Date(0), judgeMode: 'batch' });
    const outcome = await replay.outcome;
    expect(outcome).toMatchObject({ finished: true, progress: { done: runs, total: runs } });
    const records = await readAll<ScoreRecord>(topics.results, { isolation: 'read_uncommitted' });
    expect(records).toHaveLength(runs);
    for (const record of records) {
      expect(record).toMatchObject({ status: 'scored', replay: { id: replay.range.id } });
      expect(record.scoreId).toBe(scoreIdFor({ runId: record.runId, scorerId: 'politeness' }));
    }
    expect(outcome.stats?.batch).toMatchObject({ deferred: runs * 2, resumed: runs * 2 });
    expect([...batches.submissions.values()].every((count) => count === 1)).toBe(true);
    // Its own batch tier: the live service's was never touched.
    const admin = testKafka('scorestream-test-admin').admin();
    await admin.connect();
    const existing = await admin.listTopics().finally(() => admin.disconnect());
    expect(existing).toContain(batchTierTopic(replayRetryPrefix(topics.retry, replay.range.id)));
    expect(existing).not.toContain(batchTierTopic(topics.retry));
  });

  it('replay --judge-mode batch stopped while its pairs wait on batches: run again, it polls them and finishes, nothing submitted twice', async () => {
    const runs = 8;
    const batches = await useBatchServer({ completeAfterMs: 'manual' });
    const topics = await useTopics();
    await produceRuns(topics.runs, runs);
    const config = resolveConfig({ ...batchJudgeConfig(batches.baseURL), kafka: { brokers: testBrokers() }, groupId: uniqueGroupId('live'), topics });
    const options = { config, logger: silentLogger(), ...testServiceFetchWait, pollIntervalMs: 100, consumer: { commitIntervalMs: 100 }, from: new Date(0), judgeMode: 'batch' as const };
    const first = await startReplay(options);
    await expect.poll(() => batches.submissions.size, { timeout: 30_000 }).toBe(runs);
    // Its runs are all done, but its pairs wait: not finished.
    const stopped = await first.stop();
    expect(stopped.finished).toBe(false);
    expect(await readAll(topics.results, { isolation: 'read_uncommitted' })).toEqual([]);
    const ending = setInterval(() => batches.complete(), 200);
    onTestFinished(() => clearInterval(ending));
    const second = await startReplay(options);
    expect(second.range.id).toBe(first.range.id);
    expect(await second.outcome).toMatchObject({ finished: true });
    const records = await readAll<ScoreRecord>(topics.results, { isolation: 'read_uncommitted' });
    expect(new Set(records.filter((record) => record.status === 'scored').map((record) => record.runId)).size).toBe(runs);
    expect([...batches.submissions.entries()].filter(([, count]) => count > 1)).toEqual([]);
  });

  it('a backlog larger than maxPendingPairs is scored in waves: an instance never holds more pairs than that', async () => {
    const runs = 40;
    const maxPendingPairs = 6;
    const batches = await useBatchServer({ completeAfterMs: 100 });
    const { topics, service } = await scoreInBatchMode(batches.baseURL, runs, 'at-least-once', { maxPendingPairs, maxWaitMs: 100 });
    let peak = 0;
    const sampler = setInterval(() => {
      let held = 0;
      for (const read of service.stats.batch.byPartition.values()) for (const binding of read().byScorer) held += binding.pendingPairs;
      peak = Math.max(peak, held);
    }, 5);
    onTestFinished(() => clearInterval(sampler));
    const records = await readUntil<ScoreRecord>(topics.results, scored(runs), 90_000);
    clearInterval(sampler);
    expect(new Set(records.map((record) => record.runId)).size).toBe(runs);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(maxPendingPairs);
    const tier = await readAll<unknown>(batchTierTopic(topics.retry), { isolation: 'read_uncommitted' });
    const bytes = tier.reduce<number>((sum, message) => sum + JSON.stringify(message).length, 0);
    console.info(`batch tier in waves: ${runs} runs with maxPendingPairs ${maxPendingPairs}, at most ${peak} pairs held at once, ${service.stats.batch.batchesSubmitted} batches; a held pair's message ${Math.round(bytes / tier.length)} bytes on average`);
  });

  it('with liveOnFailure, requests that fail inside their batch are made live at once, at the list price, with no retry', async () => {
    const runs = 30;
    const { picked: failed, pick: failsOnce } = onceAt((index) => index < runs && index % 10 === 3);
    const batches = await useBatchServer({ completeAfterMs: 100, failStatus: 500, fails: failsOnce });
    const topics = await useTopics();
    await produceRuns(topics.runs, runs);
    const config = batchJudgeConfig(batches.baseURL);
    const service = await startTestService({ topics, ...config, scorers: [{ ...config.scorers[0]!, judge: { mode: 'batch', liveOnFailure: true } }] });
    const records = await readUntil<ScoreRecord>(topics.results, scored(runs), 60_000);
    expect(records.every((record) => record.status === 'scored' && record.retries === undefined)).toBe(true);
    expect(failed.size).toBe(3);
    expect(batches.liveCalls).toBe(3);
    // Each live call at the list price: its pair's first step costs twice a batch call's.
    const costs = records.map((record) => record.spend?.cost?.amount ?? 0).sort((left, right) => left - right);
    expect(costs.filter((cost) => cost > costs[0]!)).toHaveLength(3);
    // Made live, not asked of a batch again.
    for (const customId of failed) expect(batches.submissions.get(customId)).toBe(1);
    console.info(`batch tier with a live fallback: ${failed.size} requests failed inside their batch, ${batches.liveCalls} made live, ${service.stats.batch.failedAnswers} failed answers, no retry`);
  });

  it("Anthropic's Message Batches through @ai-sdk/anthropic, with expired requests submitted again alone: every pair scored once", async () => {
    const runs = 12;
    // Two of the first round's requests expire once; submitted again, they are answered.
    const { picked: expired, pick: expiresOnce } = onceAt((index) => index < 10 && index % 5 === 1);
    const batches = await useBatchServer({ completeAfterMs: 100, expires: expiresOnce });
    const topics = await useTopics();
    await produceRuns(topics.runs, runs);
    const models = (fetch: typeof globalThis.fetch) => {
      const anthropic = createAnthropic({ baseURL: batches.baseURL, apiKey: 'k', fetch });
      return { languageModel: (id: string) => anthropic(id) };
    };
    const scorer = createScorer({ id: 'politeness', description: 'Polite?', judge: { model: 'claude-judge', instructions: 'You judge support answers.', modelSettings: { maxRetries: 0, maxOutputTokens: 400 } } })
      .analyze({ description: 'Decide', outputSchema: z.object({ verdict: z.enum(['yes', 'no']) }), createPrompt: ({ run }) => `Is this answer polite? ${JSON.stringify(run.output)}` })
      .generateScore(({ results }) => (results.analyzeStepResult.verdict === 'yes' ? 1 : 0));
    const service = await startTestService({ topics, scorers: [{ scorer, judge: { mode: 'batch' } }], judge: { batch: { api: 'anthropic', baseURL: batches.baseURL, apiKey: 'k', models, maxWaitMs: 200, pollMs: 50, maxPollMs: 200 } } });
    const records = await readUntil<ScoreRecord>(topics.results, scored(runs), 60_000);
    expect(new Set(records.map((record) => record.runId)).size).toBe(runs);
    expect(records.every((record) => record.status === 'scored' && record.retries === undefined)).toBe(true);
    expect(batches.batches.every((batch) => batch.shape === 'anthropic')).toBe(true);
    expect(expired.size).toBe(2);
    // The expired ones twice (alone, in a later batch), every other once.
    expect([...batches.submissions.entries()].filter(([, count]) => count > 1).map(([customId]) => customId).sort()).toEqual([...expired].sort());
    expect(service.stats.batch.unanswered).toBe(2);
    console.info(`batch tier on Anthropic's shape: ${runs} pairs, ${batches.batchesCreated} batches, ${service.stats.batch.unanswered} requests expired and submitted again`);
  });

  it('a provider without a batch API fails the start with what to do', async () => {
    const refusing = await useBatchServer({ refuse: true });
    const topics = await useTopics();
    await expect(startTestService({ topics, ...batchJudgeConfig(refusing.baseURL) })).rejects.toThrow(/offers no batch API.*judge mode to 'live'/s);
  });

  it('requests that fail inside their batch (3 in 100, transiently) are recovered through the retry tiers', async () => {
    const runs = 100;
    // Three of the first hundred requests fail once inside their batch, with a 500; submitted again, they are answered.
    const { picked: failed, pick: failsOnce } = onceAt((index) => index < 100 && index % 33 === 5);
    const batches = await useBatchServer({ completeAfterMs: 100, failStatus: 500, fails: failsOnce });
    const { topics, service } = await scoreInBatchMode(batches.baseURL, runs, 'at-least-once', { maxRequests: 100, maxWaitMs: 500 });
    const records = await readUntil<ScoreRecord>(topics.results, scored(runs), 90_000);
    expect(records.every((record) => record.status === 'scored')).toBe(true);
    expect(failed.size).toBe(3);
    const recovered = records.filter((record) => record.retries !== undefined);
    expect(recovered.length).toBe(3);
    for (const record of recovered) expect(record.retries!.attempts[0]!.error).toMatchObject({ retryable: true });
    console.info(`batch tier with failures: ${failed.size} requests failed inside their batch, ${recovered.length} pairs recovered through the retry tiers; ${service.stats.batch.failedAnswers} failed answers, ${service.stats.batch.requestsSubmitted} requests submitted`);
  });
});

function byRunSpend(records: readonly ScoreRecord[]) {
  return new Map(records.filter((record) => record.status === 'scored').map((record) => [record.runId, { judgeCalls: record.spend?.judgeCalls ?? 0, cost: record.spend?.cost?.amount ?? Number.NaN }]));
}
