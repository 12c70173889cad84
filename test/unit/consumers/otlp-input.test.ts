// createOtlpInput: messages of a Collector's kafka exporter in, runs scored and traces decided,
// and — what the offsets depend on — each message resolving only once every trace it fed was
// closed and its work accepted by the output. Real fixtures (AI SDK telemetry through the OTLP
// serializer), a fake output, an injected clock; the timers are the input's own.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { untracedMessage } from '../../../consumers/message-trace.ts';
import { createOtlpInput } from '../../../consumers/otlp-input.ts';
import { OTLP_DEFAULTS } from '../../../src/config/input-schema.ts';
import type { OtlpInputConfig } from '../../../src/config/input-schema.ts';
import { encodeSpans, recordPlainTrace, runWeatherAgent, spanRecorder } from '../../helpers/otlp-traces.ts';
import type { Recorder } from '../../helpers/otlp-traces.ts';
import { consumedMessage, fakeOutput, messageContext, source, valueOf } from './message-fixtures.ts';
import { fixtureRequests } from '../../helpers/framework-fixtures.ts';

let recorder: Recorder;
beforeAll(() => {
  recorder = spanRecorder();
});
afterAll(() => recorder.shutdown());
beforeEach(() => recorder.reset());

const config = (overrides: Partial<OtlpInputConfig> = {}): OtlpInputConfig => ({ format: 'otlp', ...OTLP_DEFAULTS, ...overrides });

/** A settable clock: the grace periods are measured on it, the input's timers fire at once when due. */
function clock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

function track(promise: Promise<void>) {
  const state = { settled: false as boolean, error: undefined as unknown };
  promise.then(
    () => (state.settled = true),
    (error: unknown) => ((state.settled = true), (state.error = error)),
  );
  return state;
}

