// Judge outages against the real broker and the real OpenAI-compatible provider, pointed at a
// fault-injecting HTTP server (test/helpers/fault-judge-server.ts): hung requests are aborted by
// the per-request timeout and retried within the scorer's deadline; pairs that fail transiently
// wait on the retry tiers and are scored once the judge recovers, none failed; `maxAgeMs` ends
// in a final `failed` record carrying every attempt's evidence; exactly-once shows each pair
// once; and a healthy judge leaves the retry tiers empty.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ScorestreamConfigInput } from '../../../src/engine/config/config-types.ts';
import type { DecisionRecord } from '../../../src/kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createOpenAICompatibleJudgeProvider } from '../../../src/kit/judge/openai-compatible.ts';
import { createAnswerRelevancyScorer } from '../../../src/kit/scorers/llm/answer-relevancy/index.ts';
import { createToxicityScorer } from '../../../src/kit/scorers/llm/toxicity/index.ts';
import { answerLengthScorer } from '../../fixtures/scorers.ts';
import { startFaultJudgeServer } from '../../helpers/fault-judge-server.ts';
import type { FaultJudgeServer, FaultMode } from '../../helpers/fault-judge-server.ts';
import { readAll } from '../../helpers/read-all.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readUntil, retryTierMessages, startTestService, useRetryPrefix, useServiceTopics } from '../../helpers/service.ts';

async function useJudgeServer(mode: FaultMode = 'ok'): Promise<FaultJudgeServer> {
  const server = await startFaultJudgeServer(mode);
  onTestFinished(() => server.close());
  return server;
}

/** Two built-in LLM scorers on the server's model 'judge' (SDK retries as given), and a code scorer. */
function judgeConfig(server: FaultJudgeServer, maxRetries: number) {
  const provider = createOpenAICompatibleJudgeProvider({ baseURL: server.baseURL });
  const judge = { model: 'judge', modelSettings: { maxRetries } };
  return {
    judge: { models: { languageModel: (id: string) => provider.languageModel(id) }, callTimeoutMs: 300 },
    scorers: [
      { scorer: createAnswerRelevancyScorer(judge), timeoutMs: 8_000 },
      { scorer: createToxicityScorer(judge), timeoutMs: 8_000 },
      { scorer: answerLengthScorer },
    ],
  } satisfies Partial<ScorestreamConfigInput>;
}

async function useTopics() {
  const topics = await useServiceTopics(2);
  return { ...topics, retry: useRetryPrefix() };
}

