// Judge metrics: every provider attempt is a call (retries included), tokens by type, errors by
// type, durations per model; models reached through the resolver are measured once each, and a
// missing resolver stays missing.
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { customProvider, generateText, streamText } from 'ai';
import { MockLanguageModelV4, simulateReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createJudgeMetrics, instrumentJudgeModels } from '../../../otel/judge-metrics.ts';
import { mockJudge, providerError } from '../../../src/kit/testing/mock-judge.ts';
import { CollectingMetricReader, histogramTotals, metricValue } from '../../helpers/spans.ts';

/** A judge answering `{"score":0.5}` with 120 input and 7 output tokens. */
const judgeModel = (modelId: string) => mockJudge({ modelId, answer: { score: 0.5 }, usage: { inputTokens: 120, outputTokens: 7 } });

function meterWithReader() {
  const reader = new CollectingMetricReader();
  const provider = new MeterProvider({ readers: [reader] });
  return {
    meter: provider.getMeter('test'),
    async collect() {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics;
    },
  };
}

function clock(stepMs: number) {
  let now = 0;
  return () => (now += stepMs);
}

const model = (id: string) => ({ 'gen_ai.request.model': id, 'gen_ai.provider.name': 'mock-provider' });

describe('createJudgeMetrics', () => {
  it('counts a successful call, its tokens and its duration per model', async () => {
    const { meter, collect } = meterWithReader();
    const judge = createJudgeMetrics(meter, clock(250));
    const measured = judge.instrument(judgeModel('judge-a'));
    await generateText({ model: measured, prompt: 'rate it' });
    await generateText({ model: measured, prompt: 'rate it again' });
    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.judge.calls', { ...model('judge-a'), outcome: 'success' })).toBe(2);
    expect(metricValue(metrics, 'scorestream.judge.tokens', { ...model('judge-a'), 'gen_ai.token.type': 'input' })).toBe(240);
    expect(metricValue(metrics, 'scorestream.judge.tokens', { ...model('judge-a'), 'gen_ai.token.type': 'output' })).toBe(14);
    expect(metricValue(metrics, 'scorestream.judge.errors')).toBe(0);
    expect(histogramTotals(metrics, 'scorestream.judge.duration', model('judge-a'))).toEqual({ count: 2, sum: 0.5 });
  });

  it('records each call’s wait for a judge slot per model, in seconds', async () => {
    const { meter, collect } = meterWithReader();
    const judge = createJudgeMetrics(meter);
    judge.recordSlotWait({ provider: 'mock-provider', modelId: 'judge-a' }, 0);
    judge.recordSlotWait({ provider: 'mock-provider', modelId: 'judge-a' }, 1500);
    const metrics = await collect();
    expect(histogramTotals(metrics, 'scorestream.judge.slot_wait', model('judge-a'))).toEqual({ count: 2, sum: 1.5 });
  });

  it('counts every attempt of a retried call, and the failed ones as errors by type', async () => {
    const { meter, collect } = meterWithReader();
    const judge = createJudgeMetrics(meter);
    const flaky = mockJudge({ modelId: 'judge-flaky', answers: [providerError(503, { retryAfterMs: 1 }), { score: 0.5 }], usage: { inputTokens: 120, outputTokens: 7 } });
    await generateText({ model: judge.instrument(flaky), prompt: 'rate it', maxRetries: 1 });
    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.judge.calls', model('judge-flaky'))).toBe(2);
    expect(metricValue(metrics, 'scorestream.judge.calls', { ...model('judge-flaky'), outcome: 'error' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.judge.errors', { ...model('judge-flaky'), 'error.type': 'AI_APICallError 503' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.judge.tokens', { 'gen_ai.token.type': 'input' })).toBe(120);
    expect(histogramTotals(metrics, 'scorestream.judge.duration', { ...model('judge-flaky'), outcome: 'error' }).count).toBe(1);
  });

  it("measures a decision model's calls one by one, with its plain-number token counts", async () => {
    const { meter, collect } = meterWithReader();
    const judge = createJudgeMetrics(meter, clock(100));
    const decisionModel = { provider: 'mock-provider', modelId: 'classifier-a' };
    await judge.measureCall(decisionModel, async () => ({ answers: {}, usage: { inputTokens: 50, outputTokens: 3 } }));
    const refused = new Error('overloaded');
    await expect(judge.measureCall(decisionModel, async () => Promise.reject(refused))).rejects.toBe(refused);
    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.judge.calls', { ...model('classifier-a'), outcome: 'success' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.judge.calls', { ...model('classifier-a'), outcome: 'error' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.judge.errors', { ...model('classifier-a'), 'error.type': 'Error' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.judge.tokens', { ...model('classifier-a'), 'gen_ai.token.type': 'input' })).toBe(50);
    expect(metricValue(metrics, 'scorestream.judge.tokens', { ...model('classifier-a'), 'gen_ai.token.type': 'output' })).toBe(3);
  });

  it('passes the error through unchanged', async () => {
    const { meter, collect } = meterWithReader();
    const failure = new TypeError('bad request shape');
    const broken = createJudgeMetrics(meter).instrument(
      mockJudge({ modelId: 'judge-broken', answer: failure }),
    );
    await expect(generateText({ model: broken, prompt: 'x', maxRetries: 0 })).rejects.toBe(failure);
    expect(metricValue(await collect(), 'scorestream.judge.errors', { 'error.type': 'TypeError' })).toBe(1);
  });

  it('counts a streamed call and its usage from the finish part', async () => {
    const { meter, collect } = meterWithReader();
    const streaming = createJudgeMetrics(meter).instrument(
      new MockLanguageModelV4({
        modelId: 'judge-stream',
        doStream: {
          stream: simulateReadableStream({
            chunks: [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'fine' },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 120, noCache: 120, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 7, text: 7, reasoning: 0 } } },
            ],
          }),
        },
      }),
    );
    const result = streamText({ model: streaming, prompt: 'x' });
    expect(await result.text).toBe('fine');
    const metrics = await collect();
    expect(metricValue(metrics, 'scorestream.judge.calls', model('judge-stream'))).toBe(1);
    expect(metricValue(metrics, 'scorestream.judge.tokens', { ...model('judge-stream'), 'gen_ai.token.type': 'output' })).toBe(7);
  });

  it('keeps the model identity and wraps each model object once', () => {
    const { meter } = meterWithReader();
    const judge = createJudgeMetrics(meter);
    const raw = judgeModel('judge-a');
    const measured = judge.instrument(raw);
    expect(measured).not.toBe(raw);
    expect(judge.instrument(raw)).toBe(measured);
    expect(measured).toMatchObject({ modelId: 'judge-a', provider: 'mock-provider' });
  });
});

describe('instrumentJudgeModels', () => {
  it('measures the models a resolver hands out', async () => {
    const { meter, collect } = meterWithReader();
    const raw = judgeModel('judge-b');
    const resolver = instrumentJudgeModels(customProvider({ languageModels: { judge: raw } }), createJudgeMetrics(meter))!;
    const resolved = resolver.languageModel('judge');
    expect(resolved).not.toBe(raw);
    expect(resolver.languageModel('judge')).toBe(resolved);
    await generateText({ model: resolved, prompt: 'x' });
    expect(metricValue(await collect(), 'scorestream.judge.calls', model('judge-b'))).toBe(1);
  });

  it('passes resolver errors through and keeps "no resolver" as undefined', () => {
    const { meter } = meterWithReader();
    const metrics = createJudgeMetrics(meter);
    expect(instrumentJudgeModels(undefined, metrics)).toBeUndefined();
    const resolver = instrumentJudgeModels(customProvider({ languageModels: {} }), metrics)!;
    expect(() => resolver.languageModel('missing')).toThrow(/missing/);
  });
});
