// Trace context end to end on a real broker, with the real SDK set-up and an in-memory exporter:
// an agent run published inside a span is scored inside that span's trace (the judge scorer's score
// → step → judge spans; the code scorers' scores as events on the run's one `score run` span), a message without (or with garbage) trace context is scored under a root span, a
// declined trace is scored without spans (traceSampling 'ignore', the default) or skipped
// ('follow'), logs written inside a scorer carry the run's trace id, and the
// service skips its own output and Scorestream's own run events.
import { Writable } from 'node:stream';
import { SpanKind, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DecisionRecord, ScoreRecord } from '../../../src/index.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { createLogger } from '../../../otel/logger.ts';
import { createRunPublisher } from '../../../producers/run-publisher.ts';
import { answerLengthScorer, judgeScorer } from '../../fixtures/scorers.ts';
import { mockJudge } from '../../../src/kit/testing/mock-judge.ts';
import { testBrokers } from '../../helpers/kafka.ts';
import { traceFor, testRun } from '../../helpers/runs.ts';
import { produceRaw, readRecords, startTestService, useServiceTopics } from '../../helpers/service.ts';
import { childrenOf, descendantsOf, installTestTelemetry, metricValue, parentSpanId, waitForSpans } from '../../helpers/spans.ts';
import type { TelemetryCapture } from '../../helpers/spans.ts';

let capture: TelemetryCapture;

beforeAll(async () => {
  capture = await installTestTelemetry();
});
afterAll(async () => {
  await capture.uninstall();
});
beforeEach(() => capture.reset());

const scoreSpansOf = (spans: readonly ReadableSpan[], runId: string) => spans.filter((span) => span.name.startsWith('score ') && span.attributes['scorestream.run.id'] === runId);
const processSpansOf = (spans: readonly ReadableSpan[], runId: string) => spans.filter((span) => span.name.startsWith('process ') && span.attributes['scorestream.run.id'] === runId);

