// The message path of the run-event source, the parts together: the loop guard before and after
// decoding, dead letters for what does not decode, the run's trace context handed to the score
// spans, each record published as its scorer finishes, decision records beside them, and a message
// that finishes only once everything it produced was acknowledged. Fakes at the seams: the output,
// the retry pacing and the clock; real scorers, the real core and the real emitter in between.
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { ORIGIN_HEADER } from '../../../consumers/loop-guard.ts';
import { startMessageTrace } from '../../../consumers/message-trace.ts';
import type { MessageTrace } from '../../../consumers/message-trace.ts';
import { scoreIdFor } from '../../../src/kit/contracts/score-id.ts';
import type { ConsumedMessage } from '../../../kafka/kafka-records.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { traceFor } from '../../helpers/runs.ts';
import { deferred } from '../src/engine/pipeline/fixtures.ts';
import { consumedMessage, fakeOutput, fixedScorer, messageContext, processRunEvent, recordedPacing, runMessage, source, valueOf } from './message-fixtures.ts';
import type { TestContextOptions } from './message-fixtures.ts';
import { handMadeScorer } from '../../helpers/hand-made-scorer.ts';

const exporter = new InMemorySpanExporter();
const tracer = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }).getTracer('unit');
afterEach(() => exporter.reset());

/** Processes one message as the scoring consumer does: with a process span on the test tracer, ended afterwards. */
async function process(message: ConsumedMessage, options: TestContextOptions & { messageTrace?: MessageTrace } = {}) {
  const { context, hardStop, latencies } = messageContext(options);
  context.tracer = tracer;
  const output = fakeOutput();
  const messageTrace = options.messageTrace ?? startMessageTrace(tracer, message, { topic: source.topic, partition: source.partition, groupId: 'unit' });
  await processRunEvent(context, message, output.output, messageTrace);
  messageTrace.span?.end();
  const processSpan = exporter.getFinishedSpans().find((span) => span.name === `process ${source.topic}`);
  return { context, hardStop, latencies, output, stats: context.stats, processSpan };
}

describe('message path: the loop guard', () => {
  it('skips our own records before decoding them, and counts them', async () => {
    const { output, stats, processSpan } = await process(runMessage({ runId: 'run-1', headers: { [ORIGIN_HEADER]: 'scorestream' } }));
    expect(output.attempts()).toBe(0);
    expect(stats.consumed).toBe(1);
    expect(stats.skipsByReason.get('own_output')).toBe(1);
    expect(processSpan!.attributes['scorestream.skip.reason']).toBe('own_output');
  });

  it("skips a run event about Scorestream's own work after decoding it, and counts it", async () => {
    const { output, stats, processSpan } = await process(runMessage({ runId: 'judge-run', event: { metadata: { source: 'scorestream' } } }));
    expect(output.attempts()).toBe(0);
    expect(stats.skipsByReason.get('scorestream_origin')).toBe(1);
    expect(processSpan!.attributes).toMatchObject({ 'scorestream.run.id': 'judge-run', 'scorestream.skip.reason': 'scorestream_origin' });
  });
});

describe('message path: a message that does not decode', () => {
  it('is dead-lettered with its key and the origin header, until acknowledged, and no scorer runs', async () => {
    const runs: unknown[] = [];
    const spy = handMadeScorer('spy', async (input) => (runs.push(input), { score: 1 }));
    const { publishRetry, delays } = recordedPacing();
    const message = consumedMessage({ key: 'bad-1', value: '{"runId": ' });
    const { context } = messageContext({ scorers: [{ scorer: spy }], publishRetry });
    const output = fakeOutput();
    output.fail(1);
    await processRunEvent(context, message, output.output);
    expect(delays).toEqual([200]);
    expect(output.records()).toHaveLength(1);
    expect(output.records()[0]).toMatchObject({ topic: 'dead-letters', key: 'bad-1', headers: { [ORIGIN_HEADER]: 'scorestream' } });
    expect(valueOf(output.records()[0])).toMatchObject({ error: { code: 'invalid_json' }, source: { ...source } });
    expect(context.stats.deadLettersByCode.get('invalid_json')).toBe(1);
    expect(runs).toEqual([]);
  });

  it('marks the process span with the dead-letter reason', async () => {
    const { processSpan } = await process(consumedMessage({ value: 'x'.repeat(50) }), { maxMessageBytes: 10 });
    expect(processSpan!.attributes['scorestream.dead_letter.reason']).toBe('oversized');
  });
});

