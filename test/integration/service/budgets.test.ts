// Judge budgets on a real broker: a budget that runs out skips the rest of the runs as
// budget_exhausted decisions (named, counted, never silent), each judge execution carries its
// hand-computable cost, two instances in one group split a budget by their partitions, and
// retried judge calls count against the budget, so retries in flight never take the group past
// its cap (plus the documented one-share rebalance slack).
import { describe, expect, it, onTestFinished } from 'vitest';
import type { DecisionRecord } from '../../../src/kit/contracts/decision-record.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createOpenAICompatibleJudgeProvider } from '../../../src/kit/judge/openai-compatible.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { startFaultJudgeServer } from '../../helpers/fault-judge-server.ts';
import { answerLengthScorer, judgeScorer } from '../../fixtures/scorers.ts';
import { uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { committedTotal, produceRaw, readRecords, startTestService, useRetryPrefix, useServiceTopics } from '../../helpers/service.ts';

describe('judge budgets', () => {
  it('scores until the judge-call budget is spent, records every other run as budget_exhausted, and prices each call', async () => {
    const topics = await useServiceTopics(1);
    const judge = mockJudge({ answer: { score: 0.5 }, usage: { inputTokens: 1000, outputTokens: 200 } });
    const runIds = Array.from({ length: 10 }, (_, index) => `budget-${index}`);
    const service = await startTestService({
      topics,
      scorers: [{ scorer: judgeScorer('judged', judge) }],
      budgets: [{ name: 'judge-calls-per-hour', of: 'judgeCalls', max: 4, window: 'hour' }],
      pricing: { models: { 'mock-judge': { inputPerMillion: 2, outputPerMillion: 10 } }, currency: 'EUR' },
    });
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));

    const records = await readRecords<ScoreRecord>(topics.results, 4);
    const decisions = await readRecords<DecisionRecord>(topics.decisions, 6);
    expect(records.every((record) => record.status === 'scored')).toBe(true);
    // 1,000 input tokens × 2 / 1e6 + 200 output tokens × 10 / 1e6 = 0.002 + 0.002 = 0.004 EUR per call.
    for (const record of records) expect(record.judge?.generateScore?.executions[0]?.cost).toEqual({ amount: 0.004, unit: 'EUR', source: 'price-table' });
    for (const decision of decisions) {
      expect(decision).toMatchObject({ scorerId: 'judged', decision: 'skipped', reason: 'budget_exhausted', budget: { name: 'judge-calls-per-hour', window: 'hour' } });
      expect(decision.detail).toMatch(/judge-calls-per-hour/);
    }
    // Every run is accounted for: scored or skipped for budget, none twice, none lost.
    expect([...records, ...decisions].map((record) => record.runId).sort()).toEqual([...runIds].sort());
    expect(judge.calls).toHaveLength(4);
    await expect.poll(() => service.stats.skipsByReason.get('budget_exhausted')).toBe(6);
    expect(service.stats.budgetExhaustedByBudget.get('judge-calls-per-hour')).toBe(6);
  });

  it('splits a budget between two instances by the partitions each owns: together they stay at the budget', async () => {
    const topics = await useServiceTopics(4);
    const groupId = uniqueGroupId('budget-pair');
    const input = {
      topics,
      groupId,
      scorers: [{ scorer: answerLengthScorer }],
      budgets: [{ name: 'runs-per-hour', of: 'runs' as const, max: 8, window: 'hour' as const }],
    };
    const one = await startTestService(input);
    const two = await startTestService(input);
    // Once the group settled, each owns 2 of the 4 partitions and so half of the budget.
    await expect.poll(() => [one.spend.ledger?.share, two.spend.ledger?.share], { timeout: 30_000 }).toEqual([0.5, 0.5]);

    const runIds = Array.from({ length: 40 }, (_, index) => `pair-${index}`);
    await produceRaw(topics.runs, runIds.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId })), partition: index % 4 })));
    const records = await readRecords<ScoreRecord>(topics.results, 8);
    const decisions = await readRecords<DecisionRecord>(topics.decisions, 32);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 20_000 }).toBe(40);

    expect(one.stats.byScorer.get('answer-length')?.scored).toBe(4);
    expect(two.stats.byScorer.get('answer-length')?.scored).toBe(4);
    expect(new Set(records.map((record) => record.runId)).size).toBe(8);
    expect(decisions.every((decision) => decision.reason === 'budget_exhausted' && decision.budget?.name === 'runs-per-hour')).toBe(true);
    expect(new Set([...records, ...decisions].map((record) => record.runId))).toEqual(new Set(runIds));
  });

  it('with retries in flight the group never spends more than its cap plus one share: retried judge calls count against the budget', async () => {
    // The judge fails the first ten requests: every call the budget admits first fails and waits to be retried.
    const server = await startFaultJudgeServer((request) => (request <= 10 ? '503' : 'ok'));
    onTestFinished(() => server.close());
    const topics = await useServiceTopics(4);
    const groupId = uniqueGroupId('budget-retries');
    const provider = createOpenAICompatibleJudgeProvider({ baseURL: server.baseURL });
    const max = 10;
    const input = {
      topics: { ...topics, retry: useRetryPrefix() },
      groupId,
      judge: { models: { languageModel: (id: string) => provider.languageModel(id) }, callTimeoutMs: 1_000 },
      scorers: [{ scorer: judgeScorer('judged', 'judge' as never, 3_000), timeoutMs: 5_000 }],
      budgets: [{ name: 'calls-per-hour', of: 'judgeCalls' as const, max, window: 'hour' as const }],
      retries: { delaysMs: [300, 600] },
    };
    const one = await startTestService(input);
    const two = await startTestService(input);
    await expect.poll(() => [one.spend.ledger?.share, two.spend.ledger?.share], { timeout: 30_000 }).toEqual([0.5, 0.5]);
    const runIds = Array.from({ length: 30 }, (_, index) => `spend-${index}`);
    await produceRaw(topics.runs, runIds.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId })), partition: index % 4 })));
    // Every admitted pair failed and was retried a few times over.
    await expect.poll(() => one.stats.retriesAttempted + two.stats.retriesAttempted, { timeout: 30_000 }).toBeGreaterThanOrEqual(30);
    await expect.poll(() => committedTotal(groupId, topics.runs), { timeout: 20_000 }).toBe(runIds.length);
    // Spent: the judge's requests. The cap, plus the one extra share a rebalance can cost (docs/spend-and-replay.md).
    expect(server.requests).toBeLessThanOrEqual(max + max / 2);
    expect(server.requests).toBe(max);
    expect(one.spend.ledger!.used('calls-per-hour') + two.spend.ledger!.used('calls-per-hour')).toBeLessThanOrEqual(max);
    // The pairs refused at their first attempt are skipped for budget; the admitted ones wait, never skipped twice.
    const decisions = await readRecords<DecisionRecord>(topics.decisions, runIds.length - max);
    const skipped = decisions.filter((decision) => decision.decision === 'skipped');
    expect(skipped.every((decision) => decision.reason === 'budget_exhausted')).toBe(true);
    expect(one.stats.retriesDeferred + two.stats.retriesDeferred).toBeGreaterThanOrEqual(max);
    expect(one.stats.totals().failed + two.stats.totals().failed).toBe(0);
  });
});