async function produceRuns(topic: string, prefix: string, count: number): Promise<string[]> {
  const runIds = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
  await produceRaw(topic, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
  return runIds;
}

const pairKey = (record: { runId: string; scorerId: string }) => `${record.runId}|${record.scorerId}`;

/** Resolves when `condition` holds (checked every 50 ms), or fails after `timeoutMs`. */
async function waitUntil(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}


describe('judge outages and the retry topic', () => {
  it('healthy judge: every pair scored at once, the retry topic receives nothing, slot waits are in the evidence', async () => {
    const server = await useJudgeServer('ok');
    const topics = await useTopics();
    await startTestService({ ...judgeConfig(server, 2), topics, concurrency: { judgeCallsPerModel: 2 } });
    await produceRuns(topics.runs, 'healthy', 6);
    const records = await readUntil<ScoreRecord>(topics.results, (seen) => seen.length >= 18);
    expect(records.map((record) => record.status)).toEqual(Array(18).fill('scored'));
    expect(await retryTierMessages(topics.retry)).toBe(0);
    const executions = records.flatMap((record) => Object.values(record.judge ?? {}).flatMap((step) => step?.executions ?? []));
    expect(executions.length).toBeGreaterThan(0);
    for (const execution of executions) expect(execution.queuedMs).toBeGreaterThanOrEqual(0);
    // Twelve LLM pairs through two slots: some waited.
    expect(executions.some((execution) => (execution.queuedMs ?? 0) > 0)).toBe(true);
  });

  it('hung requests are aborted by the per-request timeout and retried within the scorer deadline', async () => {
    const server = await useJudgeServer();
    // The first four requests hang; everything after answers.
    server.setPlan((n) => (n <= 4 ? 'hang' : 'ok'));
    const topics = await useTopics();
    await startTestService({ ...judgeConfig(server, 2), topics });
    await produceRuns(topics.runs, 'hung', 4);
    const records = await readUntil<ScoreRecord>(topics.results, (seen) => seen.length >= 12);
    expect(records.map((record) => record.status)).toEqual(Array(12).fill('scored'));
    expect(server.counts.hang).toBe(4);
    expect(server.hanging).toBe(0); // each hung request was aborted (its socket closed)
    expect(await retryTierMessages(topics.retry)).toBe(0);
    expect(records.every((record) => record.retries === undefined)).toBe(true);
  });

  it('a judge outage followed by recovery ends with every pair scored, none failed, each under its scoreId', async () => {
    const server = await useJudgeServer('503');
    const topics = await useTopics();
    const service = await startTestService({ ...judgeConfig(server, 0), topics, retries: { delaysMs: [300, 600, 1_000] } });
    const runIds = await produceRuns(topics.runs, 'outage', 8);
    // Sixteen LLM pairs fail and wait; the code scorer's eight are scored meanwhile.
    await waitUntil(() => service.stats.retriesDeferred >= 16, 'every LLM pair deferred');
    const deferred = await readUntil<ScoreRecord>(topics.results, (seen) => seen.length >= 8);
    expect(deferred.every((record) => record.scorerId === 'answer-length' && record.status === 'scored')).toBe(true);
    server.setPlan('ok');
    const records = await readUntil<ScoreRecord>(topics.results, (seen) => new Set(seen.map(pairKey)).size >= 24);
    expect(records.filter((record) => record.status !== 'scored')).toEqual([]);
    const byPair = new Map<string, Set<string>>();
    for (const record of records) byPair.set(pairKey(record), (byPair.get(pairKey(record)) ?? new Set()).add(record.scoreId));
    expect(byPair.size).toBe(runIds.length * 3);
    for (const ids of byPair.values()) expect(ids.size).toBe(1);
    const retried = records.filter((record) => record.retries !== undefined);
    expect(retried).toHaveLength(16);
    for (const record of retried) {
      expect(record.retries!.attempts.length).toBeGreaterThanOrEqual(1);
      expect(record.retries!.attempts[0]!.error).toMatchObject({ retryable: true });
    }
  });

  it('retries.maxAgeMs passed: a final `failed` record with every attempt’s evidence, and deferred decisions with attempt and due time', async () => {
    const server = await useJudgeServer('500');
    const topics = await useTopics();
    const { scorers: [relevancy], judge } = judgeConfig(server, 0);
    await startTestService({ judge, scorers: [relevancy!], topics, retries: { delaysMs: [200], maxAgeMs: 1_500 } });
    await produceRuns(topics.runs, 'aged', 2);
    const [first, second] = await readUntil<ScoreRecord>(topics.results, (seen) => seen.length >= 2, 30_000);
    for (const record of [first!, second!]) {
      expect(record).toMatchObject({ status: 'failed', error: { retryable: true } });
      const attempts = record.retries!.attempts;
      // Attempts every ~200 ms until 1.5 s after the first failure, the record being the last.
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      // Due times were honoured: without the gate a failing judge would be asked again at once, many times over.
      expect(attempts.length).toBeLessThanOrEqual(1_500 / 200 + 1);
      for (let index = 1; index < attempts.length; index += 1) {
        expect(Date.parse(attempts[index]!.failedAt) - Date.parse(attempts[index - 1]!.failedAt)).toBeGreaterThanOrEqual(200);
      }
      for (const attempt of attempts) {
        expect(attempt.error).toMatchObject({ retryable: true, failedStep: expect.any(String) });
        expect(Object.values(attempt.judge ?? {}).flatMap((step) => step?.executions ?? [])[0]).toMatchObject({ status: 'failed', error: { name: 'AI_APICallError' } });
      }
      expect(Date.parse(record.scoredAt) - Date.parse(record.retries!.firstFailedAt)).toBeGreaterThanOrEqual(1_500);
    }
    const decisions = await readAll<DecisionRecord>(topics.decisions, { isolation: 'read_committed' });
    expect(decisions.length).toBeGreaterThanOrEqual(2 * 3);
    for (const decision of decisions) {
      expect(decision).toMatchObject({ decision: 'deferred', reason: 'deferred_retry', retry: { attempt: expect.any(Number), dueAt: expect.any(String) } });
    }
  });

  it('exactly-once: across an outage each pair is read once', async () => {
    const server = await useJudgeServer('503');
    const topics = await useTopics();
    const service = await startTestService({ ...judgeConfig(server, 0), topics, delivery: 'exactly-once', retries: { delaysMs: [300, 600] } });
    const runIds = await produceRuns(topics.runs, 'eos', 6);
    await waitUntil(() => service.stats.retriesDeferred >= 12, 'every LLM pair deferred');
    server.setPlan('ok');
    await waitUntil(() => service.stats.totals().scored >= 18, 'every pair scored');
    await service.stop({ timeoutMs: 5_000 });
    const records = await readAll<ScoreRecord>(topics.results, { isolation: 'read_committed' });
    expect(records.map(pairKey).sort()).toEqual(runIds.flatMap((runId) => ['answer-relevancy', 'toxicity', 'answer-length'].map((scorerId) => `${runId}|${scorerId}`)).sort());
    expect(records.every((record) => record.status === 'scored')).toBe(true);
    expect(await retryTierMessages(topics.retry)).toBeGreaterThanOrEqual(12);
  });
});
