// The service's metrics on a real broker, read from the global MeterProvider the SDK set-up
// registers: records by scorer and status match what was published, consumed runs, skips and
// dead letters by reason, one latency observation per record, judge calls and tokens per model
// (for a model resolved by id), and the gauges back at rest when the work is done.
import { customProvider } from 'ai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ScoreRecord } from '../../../src/index.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { getAssistantMessageFromRunOutput } from '../../../src/kit/utils/run-output.ts';
import { answerLengthScorer, refundOnlyScorer, throwingScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { traceFor, testRun } from '../../helpers/runs.ts';
import { produceRaw, readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { histogramTotals, installTestTelemetry, metricValue } from '../../helpers/spans.ts';
import type { TelemetryCapture } from '../../helpers/spans.ts';

let capture: TelemetryCapture;

beforeAll(async () => {
  capture = await installTestTelemetry();
});
afterAll(async () => {
  await capture.uninstall();
});

/** A judge scorer that names its model by id, so the model comes through the service's resolver. */
const judgeById = createScorer({ id: 'judge-by-id', description: 'Asks the judge by model id', judge: { model: 'grader', instructions: 'You grade support answers.' } }).generateScore({
  description: 'Score the answer',
  createPrompt: ({ run }) => `Rate this answer from 0 to 1: ${getAssistantMessageFromRunOutput(run.output) ?? ''}`,
});

describe('service metrics', () => {
  it('count what the service published, skipped and dead-lettered', async () => {
    const topics = await useServiceTopics();
    const traced = ['m-1', 'm-2', 'm-3'];
    const events = new Map(traced.map((runId) => [runId, testRun({ runId })]));
    await produceRaw(topics.runs, [
      ...traced.map((runId) => ({ key: runId, value: JSON.stringify(events.get(runId)), headers: { traceparent: traceFor(runId).traceparent } })),
      { key: 'm-declined', value: JSON.stringify(testRun({ runId: 'm-declined' })), headers: { traceparent: traceFor('m-declined', false).traceparent } },
      { key: 'm-bad', value: '{"runId": ' },
      { key: 'm-echo', value: JSON.stringify(testRun({ runId: 'm-echo' })), headers: { 'scorestream-origin': 'scorestream' } },
    ]);
    const service = await startTestService({
      topics,
      traceSampling: 'follow',
      scorers: [{ scorer: answerLengthScorer }, { scorer: refundOnlyScorer }, { scorer: throwingScorer }, { scorer: judgeById }],
      judge: { models: customProvider({ languageModels: { grader: mockJudge({ answer: { score: 0.8 }, delayMs: 5 }) } }) },
    });
    const records = await readRecords<ScoreRecord>(topics.results, traced.length * 4);
    await vi.waitFor(() => expect(service.stats.completed).toBe(6), { timeout: 10_000 });
    const metrics = await capture.collectMetrics();

    for (const scorerId of ['answer-length', 'refund-only', 'always-throws', 'judge-by-id']) {
      for (const status of ['scored', 'not_scorable', 'failed'] as const) {
        const published = records.filter((record) => record.scorerId === scorerId && record.status === status).length;
        expect(metricValue(metrics, 'scorestream.records', { 'scorestream.scorer.id': scorerId, 'scorestream.status': status }), `${scorerId}/${status}`).toBe(published);
      }
    }
    expect(metricValue(metrics, 'scorestream.records')).toBe(records.length);
    expect(metricValue(metrics, 'scorestream.records', { 'scorestream.status': 'failed' })).toBe(3);
    expect(metricValue(metrics, 'scorestream.records', { 'scorestream.status': 'not_scorable' })).toBe(3);

    expect(metricValue(metrics, 'scorestream.runs.consumed')).toBe(6);
    expect(metricValue(metrics, 'scorestream.skips', { 'scorestream.skip.reason': 'trace_not_sampled' })).toBe(4);
    expect(metricValue(metrics, 'scorestream.runs.trace_unsampled')).toBe(1);
    expect(metricValue(metrics, 'scorestream.skips', { 'scorestream.skip.reason': 'own_output' })).toBe(1);
    expect(metricValue(metrics, 'scorestream.dead_letters', { 'scorestream.dead_letter.reason': 'invalid_json' })).toBe(1);

    const latency = histogramTotals(metrics, 'scorestream.event_to_result.duration');
    expect(latency.count).toBe(records.length);
    expect(latency.sum).toBeGreaterThan(0);
    expect(histogramTotals(metrics, 'scorestream.event_to_result.duration', { 'scorestream.scorer.id': 'always-throws', 'scorestream.status': 'failed' }).count).toBe(3);

    // Where each record's time went: every record has its way in and its scorer's run, a judge's
    // record its judge calls; the stages it carries sum to its event → scoredAt time (what is not
    // timed between them is rounding, half a millisecond a stage).
    for (const record of records) {
      const latency = record.latency!;
      expect(Object.keys(latency).sort(), record.scorerId).toEqual(record.scorerId === 'judge-by-id' ? ['dispatchMs', 'judgeMs', 'kafkaMs', 'runSlotMs', 'scoringMs'] : ['dispatchMs', 'kafkaMs', 'runSlotMs', 'scoringMs']);
      const sinceEvent = Date.parse(record.scoredAt) - Date.parse(events.get(record.runId)!.timestamp);
      const staged = Object.values(latency).reduce((sum, ms) => sum + ms, 0);
      expect(Math.abs(staged - sinceEvent), record.scorerId).toBeLessThanOrEqual(4);
    }
    expect(records.find((record) => record.scorerId === 'judge-by-id')!.latency!.judgeMs).toBeGreaterThanOrEqual(5);
    // The stage histogram: each record's stages and its produce, summing to the event-to-result time.
    const stage = (name: string) => histogramTotals(metrics, 'scorestream.record.stage.duration', { 'scorestream.latency.stage': name });
    for (const name of ['kafka', 'runSlot', 'dispatch', 'scoring', 'produce']) expect(stage(name).count, name).toBe(records.length);
    expect(stage('judge').count).toBe(3);
    const stagedSeconds = ['kafka', 'runSlot', 'dispatch', 'scoring', 'judge', 'produce'].reduce((sum, name) => sum + stage(name).sum, 0);
    expect(stagedSeconds / latency.sum).toBeGreaterThan(0.99);
    expect(stagedSeconds / latency.sum).toBeLessThan(1.01);

    // Scores per scorer and agent: exactly the scored records, with their values.
    for (const scorerId of ['answer-length', 'judge-by-id']) {
      const scored = records.filter((record) => record.scorerId === scorerId && record.status === 'scored');
      const totals = histogramTotals(metrics, 'scorestream.score', { 'scorestream.scorer.id': scorerId, 'scorestream.agent.id': scored[0]!.entity.id, 'scorestream.tenant.id': scored[0]!.metadata!.tenantId! });
      expect(totals.count).toBe(scored.length);
      expect(totals.sum).toBeCloseTo(scored.reduce((sum, record) => sum + (record.status === 'scored' ? record.score : 0), 0));
    }
    expect(histogramTotals(metrics, 'scorestream.score', { 'scorestream.scorer.id': 'always-throws' }).count).toBe(0);

    const grader = { 'gen_ai.request.model': 'mock-judge' };
    expect(metricValue(metrics, 'scorestream.judge.calls', { ...grader, outcome: 'success' })).toBe(3);
    expect(metricValue(metrics, 'scorestream.judge.errors')).toBe(0);
    expect(metricValue(metrics, 'scorestream.judge.tokens', { ...grader, 'gen_ai.token.type': 'input' })).toBe(30);
    expect(metricValue(metrics, 'scorestream.judge.tokens', { ...grader, 'gen_ai.token.type': 'output' })).toBe(15);
    expect(histogramTotals(metrics, 'scorestream.judge.duration', grader).count).toBe(3);

    expect(metricValue(metrics, 'scorestream.runs.in_flight')).toBe(0);
    expect(metricValue(metrics, 'scorestream.partitions.paused')).toBe(0);
    expect(metricValue(metrics, 'scorestream.consumer.lag', { 'messaging.destination.name': topics.runs, 'messaging.destination.partition.id': '0' })).toBe(0);
  });
});