describe('trace context through the service', () => {
  it('scores a run inside the trace it was published in: agent span → score spans → prompt step spans → judge spans', async () => {
    const topics = await useServiceTopics();
    await startTestService({ topics, scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('judge', mockJudge({ answer: { score: 0.75 } })) }] }, { processSpans: true });

    const publisher = createRunPublisher({ brokers: testBrokers(), topic: topics.runs });
    const tracer = trace.getTracer('test-agent');
    const agentSpan = await tracer.startActiveSpan('agent run', async (span) => {
      await publisher.publish(testRun({ runId: 'traced-1' }));
      span.end();
      return span;
    });
    await publisher.close();
    const agent = agentSpan.spanContext();

    const records = await readRecords<ScoreRecord>(topics.results, 2);
    const spans = await waitForSpans(capture, (all) => scoreSpansOf(all, 'traced-1').length === 2 && processSpansOf(all, 'traced-1').length === 1);

    // The consumer's process span (SCORESTREAM_TRACE_PROCESS_SPANS): its own root, linked to the producing context.
    const [processSpan] = processSpansOf(spans, 'traced-1');
    expect(processSpan!.kind).toBe(SpanKind.CONSUMER);
    expect(processSpan!.name).toBe(`process ${topics.runs}`);
    expect(parentSpanId(processSpan!)).toBeUndefined();
    expect(processSpan!.links.map((link) => link.context.spanId)).toEqual([agent.spanId]);
    expect(processSpan!.attributes).toMatchObject({
      'messaging.system': 'kafka',
      'messaging.operation.type': 'process',
      'messaging.destination.name': topics.runs,
      'messaging.destination.partition.id': '0',
      'messaging.kafka.message.key': 'traced-1',
      'messaging.kafka.offset': 0,
    });
    expect(processSpan!.attributes['messaging.consumer.group.name']).toEqual(expect.any(String));

    // Score spans — the judge's own, and the run's shared one for its code scorer — children of the agent span, linked to the process span.
    expect(scoreSpansOf(spans, 'traced-1').map((span) => span.name).sort()).toEqual(['score judge', 'score run']);
    for (const scoreSpan of scoreSpansOf(spans, 'traced-1')) {
      expect(scoreSpan.spanContext().traceId).toBe(agent.traceId);
      expect(parentSpanId(scoreSpan)).toBe(agent.spanId);
      expect(scoreSpan.links.map((link) => link.context.spanId)).toEqual([processSpan!.spanContext().spanId]);
      const record = records.find((candidate) => candidate.trace?.spanId === scoreSpan.spanContext().spanId)!;
      expect(record.trace).toEqual({ traceId: agent.traceId, parentSpanId: agent.spanId, spanId: scoreSpan.spanContext().spanId });
      const evaluation = scoreSpan.events.find((event) => event.name === 'gen_ai.evaluation.result')!;
      expect(evaluation.attributes).toMatchObject({ 'gen_ai.evaluation.name': record.scorerId, 'gen_ai.evaluation.score.value': record.status === 'scored' ? record.score : -1 });
      expect(scoreSpan.attributes['scorestream.run.id']).toBe('traced-1');
    }

    // The code scorer's score is an evaluation event on the run's `score run` span; function steps have no spans by default (SCORESTREAM_TRACE_FUNCTION_STEPS).
    const lengthSpan = spans.find((span) => span.name === 'score run' && span.attributes['scorestream.run.id'] === 'traced-1')!;
    expect(lengthSpan.events.map((event) => event.attributes?.['gen_ai.evaluation.name'])).toEqual(['answer-length']);
    expect(childrenOf(spans, lengthSpan)).toEqual([]);

    const judgeScore = spans.find((span) => span.name === 'score judge')!;
    expect(judgeScore.attributes).toMatchObject({ 'scorestream.scorer.id': 'judge', 'scorestream.score': 0.75, 'scorestream.judge.model_id': 'mock-judge', 'scorestream.judge.input_tokens': 10, 'scorestream.judge.output_tokens': 5 });
    const [judgeStep] = childrenOf(spans, judgeScore);
    expect(judgeStep).toMatchObject({ name: 'generateScore', attributes: expect.objectContaining({ 'scorestream.step.type': 'prompt', 'scorestream.judge.model_id': 'mock-judge' }) });
    const judgeSpans = descendantsOf(spans, judgeStep!);
    expect(judgeSpans.map((span) => span.name)).toContain('invoke_agent mock-judge');
    for (const span of judgeSpans) {
      expect(span.spanContext().traceId).toBe(agent.traceId);
      expect(span.attributes['scorestream.origin']).toBe('judge');
    }

    // Never prompts or run contents on any span (recordInputs is off).
    const everything = JSON.stringify(spans.map((span) => [span.attributes, span.events]));
    expect(everything).not.toContain('Rate this answer');
    expect(everything).not.toContain('shipped yesterday');
  });

  it('opens no process span by default: the score spans are still children of the agent span, with no links, and the records carry their ids', async () => {
    const topics = await useServiceTopics();
    await startTestService({ topics, scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('judge', mockJudge({ answer: { score: 0.5 } })) }] });
    const publisher = createRunPublisher({ brokers: testBrokers(), topic: topics.runs });
    const agentSpan = await trace.getTracer('test-agent').startActiveSpan('agent run', async (span) => {
      await publisher.publish(testRun({ runId: 'no-process-span' }));
      span.end();
      return span;
    });
    await publisher.close();
    const agent = agentSpan.spanContext();
    const records = await readRecords<ScoreRecord>(topics.results, 2);
    const spans = await waitForSpans(capture, (all) => scoreSpansOf(all, 'no-process-span').length === 2);
    expect(spans.filter((span) => span.name.startsWith('process '))).toEqual([]);
    for (const scoreSpan of scoreSpansOf(spans, 'no-process-span')) {
      expect(parentSpanId(scoreSpan)).toBe(agent.spanId);
      expect(scoreSpan.links).toEqual([]);
      const record = records.find((candidate) => candidate.trace?.spanId === scoreSpan.spanContext().spanId)!;
      expect(record.trace).toEqual({ traceId: agent.traceId, parentSpanId: agent.spanId, spanId: scoreSpan.spanContext().spanId });
    }
    const judgeScore = spans.find((span) => span.name === 'score judge' && span.attributes['scorestream.run.id'] === 'no-process-span')!;
    expect(descendantsOf(spans, judgeScore).map((span) => span.name)).toContain('invoke_agent mock-judge');
  });

  it('scores a run without trace context, or with a garbage traceparent, under a root score span', async () => {
    const topics = await useServiceTopics();
    const body = (runId: string, extra: Record<string, unknown> = {}) => JSON.stringify({ ...testRun({ runId, answer: 'The same answer for both runs.' }), ...extra });
    await produceRaw(topics.runs, [
      { key: 'plain', value: body('plain') },
      { key: 'garbage', value: body('garbage'), headers: { traceparent: 'garbage', tracestate: '@@@', baggage: '%%%' } },
      { key: 'from-body', value: body('from-body', { trace: { traceparent: traceFor('from-body').traceparent } }) },
    ]);
    await startTestService({ topics, scorers: [{ scorer: answerLengthScorer }] }, { processSpans: true });
    const records = await readRecords<ScoreRecord>(topics.results, 3);
    const spans = await waitForSpans(capture, (all) => ['plain', 'garbage', 'from-body'].every((runId) => scoreSpansOf(all, runId).length === 1 && processSpansOf(all, runId).length === 1));
    const byRun = new Map(records.map((record) => [record.runId, record]));

    for (const runId of ['plain', 'garbage']) {
      const [scoreSpan] = scoreSpansOf(spans, runId);
      expect(parentSpanId(scoreSpan!)).toBeUndefined();
      expect(byRun.get(runId)!.trace).toEqual({ traceId: scoreSpan!.spanContext().traceId, spanId: scoreSpan!.spanContext().spanId });
      expect(processSpansOf(spans, runId)[0]!.links).toEqual([]);
    }
    // Garbage changes nothing but the parent.
    const comparable = (record: ScoreRecord) => ({ status: record.status, score: record.status === 'scored' ? record.score : undefined, reason: record.reason, scorerId: record.scorerId });
    expect(comparable(byRun.get('garbage')!)).toEqual(comparable(byRun.get('plain')!));

    // The body's trace field is the fallback: parent from it, and the process span linked to it.
    const fromBody = traceFor('from-body');
    const [bodyScore] = scoreSpansOf(spans, 'from-body');
    expect(bodyScore!.spanContext().traceId).toBe(fromBody.traceId);
    expect(parentSpanId(bodyScore!)).toBe(fromBody.spanId);
    expect(processSpansOf(spans, 'from-body')[0]!.links.map((link) => link.context.spanId)).toEqual([fromBody.spanId]);
    expect(byRun.get('from-body')!.trace).toEqual({ traceId: fromBody.traceId, parentSpanId: fromBody.spanId, spanId: bodyScore!.spanContext().spanId });
  });

  it("scores a run whose traceparent is not sampled (traceSampling 'ignore', the default): no span recorded, the record keeps the trace ids, counted", async () => {
    const topics = await useServiceTopics();
    await produceRaw(topics.runs, [
      { key: 'declined', value: JSON.stringify(testRun({ runId: 'declined' })), headers: { traceparent: traceFor('declined', false).traceparent } },
      { key: 'accepted', value: JSON.stringify(testRun({ runId: 'accepted' })), headers: { traceparent: traceFor('accepted').traceparent } },
    ]);
    const service = await startTestService({ topics, scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('judge', mockJudge({ answer: { score: 0.8 } })) }] });
    const records = await readRecords<ScoreRecord>(topics.results, 4);
    const declined = records.filter((record) => record.runId === 'declined');
    expect(declined.map((record) => [record.scorerId, record.status]).sort()).toEqual([
      ['answer-length', 'scored'],
      ['judge', 'scored'],
    ]);
    for (const record of declined) expect(record.trace).toEqual({ traceId: traceFor('declined').traceId, parentSpanId: traceFor('declined').spanId, sampled: false });
    for (const record of records.filter((candidate) => candidate.runId === 'accepted')) expect(record.trace?.sampled).toBeUndefined();
    expect(service.stats.unsampledTraces).toBe(1);
    expect(service.stats.skipsByReason.get('trace_not_sampled')).toBeUndefined();
    // The trace's decision holds for the scoring too: nothing of the declined trace is exported.
    const spans = await waitForSpans(capture, (all) => scoreSpansOf(all, 'accepted').length === 2);
    expect(scoreSpansOf(spans, 'declined')).toEqual([]);
    expect(spans.filter((span) => span.spanContext().traceId === traceFor('declined').traceId)).toEqual([]);
    const metrics = await capture.collectMetrics();
    expect(metricValue(metrics, 'scorestream.runs.trace_unsampled')).toBe(1);
  });

  it("skips a run whose traceparent is not sampled with traceSampling 'follow', counts it, and opens no score span", async () => {
    const topics = await useServiceTopics();
    await produceRaw(topics.runs, [
      { key: 'declined', value: JSON.stringify(testRun({ runId: 'declined' })), headers: { traceparent: traceFor('declined', false).traceparent } },
      { key: 'accepted', value: JSON.stringify(testRun({ runId: 'accepted' })), headers: { traceparent: traceFor('accepted').traceparent } },
    ]);
    const service = await startTestService({ topics, traceSampling: 'follow', scorers: [{ scorer: answerLengthScorer }, { scorer: judgeScorer('judge', mockJudge({ answer: { score: 0.8 } })) }] });
    const records = await readRecords<ScoreRecord>(topics.results, 2);
    expect(records.map((record) => record.runId)).toEqual(['accepted', 'accepted']);
    const decisions = await readRecords<DecisionRecord>(topics.decisions, 2);
    expect(decisions.map((decision) => `${decision.runId}/${decision.reason}`)).toEqual(['declined/trace_not_sampled', 'declined/trace_not_sampled']);
    expect(decisions[0]!.trace).toEqual({ traceId: traceFor('declined').traceId, parentSpanId: traceFor('declined').spanId, sampled: false });
    expect(service.stats.skipsByReason.get('trace_not_sampled')).toBe(2);
    expect(service.stats.unsampledTraces).toBe(1);
    const spans = await waitForSpans(capture, (all) => scoreSpansOf(all, 'accepted').length === 2);
    expect(scoreSpansOf(spans, 'declined')).toEqual([]);
    expect(spans.filter((span) => span.spanContext().traceId === traceFor('declined').traceId)).toEqual([]);
  });

  it('puts the run trace id on log lines written inside a scorer', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger({
      level: 'info',
      destination: new Writable({
        write(chunk: Buffer, _encoding, callback) {
          for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
          callback();
        },
      }),
    });
    const loggingScorer = createScorer({ id: 'logs-inside', description: 'Logs while it scores' }).generateScore(({ run }) => {
      logger.info({ runId: run.runId }, 'scoring inside the scorer');
      return 1;
    });
    const topics = await useServiceTopics();
    await produceRaw(topics.runs, [
      { key: 'logged', value: JSON.stringify(testRun({ runId: 'logged' })), headers: { traceparent: traceFor('logged').traceparent } },
      { key: 'logged-untraced', value: JSON.stringify(testRun({ runId: 'logged-untraced' })) },
    ]);
    // With a span per function step (SCORESTREAM_TRACE_FUNCTION_STEPS=true) the line names the step's span.
    await startTestService({ topics, scorers: [{ scorer: loggingScorer }] }, { functionStepSpans: true });
    await readRecords<ScoreRecord>(topics.results, 2);
    const spans = await waitForSpans(capture, (all) => scoreSpansOf(all, 'logged').length === 1 && scoreSpansOf(all, 'logged-untraced').length === 1);

    const line = lines.find((candidate) => candidate.runId === 'logged')!;
    const step = childrenOf(spans, scoreSpansOf(spans, 'logged')[0]!)[0]!;
    expect(step.attributes).toMatchObject({ 'scorestream.scorer.id': 'logs-inside', 'scorestream.step': 'generateScore', 'scorestream.step.type': 'function' });
    expect(line).toMatchObject({ msg: 'scoring inside the scorer', trace_id: traceFor('logged').traceId, span_id: step.spanContext().spanId });
    // Without a propagated context the line still leads to the (root) score trace.
    const untraced = lines.find((candidate) => candidate.runId === 'logged-untraced')!;
    expect(untraced.trace_id).toBe(scoreSpansOf(spans, 'logged-untraced')[0]!.spanContext().traceId);
  });

  it("skips the service's own records and run events marked as Scorestream's own, and counts both", async () => {
    const topics = await useServiceTopics();
    const ownRun = (runId: string, metadata: Record<string, unknown>) => JSON.stringify({ ...testRun({ runId }), metadata });
    await produceRaw(topics.runs, [
      { key: 'echo', value: JSON.stringify(testRun({ runId: 'echo' })), headers: { 'scorestream-origin': 'scorestream' } },
      { key: 'judge-as-run', value: ownRun('judge-as-run', { source: 'scorestream' }) },
      { key: 'judge-tagged', value: ownRun('judge-tagged', { tags: ['integration', 'scorestream:judge'] }) },
      { key: 'real', value: ownRun('real', { source: 'support-app', tags: ['scorestream'] }) },
    ]);
    const service = await startTestService({ topics, scorers: [{ scorer: answerLengthScorer }] }, { processSpans: true });
    const records = await readRecords<ScoreRecord>(topics.results, 1);
    expect(records.map((record) => record.runId)).toEqual(['real']);
    await waitForSpans(capture, (all) => scoreSpansOf(all, 'real').length === 1);
    expect(service.stats.skipsByReason.get('own_output')).toBe(1);
    expect(service.stats.skipsByReason.get('scorestream_origin')).toBe(2);
    expect(capture.spans().filter((span) => span.attributes['scorestream.skip.reason'] === 'scorestream_origin').map((span) => span.attributes['scorestream.run.id']).sort()).toEqual(['judge-as-run', 'judge-tagged']);
  });
});