describe('message path: a run', () => {
  it('publishes one record per scorer to the results topic, keyed by its scoreId and partitioned by run id, and counts them with their latency', async () => {
    const half = createScorer({ id: 'half', description: 'd' }).generateScore(() => 0.5);
    const message = runMessage({ runId: 'run-1', timestamp: '2026-11-29T12:00:00.000Z' });
    const { output, stats, latencies } = await process(message, { scorers: [{ scorer: fixedScorer }, { scorer: half }] });
    const records = output.records();
    expect(records.map((record) => [record.topic, record.key, record.partitionKey, record.headers?.[ORIGIN_HEADER]]).sort()).toEqual([
      ['scores', scoreIdFor({ runId: 'run-1', scorerId: 'fixed' }), 'run-1', 'scorestream'],
      ['scores', scoreIdFor({ runId: 'run-1', scorerId: 'half' }), 'run-1', 'scorestream'],
    ].sort());
    expect(records.map((record) => valueOf(record)).map(({ scorerId, score, source: from }) => ({ scorerId, score, from })).sort((a, b) => String(a.scorerId).localeCompare(String(b.scorerId)))).toEqual([
      { scorerId: 'fixed', score: 1, from: source },
      { scorerId: 'half', score: 0.5, from: source },
    ]);
    expect(stats.totals()).toMatchObject({ scored: 2 });
    expect(latencies).toEqual([2_000, 2_000]);
  });

  it("publishes a fast scorer's record while a slow one still runs, and resolves only when every record was acknowledged", async () => {
    const gate = deferred<unknown>();
    const slow = handMadeScorer('slow', () => gate.promise);
    const message = runMessage({ runId: 'run-2' });
    const { context } = messageContext({ scorers: [{ scorer: slow }, { scorer: fixedScorer }] });
    const output = fakeOutput();
    let resolved = false;
    const processing = processRunEvent(context, message, output.output).then(() => (resolved = true));
    await expect.poll(() => output.records().length).toBe(1);
    expect(valueOf(output.records()[0]).scorerId).toBe('fixed');
    output.hold();
    gate.resolve({ score: 0.1 });
    await expect.poll(() => output.attempts()).toBe(2);
    expect(resolved).toBe(false);
    output.release();
    await processing;
    expect(output.records().map((record) => valueOf(record).scorerId)).toEqual(['fixed', 'slow']);
  });

  it("scores inside the run's trace (from the headers) and links every score span to the process span", async () => {
    const agent = traceFor('run-3');
    const { output, processSpan } = await process(runMessage({ runId: 'run-3', headers: { traceparent: agent.traceparent } }));
    const score = exporter.getFinishedSpans().find((span) => span.name === 'score run')!;
    expect(score.parentSpanContext?.spanId).toBe(agent.spanId);
    expect(score.spanContext().traceId).toBe(agent.traceId);
    expect(score.links.map((link) => link.context.spanId)).toEqual([processSpan!.spanContext().spanId]);
    expect(processSpan!.attributes['scorestream.run.id']).toBe('run-3');
    expect(valueOf(output.records()[0]).trace).toEqual({ traceId: agent.traceId, parentSpanId: agent.spanId, spanId: score.spanContext().spanId });
  });

  it("falls back to the event's trace field, and links the process span to it", async () => {
    const agent = traceFor('run-4');
    const { output, processSpan } = await process(runMessage({ runId: 'run-4', event: { trace: { traceparent: agent.traceparent } } }));
    const score = exporter.getFinishedSpans().find((span) => span.name === 'score run')!;
    expect(score.parentSpanContext?.spanId).toBe(agent.spanId);
    expect(processSpan!.links.map((link) => link.context.spanId)).toEqual([agent.spanId]);
    expect(valueOf(output.records()[0]).trace).toMatchObject({ traceId: agent.traceId, parentSpanId: agent.spanId });
  });

  it('publishes the decision records of skipped bindings beside the score records, with the run\'s agent and tenant, and counts the skips', async () => {
    const { output, stats } = await process(runMessage({ runId: 'run-5', tenantId: 'globex' }), {
      decisionsTopic: 'decisions',
      scorers: [{ scorer: fixedScorer }, { scorer: createScorer({ id: 'never', description: 'd' }).generateScore(() => 0), when: () => false }],
    });
    expect(output.records().map((record) => record.topic).sort()).toEqual(['decisions', 'scores']);
    const decision = output.records().find((record) => record.topic === 'decisions');
    expect(valueOf(decision)).toMatchObject({ runId: 'run-5', scorerId: 'never', decision: 'skipped', reason: 'when', entity: { type: 'agent', id: 'support-agent' }, metadata: { tenantId: 'globex' } });
    expect(stats.skipsByReason.get('when')).toBe(1);
  });

  it('in a replay, marks every score and decision record with the replay id', async () => {
    const { context } = messageContext({
      decisionsTopic: 'decisions',
      scorers: [{ scorer: fixedScorer }, { scorer: createScorer({ id: 'never', description: 'd' }).generateScore(() => 0), when: () => false }],
    });
    context.replay = { id: 'replay-0123456789ab' };
    const output = fakeOutput();
    const message = runMessage({ runId: 'run-replayed' });
    await processRunEvent(context, message, output.output);
    expect(output.records().map((record) => valueOf(record).replay)).toEqual([{ id: 'replay-0123456789ab' }, { id: 'replay-0123456789ab' }]);
  });

  it('without a decisions topic counts the skips and publishes only the score records', async () => {
    const { output, stats } = await process(runMessage({ runId: 'run-7' }), {
      scorers: [{ scorer: fixedScorer }, { scorer: createScorer({ id: 'never', description: 'd' }).generateScore(() => 0), when: () => false }],
    });
    expect(output.records().map((record) => record.topic)).toEqual(['scores']);
    expect(stats.skipsByReason.get('when')).toBe(1);
  });

  it("hands every scorer run the service's services, with the run's own abort signal", async () => {
    const seen: Array<Record<string, unknown>> = [];
    const spy = handMadeScorer('spy', async (_input, options = {}) => (seen.push(options), { score: 1 }));
    const services = { models: { languageModel: () => undefined as never }, recordInputs: true };
    await process(runMessage({ runId: 'run-6' }), { scorers: [{ scorer: spy }], services });
    expect(seen[0]).toMatchObject(services);
    expect(seen[0]!.abortSignal).toBeInstanceOf(AbortSignal);
  });

  it('is abandoned when the hard stop ends the retries of a publish (its offset stays uncommitted), not dead-lettered', async () => {
    const message = runMessage({ runId: 'run-7' });
    const { publishRetry } = recordedPacing(() => hardStop.abort());
    const { context, hardStop } = messageContext({ publishRetry });
    const output = fakeOutput();
    output.fail(10);
    expect(await processRunEvent(context, message, output.output)).toBe('abandoned');
    expect(context.stats.totals().scored).toBe(0);
    expect(output.records()).toEqual([]);
  });

  it('does not need a recording span (no OpenTelemetry SDK)', async () => {
    const message = runMessage({ runId: 'run-8' });
    const { output } = await process(message, { messageTrace: startMessageTrace(trace.getTracer('no-sdk'), message, { ...source, groupId: 'unit' }) });
    expect(output.records()).toHaveLength(1);
  });
});
