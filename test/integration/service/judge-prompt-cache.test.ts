// Prompts laid out for the providers' caches, through the real provider path and a real broker
// (docs/spend-and-replay.md, prompts laid out for caches): a judge step whose createPrompt returns
// layoutPrompt({ fixed, material }) sends its fixed part as the first block of the user turn with
// an Anthropic cache breakpoint; an Anthropic-shaped server (@ai-sdk/anthropic against
// anthropic-judge-server.ts) writes the marked prefix on the first call and reads it on the next
// ones, reporting `cache_creation_input_tokens` and `cache_read_input_tokens`; the records, the
// cost metric and a cost budget price them at claude-sonnet-4's cache rates — the figures worked
// out here by hand from the bodies the server received.
import { createAnthropic } from '@ai-sdk/anthropic';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { layoutPrompt } from '../../../src/kit/judge/prompt-layout.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { getAssistantMessageFromRunOutput } from '../../../src/kit/utils/run-output.ts';
import { renderedAnthropicPrompt, startAnthropicJudgeServer } from '../../helpers/anthropic-judge-server.ts';
import { charsPerToken, tokensOf } from '../../helpers/prompt-cache.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { installTestTelemetry, metricValue } from '../../helpers/spans.ts';
import type { TelemetryCapture } from '../../helpers/spans.ts';

let capture: TelemetryCapture;
beforeAll(async () => {
  capture = await installTestTelemetry();
});
afterAll(async () => {
  await capture.uninstall();
});

/** A rubric long enough to cache (Anthropic caches a prefix from 1,024 tokens): the same on every run. */
const rubric = Array.from({ length: 60 }, (_, index) => `${index + 1}. A support answer scores lower when it misses point ${index + 1} of the policy: say what the customer must do next.`).join('\n');
const policyJudge = createScorer({ id: 'policy-judge', description: 'Grades answers against the support policy', judge: { model: 'claude-sonnet-4-20250514', instructions: 'You grade support answers against the policy.' } }).generateScore({
  description: 'policy',
  createPrompt: ({ run }) => layoutPrompt({ fixed: `Grade the answer below against this rubric, from 0 to 1.\n\n${rubric}`, material: `<answer>\n${getAssistantMessageFromRunOutput(run.output) ?? ''}\n</answer>`, closing: 'Give the score.' }),
});

// claude-sonnet-4-20250514 takes claude-sonnet-4's price in the shipped table, USD per million: input 3, cache reads 0.30, cache writes 3.75, output 15.
const perMillion = { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 };

describe('prompts laid out for caches, Anthropic-shaped', () => {
  it('marks the fixed part as a cache breakpoint; cache writes and reads are priced at their rates in records, metrics and a cost budget', async () => {
    const server = await startAnthropicJudgeServer();
    onTestFinished(() => server.close());
    const anthropic = createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' });
    const topics = await useServiceTopics(1);
    const runIds = ['cache-1', 'cache-2', 'cache-3'];
    await produceRaw(topics.runs, runIds.map((runId) => ({ key: runId, value: JSON.stringify(testRun({ runId })) })));
    const service = await startTestService({
      topics,
      judge: { models: { languageModel: (id: string) => anthropic.languageModel(id) } },
      scorers: [{ scorer: policyJudge }],
      // One run at a time: the first call writes the cache, the later ones read it (concurrent first calls would all write).
      concurrency: { runsInFlight: 1 },
      budgets: [{ name: 'judge-spend-per-day', of: 'cost' as const, max: 10, window: 'day' as const }],
    });
    const records = await readRecords<ScoreRecord>(topics.results, runIds.length);
    expect(records.map((record) => record.status)).toEqual(['scored', 'scored', 'scored']);

    // What the server received: the fixed part alone in the user turn's first block, marked; the same bytes every run.
    expect(server.bodies).toHaveLength(runIds.length);
    const firstBlocks = server.bodies.map((body) => (body.messages![0]!.content as { text: string; cache_control?: unknown }[])[0]!);
    for (const block of firstBlocks) {
      expect(block.cache_control).toEqual({ type: 'ephemeral' });
      expect(block.text.startsWith('Grade the answer below against this rubric')).toBe(true);
      expect(block.text).not.toContain('cache-');
    }
    expect(new Set(firstBlocks.map((block) => block.text)).size).toBe(1);

    // By hand: each request's marked prefix (the mock counts 4 characters a token), written once, then read.
    const expected = server.bodies.map((body, index) => {
      const { text, breakpoints } = renderedAnthropicPrompt(body);
      const cachedTokens = Math.floor(breakpoints.at(-1)! / charsPerToken);
      expect(cachedTokens).toBeGreaterThanOrEqual(1024);
      const rest = tokensOf(text) - cachedTokens;
      const cost = (rest * perMillion.input + (index === 0 ? cachedTokens * perMillion.cacheWrite : cachedTokens * perMillion.cacheRead) + 10 * perMillion.output) / 1e6;
      return { cachedTokens, rest, cost };
    });
    const byRun = new Map(records.map((record) => [record.runId, record]));
    // Records in the order the runs were scored (one at a time: the order produced).
    let total = 0;
    runIds.forEach((runId, index) => {
      const execution = byRun.get(runId)!.judge!.generateScore!.executions[0]!;
      const { cachedTokens, rest, cost } = expected[index]!;
      expect(execution.usage).toMatchObject({ inputTokens: rest + cachedTokens, outputTokens: 10, ...(index === 0 ? { cacheCreationInputTokens: cachedTokens } : { cachedInputTokens: cachedTokens }) });
      expect(execution.cost!.amount).toBeCloseTo(cost, 9);
      total += cost;
    });
    expect(expected[1]!.cost).toBeLessThan(expected[0]!.cost / 3);

    const metrics = await capture.collectMetrics();
    expect(metricValue(metrics, 'scorestream.judge.cost', { 'scorestream.scorer.id': 'policy-judge', 'gen_ai.request.model': 'claude-sonnet-4-20250514' })).toBeCloseTo(total, 9);
    expect(metricValue(metrics, 'scorestream.judge.usage', { 'scorestream.scorer.id': 'policy-judge', 'gen_ai.token.type': 'cache_write' })).toBe(expected[0]!.cachedTokens);
    expect(metricValue(metrics, 'scorestream.judge.usage', { 'scorestream.scorer.id': 'policy-judge', 'gen_ai.token.type': 'cached_input' })).toBe(expected[1]!.cachedTokens + expected[2]!.cachedTokens);
    expect(service.spend.ledger!.used('judge-spend-per-day')).toBeCloseTo(total, 9);
  }, 120_000);
});
