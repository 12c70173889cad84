// createOtlpSource: messages of a Collector's kafka exporter in, through the message path, runs
// scored and traces decided, and — what the offsets depend on — each message finishing only once
// every trace it fed was closed and its work accepted by the output; an assembly that lives as
// long as its partition's claim. Real fixtures (AI SDK telemetry through the OTLP serializer), a
// fake output, an injected clock; the timers are the source's own.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMessagePath } from '../../../consumers/message-path.ts';
import type { MessageContext } from '../../../consumers/message-context.ts';
import { untracedMessage } from '../../../consumers/message-trace.ts';
import { createOtlpSource, STARTED_PER_TURN } from '../../../consumers/otlp-source.ts';
import { ClaimEndedError } from '../../../consumers/run-source.ts';
import type { DecodedSpans, OtlpSource } from '../../../consumers/otlp-source.ts';
import type { SourcePartition } from '../../../consumers/run-source.ts';
import type { ConsumedMessage } from '../../../kafka/kafka-records.ts';
import { OTLP_DEFAULTS } from '../../../src/engine/config/input-schema.ts';
import type { OtlpInputConfig } from '../../../src/engine/config/input-schema.ts';
import { encodeSpans, recordPlainTrace, runWeatherAgent, spanRecorder } from '../../helpers/otlp-traces.ts';
import type { Recorder } from '../../helpers/otlp-traces.ts';
import { fixtureRequests } from '../../helpers/framework-fixtures.ts';
import { consumedMessage, fakeOutput, fixedScorer, messageContext, source, valueOf } from './message-fixtures.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';

let recorder: Recorder;
beforeAll(() => {
  recorder = spanRecorder();
});
afterAll(() => recorder.shutdown());
beforeEach(() => recorder.reset());

const secondScorer = createScorer({ id: 'second', description: 'scores every run 0' }).generateScore(() => 0);

const config = (overrides: Partial<OtlpInputConfig> = {}): OtlpInputConfig => ({ format: 'otlp', ...OTLP_DEFAULTS, ...overrides });

/** A settable clock: the grace periods are measured on it, the input's timers fire at once when due. */
function clock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

/** One claimed partition of the source, processing messages as the consumer does. */
function claimOf(input: OtlpSource, context: MessageContext) {
  const partition = createMessagePath(context).partition(input);
  return {
    process: (message: ConsumedMessage, where: typeof source, output: ReturnType<typeof fakeOutput>['output']) => partition.process(message, { source: where, output, trace: untracedMessage(message) }),
    end: () => partition.end(),
  };
}

/** A claim of the source whose jobs are only recorded: the trace ids started, grouped by synchronous stretch. */
function recordedClaim(value: Buffer, onStart: (count: number, partition: SourcePartition<DecodedSpans>) => void = () => undefined) {
  const input = createOtlpSource({ config: config({ gracePeriodMs: 0 }) });
  const started: string[] = [];
  const groups: number[] = [];
  let open = false;
  const partition = input.claim(async (job) => {
    if (!open) {
      open = true;
      groups.push(0);
      queueMicrotask(() => (open = false));
    }
    groups[groups.length - 1]! += 1;
    if (job.kind === 'no-run') started.push(job.traceId);
    onStart(started.length, partition);
  });
  const decoded = input.decode(value);
  if (!decoded.success) throw new Error('the fixture did not decode');
  const message = consumedMessage({ value });
  const take = () => partition.take(decoded.data, { source, output: fakeOutput().output, trace: untracedMessage(message) });
  return { input, started, groups, take, partition };
}

function track(promise: Promise<unknown>) {
  const state = { settled: false as boolean, error: undefined as unknown };
  promise.then(
    () => (state.settled = true),
    (error: unknown) => ((state.settled = true), (state.error = error)),
  );
  return state;
}

