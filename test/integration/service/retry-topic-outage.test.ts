// Longer judge outages against the real broker: a 30-second outage (503s, then hanging requests)
// ends with every pair scored once the judge is back; and a service SIGKILLed while pairs wait on
// the retry topic loses none of them — the restarted process scores them all. The outage length
// is RETRY_OUTAGE_MS (default 30 000, the issue's); its recovery time is what docs/delivery.md cites.
import { describe, expect, it, onTestFinished } from 'vitest';
import { fileURLToPath } from 'node:url';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createOpenAICompatibleJudgeProvider } from '../../../src/kit/judge/openai-compatible.ts';
import { createAnswerRelevancyScorer } from '../../../src/kit/scorers/llm/answer-relevancy/index.ts';
import { createToxicityScorer } from '../../../src/kit/scorers/llm/toxicity/index.ts';
import { answerLengthScorer } from '../../fixtures/scorers.ts';
import { startFaultJudgeServer } from '../../helpers/fault-judge-server.ts';
import type { FaultJudgeServer, FaultMode } from '../../helpers/fault-judge-server.ts';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { KAFKA_DEFAULTS } from '../../../kafka/kafka-defaults.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';
import { produceRaw, readUntil, retryTierMessages, startTestService, useRetryTiers, useServiceTopics } from '../../helpers/service.ts';

const outageMs = Number(process.env.RETRY_OUTAGE_MS ?? '30000');
const retryConfig = fileURLToPath(new URL('../../fixtures/retry.config.ts', import.meta.url));

async function useJudgeServer(mode: FaultMode): Promise<FaultJudgeServer> {
  const server = await startFaultJudgeServer(mode);
  onTestFinished(() => server.close());
  return server;
}

async function produceRuns(topic: string, prefix: string, count: number): Promise<string[]> {
  const runIds = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
  await produceRaw(topic, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
  return runIds;
}

const pairKey = (record: { runId: string; scorerId: string }) => `${record.runId}|${record.scorerId}`;
const scoredPairs = (records: ScoreRecord[]) => new Set(records.filter((record) => record.status === 'scored').map(pairKey));

async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('judge outages, longer', () => {
  it(`a ${outageMs / 1000} s outage (503s, then hanging requests) ends with every pair scored, none failed`, { timeout: outageMs + 90_000 }, async () => {
    const server = await useJudgeServer('503');
    const topics = await useServiceTopics(2);
    const { retry } = await useRetryTiers([1_000, 2_000, 4_000]);
    const provider = createOpenAICompatibleJudgeProvider({ baseURL: server.baseURL });
    const judge = { model: 'judge', modelSettings: { maxRetries: 1 } };
    const service = await startTestService({
      topics: { ...topics, retry },
      judge: { models: { languageModel: (id: string) => provider.languageModel(id) }, callTimeoutMs: 500 },
      scorers: [{ scorer: createAnswerRelevancyScorer(judge), timeoutMs: 8_000 }, { scorer: createToxicityScorer(judge), timeoutMs: 8_000 }, { scorer: answerLengthScorer }],
      retries: { delaysMs: [1_000, 2_000, 4_000] },
    });
    const outageStarted = Date.now();
    const runIds = await produceRuns(topics.runs, 'outage30', 10);
    await new Promise((resolve) => setTimeout(resolve, outageMs / 2));
    server.setPlan('hang');
    await new Promise((resolve) => setTimeout(resolve, outageStarted + outageMs - Date.now()));
    server.setPlan('ok');
    const recovered = Date.now();
    const records = await readUntil<ScoreRecord>(topics.results, (seen) => scoredPairs(seen).size >= runIds.length * 3, 60_000);
    const recoveryMs = Date.now() - recovered;
    expect(records.filter((record) => record.status !== 'scored')).toEqual([]);
    expect(service.stats.retriesDeferred).toBeGreaterThanOrEqual(20);
    expect(service.stats.retriesExhausted).toBe(0);
    expect(server.counts.hang).toBeGreaterThan(0);
    // Recovery takes at most the longest delay plus the scoring itself.
    expect(recoveryMs).toBeLessThan(20_000);
    console.info(`[retry-topic-outage] ${outageMs} ms outage: every pair scored ${recoveryMs} ms after recovery; ${service.stats.retriesDeferred} deferrals, ${server.requests} judge requests`);
  });

  it('SIGKILL while pairs wait on the retry topic loses none: the restarted service scores them all', { timeout: 180_000 }, async () => {
    const server = await useJudgeServer('503');
    const topics = await useServiceTopics(2);
    const { retry } = await useRetryTiers([500, 1_000]);
    const groupId = uniqueGroupId('retry-kill');
    const env = { SCORESTREAM_JUDGE_BASE_URL: server.baseURL, SCORESTREAM_JUDGE_MODEL: 'judge', SCORESTREAM_TOPIC_RETRY: retry, SCORESTREAM_TOPIC_DECISIONS: topics.decisions, FIXTURE_RETRY_DELAYS_MS: '500,1000' };
    const first = spawnService({ topics, groupId, env, config: retryConfig });
    await waitForLog(first, /scorestream is consuming/);
    const runIds = await produceRuns(topics.runs, 'killed', 8);
    // Every LLM pair failed and waits (deferred at least once, then again and again while down).
    await waitUntil(async () => (await retryTierMessages(retry)) >= 16 * 2, 'the LLM pairs waiting on the retry tiers');
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    server.setPlan('ok');
    const second = spawnService({ topics, groupId, env, config: retryConfig });
    // The killed member holds its partitions until its session times out, and the second joins only
    // then: its first log line can come a whole session timeout after it starts, plus its own boot.
    await waitForLog(second, /scorestream is consuming/, KAFKA_DEFAULTS.consumer.sessionTimeoutMs + 30_000);
    const records = await readUntil<ScoreRecord>(topics.results, (seen) => scoredPairs(seen).size >= runIds.length * 3, 60_000);
    expect(records.filter((record) => record.status === 'failed')).toEqual([]);
    // At-least-once: a pair scored twice (re-read after the kill) keeps its scoreId.
    const ids = new Map<string, Set<string>>();
    for (const record of records) ids.set(pairKey(record), (ids.get(pairKey(record)) ?? new Set()).add(record.scoreId));
    for (const set of ids.values()) expect(set.size).toBe(1);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  });
});
