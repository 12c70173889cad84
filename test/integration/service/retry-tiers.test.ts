// Retries are never held behind a later one (docs/delivery.md, retries): one retry topic per delay,
// each read in order, so in a sustained judge outage under steady traffic every attempt is made at
// its own due time — a pair due in 2 s never waits behind one due in 20 s. Measured from the
// records alone: each attempt's start against the previous attempt's failure plus its delay.
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createOpenAICompatibleJudgeProvider } from '../../../src/kit/judge/openai-compatible.ts';
import { judgeScorer } from '../../fixtures/scorers.ts';
import { startFaultJudgeServer } from '../../helpers/fault-judge-server.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readUntil, startTestService, useRetryTiers, useServiceTopics } from '../../helpers/service.ts';

const delaysMs = [2_000, 20_000];
/** How late an attempt may start after its due time: a fetch (100 ms here), the scoring, a loaded machine. */
const boundMs = 2_000;

/** Every retried attempt's lateness: its start minus the previous failure plus the delay it waited. */
function lateness(record: ScoreRecord): number[] {
  const attempts = record.retries?.attempts ?? [];
  const starts = [...attempts.slice(1).map((attempt) => Date.parse(attempt.failedAt) - attempt.durationMs), Date.parse(record.scoredAt) - record.durationMs];
  return attempts.map((attempt, index) => starts[index]! - (Date.parse(attempt.failedAt) + delaysMs[Math.min(index + 1, delaysMs.length) - 1]!));
}

/** The judge calls' time in one attempt's evidence. */
function judgeTime(judge: ScoreRecord['judge']): number {
  return Object.values(judge ?? {}).reduce((sum, step) => sum + (step?.executions ?? []).reduce((inStep, execution) => inStep + execution.durationMs, 0), 0);
}

/**
 * A retried record's latency (docs/observability.md, where each score's time went): its wait on
 * the tiers is at least the delays it was given and at most each attempt's start after the last
 * failure; its judge time is every attempt's; its way in is the first attempt's.
 */
function expectRetryLatency(record: ScoreRecord): void {
  const attempts = record.retries!.attempts;
  const latency = record.latency!;
  const starts = [...attempts.slice(1).map((attempt) => Date.parse(attempt.failedAt) - attempt.durationMs), Date.parse(record.scoredAt) - record.durationMs];
  const waitedAtMost = attempts.reduce((sum, attempt, index) => sum + starts[index]! - Date.parse(attempt.failedAt), 0);
  const delaysGiven = attempts.reduce((sum, _attempt, index) => sum + delaysMs[Math.min(index, delaysMs.length - 1)]!, 0);
  expect(latency.retryWaitMs, record.runId).toBeGreaterThanOrEqual(delaysGiven - attempts.length);
  expect(latency.retryWaitMs, record.runId).toBeLessThanOrEqual(waitedAtMost + attempts.length);
  expect(latency.judgeMs, record.runId).toBe(judgeTime(record.judge) + attempts.reduce((sum, attempt) => sum + judgeTime(attempt.judge), 0));
  expect(latency.kafkaMs, record.runId).toBeGreaterThanOrEqual(0);
  expect(latency.runSlotMs, record.runId).toBeGreaterThanOrEqual(0);
  // Every attempt waited to start after its slot: the first's, carried, and this one's.
  expect(latency.dispatchMs, record.runId).toBeGreaterThanOrEqual(0);
}

describe('retry tiers', () => {
  it('in a sustained judge outage under steady traffic, no pair waits past its own due time by more than a small bound', { timeout: 150_000 }, async () => {
    const server = await startFaultJudgeServer('503');
    onTestFinished(() => server.close());
    const topics = await useServiceTopics(1);
    const { retry } = await useRetryTiers(delaysMs, 1);
    const provider = createOpenAICompatibleJudgeProvider({ baseURL: server.baseURL });
    await startTestService({
      topics: { ...topics, retry },
      judge: { models: { languageModel: (id: string) => provider.languageModel(id) }, callTimeoutMs: 500 },
      scorers: [{ scorer: judgeScorer('judge', 'judge' as never, 2_000), timeoutMs: 4_000 }],
      retries: { delaysMs },
    });
    // 8 s of outage while a run arrives every 250 ms for 12 s: runs of the first seconds fail twice
    // (their second wait is 20 s), later ones once, with 2 s to wait — behind the 20 s ones in one topic.
    const started = Date.now();
    const runIds: string[] = [];
    const producing = (async () => {
      while (Date.now() - started < 12_000) {
        const runId = `steady-${runIds.length}`;
        runIds.push(runId);
        await produceRaw(topics.runs, [{ key: runId, value: JSON.stringify(testRun({ runId })) }]);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    server.setPlan('ok');
    await producing;
    const records = await readUntil<ScoreRecord>(topics.results, (seen) => new Set(seen.filter((record) => record.status === 'scored').map((record) => record.runId)).size >= runIds.length, 90_000);
    const retried = records.filter((record) => record.status === 'scored' && record.retries !== undefined);
    const late = retried.flatMap(lateness);
    const twice = retried.filter((record) => record.retries!.attempts.length >= 2);
    console.info(`[retry-tiers] ${runIds.length} runs, ${retried.length} scored after retries (${twice.length} after two failures); worst lateness ${Math.max(...late)} ms over ${late.length} attempts`);
    expect(twice.length).toBeGreaterThan(0); // some pairs did wait on the 20 s tier
    expect(retried.length - twice.length).toBeGreaterThan(0); // and others on the 2 s tier behind them
    expect(records.filter((record) => record.status !== 'scored')).toEqual([]);
    for (const value of late) expect(value).toBeLessThan(boundMs);
    for (const record of retried) expectRetryLatency(record);
  });
});