describe('createOtlpInput', () => {
  it('holds every message that fed a trace until the run is scored and its record accepted', async () => {
    await runWeatherAgent({ telemetry: 'semconv', tracer: recorder.tracer });
    const spans = recorder.spans();
    const agent = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent')!;
    const children = spans.filter((span) => span !== agent);
    const time = clock();
    const input = createOtlpInput({ config: config({ gracePeriodMs: 0 }), now: time.now });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const first = fakeOutput();
    const second = fakeOutput();
    // the descendants arrive first, the agent span in a later message
    const childrenDone = track(input.process(consumedMessage({ value: encodeSpans(children, 'otlp_proto') }), { ...source, offset: '1' }, first.output, untracedMessage(consumedMessage({ value: null })), context));
    await Promise.resolve();
    expect(childrenDone.settled).toBe(false);
    const agentMessage = input.process(consumedMessage({ value: encodeSpans([agent], 'otlp_proto') }), { ...source, offset: '2' }, second.output, untracedMessage(consumedMessage({ value: null })), context);
    await agentMessage;
    expect(second.accepted).toHaveLength(1);
    const record = valueOf(second.accepted[0]![0]);
    expect(record).toMatchObject({ runId: `${agent.spanContext().traceId}-${agent.spanContext().spanId}`, source: { offset: '2' }, trace: { traceId: agent.spanContext().traceId, parentSpanId: agent.spanContext().spanId } });
    await expect.poll(() => childrenDone.settled).toBe(true);
    expect(childrenDone.error).toBeUndefined();
    expect(input.stats).toMatchObject({ runsAssembled: 1, openTraces: 0, bufferedSpans: 0, tracesClosed: { ready: 1, idle: 0, overflow: 0 } });
    input.close?.();
  });

  it('scores a run whose spans carry no question and no answer, and flags it missing_content with the spans seen (a plain app without content capture)', async () => {
    const input = createOtlpInput({ config: config({ gracePeriodMs: 0, encoding: 'otlp_json' }) });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const output = fakeOutput();
    for (const request of fixtureRequests('openai-v2-python-no-content')) {
      await input.process(consumedMessage({ value: request }), source, output.output, untracedMessage(consumedMessage({ value: null })), context);
    }
    const records = output.accepted.flat().map((record) => ({ topic: record.topic, value: valueOf(record) }));
    const score = records.find((record) => record.topic === 'scores')!.value;
    expect(score).toMatchObject({ status: 'scored', scorerId: 'fixed', missing: [{ part: 'question' }, { part: 'answer' }] });
    const flag = records.find((record) => record.topic === 'decisions')!.value;
    expect(flag).toMatchObject({ runId: score.runId, scorerId: 'fixed', decision: 'flagged', reason: 'missing_content' });
    expect(flag.detail).toContain('rule root_span');
    expect(flag.detail).toContain("'chat scripted-model' ×2");
    expect(input.stats).toMatchObject({ runsAssembled: 1, runsMissingContent: 1 });
    // scored, so no skip is counted
    expect(context.stats.skipsByReason.get('missing_content')).toBeUndefined();
    input.close?.();
  });

  it('decides a trace without an agent span as not_an_agent_trace, per scorer binding, through the decisions topic', async () => {
    recordPlainTrace(recorder.tracer);
    const input = createOtlpInput({ config: config({ gracePeriodMs: 0, encoding: 'otlp_json' }) });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const output = fakeOutput();
    await input.process(consumedMessage({ value: encodeSpans(recorder.spans(), 'otlp_json') }), source, output.output, untracedMessage(consumedMessage({ value: null })), context);
    const decision = valueOf(output.accepted[0]![0]);
    expect(decision).toMatchObject({ runId: recorder.spans()[0]!.spanContext().traceId, scorerId: 'fixed', decision: 'skipped', reason: 'not_an_agent_trace', source });
    expect(output.accepted[0]![0]!.topic).toBe('decisions');
    expect(context.stats.skipsByReason.get('not_an_agent_trace')).toBe(1);
    input.close?.();
  });

  it('in a replay, marks a trace decision with the replay id, as the run-event path marks its records', async () => {
    recordPlainTrace(recorder.tracer);
    const input = createOtlpInput({ config: config({ gracePeriodMs: 0, encoding: 'otlp_json' }) });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    context.replay = { id: 'replay-0123456789ab' };
    const output = fakeOutput();
    await input.process(consumedMessage({ value: encodeSpans(recorder.spans(), 'otlp_json') }), source, output.output, untracedMessage(consumedMessage({ value: null })), context);
    expect(valueOf(output.accepted[0]![0])).toMatchObject({ reason: 'not_an_agent_trace', replay: { id: 'replay-0123456789ab' } });
    input.close?.();
  });

  it('decides a trace whose root never arrives as incomplete_trace after the idle timeout, counting it without a decisions topic', async () => {
    recorder.tracer.startActiveSpan('root', (root) => {
      recorder.tracer.startSpan('child').end();
      root.end();
    });
    const child = recorder.spans().find((span) => span.name === 'child')!;
    const time = clock();
    const input = createOtlpInput({ config: config({ idleTimeoutMs: 5 }), now: time.now });
    const { context } = messageContext();
    const output = fakeOutput();
    const done = track(input.process(consumedMessage({ value: encodeSpans([child], 'otlp_proto') }), source, output.output, untracedMessage(consumedMessage({ value: null })), context));
    await Promise.resolve();
    expect(done.settled).toBe(false);
    time.advance(5);
    await expect.poll(() => done.settled).toBe(true);
    expect(output.accepted).toHaveLength(0);
    expect(context.stats.skipsByReason.get('incomplete_trace')).toBe(1);
    expect(input.stats.tracesClosed.idle).toBe(1);
    input.close?.();
  });

  it('closes the oldest trace as assembly_overflow when too many are open', async () => {
    recordPlainTrace(recorder.tracer);
    recordPlainTrace(recorder.tracer);
    const [firstTrace, secondTrace] = [...new Set(recorder.spans().map((span) => span.spanContext().traceId))];
    const childOf = (traceId: string) => recorder.spans().find((span) => span.spanContext().traceId === traceId && span.name === 'SELECT 1')!;
    const input = createOtlpInput({ config: config({ maxOpenTraces: 1 }) });
    const { context } = messageContext({ decisionsTopic: 'decisions' });
    const output = fakeOutput();
    const first = input.process(consumedMessage({ value: encodeSpans([childOf(firstTrace!)], 'otlp_proto') }), source, output.output, untracedMessage(consumedMessage({ value: null })), context);
    const second = track(input.process(consumedMessage({ value: encodeSpans([childOf(secondTrace!)], 'otlp_proto') }), source, output.output, untracedMessage(consumedMessage({ value: null })), context));
    await first;
    expect(valueOf(output.accepted[0]![0])).toMatchObject({ runId: firstTrace, reason: 'assembly_overflow' });
    expect(second.settled).toBe(false);
    expect(input.stats.tracesClosed.overflow).toBe(1);
    input.close?.();
  });

  it('dead-letters a value that is not OTLP in the configured encoding (invalid_otlp), and a tombstone', async () => {
    const input = createOtlpInput({ config: config() });
    const { context } = messageContext();
    const output = fakeOutput();
    await input.process(consumedMessage({ key: 'k1', value: '{"not":"otlp"' }), source, output.output, untracedMessage(consumedMessage({ value: null })), context);
    await input.process(consumedMessage({ key: 'k2', value: null }), source, output.output, untracedMessage(consumedMessage({ value: null })), context);
    expect(output.accepted.map((batch) => valueOf(batch[0]).error)).toMatchObject([{ code: 'invalid_otlp' }, { code: 'invalid_otlp' }]);
    expect(output.accepted[0]![0]!.topic).toBe('dead-letters');
    expect(context.stats.deadLettersByCode.get('invalid_otlp')).toBe(2);
    input.close?.();
  });

  it("leaves out Scorestream's own spans and resolves a message that had nothing else at once", async () => {
    const own = spanRecorder({ 'service.name': 'scorestream', 'scorestream.origin': 'scorestream' });
    own.tracer.startSpan('score answer-length').end();
    const input = createOtlpInput({ config: config() });
    const { context } = messageContext();
    const output = fakeOutput();
    await input.process(consumedMessage({ value: encodeSpans(own.spans(), 'otlp_proto') }), source, output.output, untracedMessage(consumedMessage({ value: null })), context);
    expect(input.stats).toMatchObject({ ownSpans: 1, spans: 0, openTraces: 0 });
    await own.shutdown();
    recorder = spanRecorder();
    input.close?.();
  });

  it('rejects the messages still waiting for their traces on the hard stop (they stay uncommitted)', async () => {
    recordPlainTrace(recorder.tracer);
    const child = recorder.spans().find((span) => span.name === 'SELECT 1')!;
    const input = createOtlpInput({ config: config() });
    const { context, hardStop } = messageContext();
    const waiting = input.process(consumedMessage({ value: encodeSpans([child], 'otlp_proto') }), source, fakeOutput().output, untracedMessage(consumedMessage({ value: null })), context);
    hardStop.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow(/hard stop/);
    input.close?.();
  });
});