describe('createOtlpSource', () => {
  it('holds every message that fed a trace until the run is scored and its record accepted', async () => {
    await runWeatherAgent({ telemetry: 'semconv', tracer: recorder.tracer });
    const spans = recorder.spans();
    const agent = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent')!;
    const children = spans.filter((span) => span !== agent);
    const time = clock();
    const input = createOtlpSource({ config: config({ gracePeriodMs: 0 }), now: time.now });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const claim = claimOf(input, context);
    const first = fakeOutput();
    const second = fakeOutput();
    // the descendants arrive first, the agent span in a later message
    const childrenDone = track(claim.process(consumedMessage({ value: encodeSpans(children, 'otlp_proto') }), { ...source, offset: '1' }, first.output));
    await Promise.resolve();
    expect(childrenDone.settled).toBe(false);
    const agentMessage = claim.process(consumedMessage({ value: encodeSpans([agent], 'otlp_proto') }), { ...source, offset: '2' }, second.output);
    await agentMessage;
    expect(second.accepted).toHaveLength(1);
    const record = valueOf(second.accepted[0]![0]);
    expect(record).toMatchObject({ runId: `${agent.spanContext().traceId}-${agent.spanContext().spanId}`, source: { offset: '2' }, trace: { traceId: agent.spanContext().traceId, parentSpanId: agent.spanContext().spanId } });
    await expect.poll(() => childrenDone.settled).toBe(true);
    expect(childrenDone.error).toBeUndefined();
    expect(input.stats).toMatchObject({ runsAssembled: 1, openTraces: 0, bufferedSpans: 0, tracesClosed: { ready: 1, idle: 0, overflow: 0 } });
  });

  it('scores a run whose spans carry no question and no answer, and flags its record missing_content with the spans seen (a plain app without content capture)', async () => {
    const input = createOtlpSource({ config: config({ gracePeriodMs: 0, encoding: 'otlp_json' }) });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const claim = claimOf(input, context);
    const output = fakeOutput();
    for (const request of fixtureRequests('openai-v2-python-no-content')) await claim.process(consumedMessage({ value: request }), source, output.output);
    const records = output.accepted.flat().map((record) => ({ topic: record.topic, value: valueOf(record) }));
    expect(records.map((record) => record.topic)).toEqual(['scores', 'decisions']);
    const score = records[0]!.value;
    expect(score).toMatchObject({ status: 'scored', scorerId: 'fixed', missing: [{ part: 'question' }, { part: 'answer' }], metadata: { otel: { rule: 'root_span' } } });
    const flag = records[1]!.value;
    expect(flag).toMatchObject({ runId: score.runId, scorerId: 'fixed', decision: 'flagged', reason: 'missing_content', entity: score.entity });
    expect(flag.detail).toContain('no user message');
    expect(flag.detail).toContain("'chat scripted-model' ×2");
    expect(input.stats).toMatchObject({ runsAssembled: 1, runsMissingContent: 1 });
    // scored, so no skip is counted
    expect(context.stats.skipsByReason.size).toBe(0);
  });

  it("with rootSpanRuns off, decides a plain app's trace (model calls under its root, no agent span) as not_an_agent_trace, saying so", async () => {
    const input = createOtlpSource({ config: config({ gracePeriodMs: 0, encoding: 'otlp_json', rootSpanRuns: false }) });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const claim = claimOf(input, context);
    const output = fakeOutput();
    for (const request of fixtureRequests('openai-v2-python')) await claim.process(consumedMessage({ value: request }), source, output.output);
    expect(output.records().map((record) => [record.topic, valueOf(record).reason])).toEqual([['decisions', 'not_an_agent_trace']]);
    expect(valueOf(output.records()[0]).detail).toMatch(/OpenInference AGENT, OpenLLMetry agent.*rootSpanRuns is off/);
    expect(input.stats.runsAssembled).toBe(0);
  });

  it('decides a trace without an agent span as not_an_agent_trace, per scorer binding, through the decisions topic', async () => {
    recordPlainTrace(recorder.tracer);
    const input = createOtlpSource({ config: config({ gracePeriodMs: 0, encoding: 'otlp_json' }) });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const claim = claimOf(input, context);
    const output = fakeOutput();
    await claim.process(consumedMessage({ value: encodeSpans(recorder.spans(), 'otlp_json') }), source, output.output);
    const decision = valueOf(output.accepted[0]![0]);
    expect(decision).toMatchObject({ runId: recorder.spans()[0]!.spanContext().traceId, scorerId: 'fixed', decision: 'skipped', reason: 'not_an_agent_trace', source });
    expect(output.accepted[0]![0]!.topic).toBe('decisions');
    expect(context.stats.skipsByReason.get('not_an_agent_trace')).toBe(1);
  });

  it('counts the skips of traces without a run per binding, building no record, when no decisions topic is configured; publishes the same decisions when one is', async () => {
    recordPlainTrace(recorder.tracer);
    recordPlainTrace(recorder.tracer);
    const value = encodeSpans(recorder.spans(), 'otlp_proto');
    const twoBindings = [{ scorer: fixedScorer }, { scorer: secondScorer }];
    const decided = async (decisionsTopic: string | undefined) => {
      const input = createOtlpSource({ config: config({ gracePeriodMs: 0 }) });
      const { context } = messageContext({ decisionsTopic, scorers: twoBindings });
      const output = fakeOutput();
      await claimOf(input, context).process(consumedMessage({ value }), source, output.output);
      return { skips: [...context.stats.skipsByReason], records: output.records().map((record) => [record.topic, valueOf(record).runId, valueOf(record).scorerId, valueOf(record).reason]) };
    };
    const traceIds = [...new Set(recorder.spans().map((span) => span.spanContext().traceId))];
    const counted = await decided(undefined);
    expect(counted).toEqual({ skips: [['not_an_agent_trace', 4]], records: [] });
    const published = await decided('decisions');
    expect(published.skips).toEqual([['not_an_agent_trace', 4]]);
    expect(published.records).toEqual(traceIds.flatMap((traceId) => [['decisions', traceId, 'fixed', 'not_an_agent_trace'], ['decisions', traceId, 'second', 'not_an_agent_trace']]));
  });

  it('in a replay, marks a trace decision with the replay id, as the run-event path marks its records', async () => {
    recordPlainTrace(recorder.tracer);
    const input = createOtlpSource({ config: config({ gracePeriodMs: 0, encoding: 'otlp_json' }) });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    context.replay = { id: 'replay-0123456789ab' };
    const claim = claimOf(input, context);
    const output = fakeOutput();
    await claim.process(consumedMessage({ value: encodeSpans(recorder.spans(), 'otlp_json') }), source, output.output);
    expect(valueOf(output.accepted[0]![0])).toMatchObject({ reason: 'not_an_agent_trace', replay: { id: 'replay-0123456789ab' } });
  });

  it('decides a trace whose root never arrives as incomplete_trace after the idle timeout, counting it without a decisions topic', async () => {
    recorder.tracer.startActiveSpan('root', (root) => {
      recorder.tracer.startSpan('child').end();
      root.end();
    });
    const child = recorder.spans().find((span) => span.name === 'child')!;
    const time = clock();
    const input = createOtlpSource({ config: config({ idleTimeoutMs: 5 }), now: time.now });
    const { context } = messageContext();
    const claim = claimOf(input, context);
    const output = fakeOutput();
    const done = track(claim.process(consumedMessage({ value: encodeSpans([child], 'otlp_proto') }), source, output.output));
    await Promise.resolve();
    expect(done.settled).toBe(false);
    time.advance(5);
    await expect.poll(() => done.settled).toBe(true);
    expect(output.accepted).toHaveLength(0);
    expect(context.stats.skipsByReason.get('incomplete_trace')).toBe(1);
    expect(input.stats.tracesClosed.idle).toBe(1);
  });

  it('closes the oldest trace as assembly_overflow when too many are open', async () => {
    recordPlainTrace(recorder.tracer);
    recordPlainTrace(recorder.tracer);
    const [firstTrace, secondTrace] = [...new Set(recorder.spans().map((span) => span.spanContext().traceId))];
    const childOf = (traceId: string) => recorder.spans().find((span) => span.spanContext().traceId === traceId && span.name === 'SELECT 1')!;
    const input = createOtlpSource({ config: config({ maxOpenTraces: 1 }) });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const claim = claimOf(input, context);
    const output = fakeOutput();
    const first = claim.process(consumedMessage({ value: encodeSpans([childOf(firstTrace!)], 'otlp_proto') }), source, output.output);
    const second = track(claim.process(consumedMessage({ value: encodeSpans([childOf(secondTrace!)], 'otlp_proto') }), source, output.output));
    await first;
    expect(valueOf(output.accepted[0]![0])).toMatchObject({ runId: firstTrace, reason: 'assembly_overflow' });
    expect(second.settled).toBe(false);
    expect(input.stats.tracesClosed.overflow).toBe(1);
  });

  it('dead-letters a value that is not OTLP in the configured encoding (invalid_otlp), and a tombstone', async () => {
    const input = createOtlpSource({ config: config() });
    const { context } = messageContext();
    const claim = claimOf(input, context);
    const output = fakeOutput();
    await claim.process(consumedMessage({ key: 'k1', value: '{"not":"otlp"' }), source, output.output);
    await claim.process(consumedMessage({ key: 'k2', value: null }), source, output.output);
    expect(output.accepted.map((batch) => valueOf(batch[0]).error)).toMatchObject([{ code: 'invalid_otlp' }, { code: 'invalid_otlp' }]);
    expect(output.accepted[0]![0]!.topic).toBe('dead-letters');
    expect(context.stats.deadLettersByCode.get('invalid_otlp')).toBe(2);
  });

  it("leaves out Scorestream's own spans and resolves a message that had nothing else at once", async () => {
    const own = spanRecorder({ 'service.name': 'scorestream', 'scorestream.origin': 'scorestream' });
    own.tracer.startSpan('score answer-length').end();
    const input = createOtlpSource({ config: config() });
    const { context } = messageContext();
    const claim = claimOf(input, context);
    const output = fakeOutput();
    await claim.process(consumedMessage({ value: encodeSpans(own.spans(), 'otlp_proto') }), source, output.output);
    expect(input.stats).toMatchObject({ ownSpans: 1, spans: 0, openTraces: 0 });
    await own.shutdown();
    recorder = spanRecorder();
  });

  it('abandons the messages still waiting for their traces when the claim ends (a rebalance, a reset partition, the hard stop)', async () => {
    recordPlainTrace(recorder.tracer);
    const child = recorder.spans().find((span) => span.name === 'SELECT 1')!;
    const input = createOtlpSource({ config: config() });
    const { context } = messageContext();
    const claim = claimOf(input, context);
    const waiting = claim.process(consumedMessage({ value: encodeSpans([child], 'otlp_proto') }), source, fakeOutput().output);
    await Promise.resolve();
    expect(input.stats.openTraces).toBe(1);
    claim.end();
    expect(await waiting).toBe('abandoned');
    expect(input.stats).toMatchObject({ openTraces: 0, bufferedSpans: 0, claimsEnded: 1 });
    expect(context.stats.deadLettered).toBe(0);
  });

  it('starts the work of traces closed together STARTED_PER_TURN at a time, a turn of the event loop apart, each once', async () => {
    const traces = 2 * STARTED_PER_TURN + 10;
    for (let index = 0; index < traces; index += 1) recordPlainTrace(recorder.tracer);
    const { input, started, groups, take } = recordedClaim(encodeSpans(recorder.spans(), 'otlp_proto'));
    await take();
    // every group is one synchronous stretch: the tick that closed them all, then one turn each
    expect(groups).toEqual([STARTED_PER_TURN, STARTED_PER_TURN, 10]);
    expect(new Set(started).size).toBe(traces);
    expect(input.stats.tracesClosed.ready).toBe(traces);
  });

  it('leaves undone the closed traces whose work had not started when the claim ended', async () => {
    for (let index = 0; index < STARTED_PER_TURN + 10; index += 1) recordPlainTrace(recorder.tracer);
    // the claim ends right after the first turn's traces started (a rebalance between two turns)
    const { started, take } = recordedClaim(encodeSpans(recorder.spans(), 'otlp_proto'), (count, partition) => {
      if (count === STARTED_PER_TURN) queueMicrotask(() => partition.end());
    });
    await expect(take()).rejects.toBeInstanceOf(ClaimEndedError);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toHaveLength(STARTED_PER_TURN);
  });

  it('rebuilds, in a new claim of the partition, a trace the ended claim had closed: re-read spans are not late', async () => {
    await runWeatherAgent({ telemetry: 'semconv', tracer: recorder.tracer });
    const spans = recorder.spans();
    const agent = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent')!;
    const input = createOtlpSource({ config: config({ gracePeriodMs: 0 }) });
    const { context } = messageContext();
    const message = consumedMessage({ value: encodeSpans(spans, 'otlp_proto') });
    const first = claimOf(input, context);
    const firstOutput = fakeOutput();
    expect(await first.process(message, source, firstOutput.output)).toBe('finished');
    first.end(); // say the transaction that held its record failed: the partition is read again
    const second = claimOf(input, context);
    const secondOutput = fakeOutput();
    expect(await second.process(message, source, secondOutput.output)).toBe('finished');
    const runId = `${agent.spanContext().traceId}-${agent.spanContext().spanId}`;
    expect(firstOutput.records().map((record) => valueOf(record).runId)).toEqual([runId]);
    expect(secondOutput.records().map((record) => valueOf(record).runId)).toEqual([runId]);
    expect(input.stats).toMatchObject({ runsAssembled: 2, lateSpans: 0 });
  });

  it('keeps the assemblies of two claimed partitions apart', async () => {
    await runWeatherAgent({ telemetry: 'semconv', tracer: recorder.tracer });
    const spans = recorder.spans();
    const agent = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent')!;
    const children = spans.filter((span) => span !== agent);
    const input = createOtlpSource({ config: config({ gracePeriodMs: 0, idleTimeoutMs: 60_000 }) });
    const { context } = messageContext();
    const [left, right] = [claimOf(input, context), claimOf(input, context)];
    const waiting = track(left.process(consumedMessage({ value: encodeSpans(children, 'otlp_proto') }), source, fakeOutput().output));
    // The agent span in another partition's claim does not close the first claim's trace.
    await right.process(consumedMessage({ value: encodeSpans([agent], 'otlp_proto') }), { ...source, partition: 9 }, fakeOutput().output);
    expect(waiting.settled).toBe(false);
    expect(input.stats.openTraces).toBe(1);
    left.end();
    right.end();
  });

  it('keeps every claimed partition within one maxOpenTraces: a new trace closes the oldest open one of any partition', async () => {
    recordPlainTrace(recorder.tracer);
    recordPlainTrace(recorder.tracer);
    const [firstTrace, secondTrace] = [...new Set(recorder.spans().map((span) => span.spanContext().traceId))];
    const childOf = (traceId: string) => recorder.spans().find((span) => span.spanContext().traceId === traceId && span.name === 'SELECT 1')!;
    const input = createOtlpSource({ config: config({ maxOpenTraces: 1 }) });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const [left, right] = [claimOf(input, context), claimOf(input, context)];
    const leftOutput = fakeOutput();
    const first = left.process(consumedMessage({ value: encodeSpans([childOf(firstTrace!)], 'otlp_proto') }), source, leftOutput.output);
    const second = track(right.process(consumedMessage({ value: encodeSpans([childOf(secondTrace!)], 'otlp_proto') }), { ...source, partition: 9 }, fakeOutput().output));
    expect(await first).toBe('finished');
    expect(valueOf(leftOutput.accepted[0]![0])).toMatchObject({ runId: firstTrace, reason: 'assembly_overflow' });
    expect(second.settled).toBe(false);
    expect(input.stats).toMatchObject({ openTraces: 1, peakOpenTraces: 1, tracesClosed: { overflow: 1 } });
    left.end();
    right.end();
  });
});
