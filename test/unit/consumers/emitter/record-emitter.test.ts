// The one way out: every outcome and every dead letter becomes its records here — data handling
// first (evidence, redaction), the origin header, the replay mark, the topic and key — sized to
// maxRecordBytes, published until acknowledged, and counted only then. Fakes at the seams: the
// output, the pacing and the clock.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ORIGIN_HEADER } from '../../../../consumers/loop-guard.ts';
import pino from 'pino';
import { createEmitter, createRecordEmitter } from '../../../../consumers/emitter/record-emitter.ts';
import { ServiceStats } from '../../../../consumers/service-stats.ts';
import { topicsSchema } from '../../../../src/engine/config/config-schema.ts';
import { agreementRecordKey } from '../../../../src/kit/contracts/agreement-id.ts';
import type { AgreementPair } from '../../../../src/kit/contracts/agreement-record.ts';
import type { AlertRecord } from '../../../../src/kit/contracts/alert-record.ts';
import { alertKeyFor, recordKeyFor } from '../../../../src/kit/contracts/record-key.ts';
import type { RescoreRequest } from '../../../../src/kit/contracts/rescore-request.ts';
import { createDataHandling } from '../../../../src/engine/data-handling/data-handling.ts';
import { redactionSchema } from '../../../../src/engine/data-handling/redaction-schema.ts';
import { topologyOf } from '../../../../src/engine/topology/topology.ts';
import type { DecisionRecord } from '../../../../src/kit/contracts/decision-record.ts';
import { parseDeadLetter, parseDecisionRecord, parseScoreRecord } from '../../../../src/kit/contracts/parse.ts';
import { RETRY_DUE_HEADER } from '../../../../src/kit/contracts/retry-message.ts';
import { threadDecisionKeyFor } from '../../../../src/kit/contracts/record-key.ts';
import { threadScoreViewKeyFor } from '../../../../src/kit/contracts/thread-ids.ts';
import { createTurnCountScorer } from '../../../../src/kit/scorers/code/turn-count/index.ts';
import { scoreIdFor } from '../../../../src/kit/contracts/score-id.ts';
import type { RetryMessage } from '../../../../src/kit/contracts/retry-message.ts';
import type { FailedScoreRecord, ScoreRecord } from '../../../../src/kit/contracts/score-record.ts';
import { consumedMessage, fakeOutput, fixedScorer, messageContext, messageTimestamp, recordedPacing, source, valueOf } from '../message-fixtures.ts';
import type { TestContextOptions } from '../message-fixtures.ts';
import type { EvaluationLog } from '../../../../src/engine/pipeline/evaluation-event.ts';

const record = {
  schemaVersion: 1,
  scoreId: scoreIdFor({ runId: 'run-1', scorerId: 'tone' }),
  runId: 'run-1',
  scorerId: 'tone',
  entity: { type: 'agent', id: 'support-agent' },
  steps: {},
  prompts: {},
  source,
  scoredAt: '2026-11-29T12:00:01.000Z',
  durationMs: 4,
  status: 'scored',
  score: 0.5,
} as ScoreRecord;
const eventTime = Date.parse('2026-11-29T12:00:00.000Z');
const now = () => eventTime + 1_500;
const where = { source, eventTime };
/** How every record about the pair (run-1, tone) is keyed: by its scoreId, on its run's partition. */
const pairKey = { key: scoreIdFor({ runId: 'run-1', scorerId: 'tone' }), partitionKey: 'run-1' };

function emitter(options: TestContextOptions = {}) {
  const { context, latencies, observed, hardStop } = messageContext({ now, ...options });
  return { emitter: createRecordEmitter(context), context, latencies, observed, hardStop, output: fakeOutput() };
}

describe('record emitter: evaluation log records', () => {
  const redaction = redactionSchema.parse({});
  it('hands each score record, once acknowledged, to the evaluation sink as written: redacted, on the agent span', async () => {
    const { context } = messageContext({ now });
    const emitted: EvaluationLog[] = [];
    const emit = createRecordEmitter({ ...context, config: { ...context.config, redaction }, evaluations: { emit: (log) => emitted.push(log) } });
    const output = fakeOutput();
    output.hold();
    const traced = { ...record, reason: 'mailed jane.doe@example.com', trace: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', parentSpanId: '00f067aa0ba902b7' } } as ScoreRecord;
    const publishing = emit.emit({ kind: 'record', record: traced }, output.output, where);
    await Promise.resolve();
    expect(emitted, 'nothing before the broker took the record').toEqual([]);
    output.release();
    await publishing;
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toMatchObject({ eventName: 'gen_ai.evaluation.result', trace: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' } });
    expect(emitted[0]!.attributes['gen_ai.evaluation.explanation']).toBe(valueOf(output.records()[0]).reason);
    expect(String(emitted[0]!.attributes['gen_ai.evaluation.explanation'])).not.toContain('jane.doe@example.com');
  });

  it('never fails a publish when the sink throws: the record is on Kafka and counted', async () => {
    const { context } = messageContext({ now });
    const emit = createRecordEmitter({ ...context, evaluations: { emit: () => {
      throw new Error('log pipeline broken');
    } } });
    const output = fakeOutput();
    await expect(emit.emit({ kind: 'record', record }, output.output, where)).resolves.toBeUndefined();
    expect(output.accepted).toHaveLength(1);
    expect(context.stats.byScorer.get('tone')).toMatchObject({ scored: 1 });
  });
});

describe('record emitter: score records', () => {
  it('publishes the record to the results topic, keyed by its scoreId and partitioned by run id, with the origin header', async () => {
    const { emitter: emit, output } = emitter();
    await emit.emit({ kind: 'record', record }, output.output, where);
    expect(output.accepted).toHaveLength(1);
    expect(output.records()[0]).toMatchObject({ topic: 'scores', ...pairKey, headers: { [ORIGIN_HEADER]: 'scorestream' } });
    expect(valueOf(output.records()[0])).toEqual(record);
  });

  it('counts the record and its latency only once it was acknowledged', async () => {
    const { emitter: emit, output, context, latencies } = emitter();
    output.hold();
    const publishing = emit.emit({ kind: 'record', record }, output.output, where);
    await Promise.resolve();
    expect(context.stats.totals().scored).toBe(0);
    expect(latencies).toEqual([]);
    output.release();
    await publishing;
    expect(context.stats.byScorer.get('tone')).toMatchObject({ scored: 1, scoreSum: 0.5 });
    expect(context.stats.latenciesMs).toEqual([1_500]);
    expect(latencies).toEqual([1_500]);
  });

  it('retries a transient failure until acknowledged', async () => {
    const { emitter: emit, output, context } = emitter();
    output.fail(3);
    await emit.emit({ kind: 'record', record }, output.output, where);
    expect(output.attempts()).toBe(4);
    expect(context.stats.publishRetries).toBe(3);
    expect(context.stats.totals().scored).toBe(1);
  });

  it('records no latency when the event time is unreadable', async () => {
    const { emitter: emit, output, context, latencies } = emitter();
    await emit.emit({ kind: 'record', record }, output.output, { source, eventTime: Number.NaN });
    expect(context.stats.totals().scored).toBe(1);
    expect(latencies).toEqual([]);
  });

  it('hands a re-score to the metrics without a latency and leaves it out of its scorer\'s tally (re-scores counted as scores)', async () => {
    const { emitter: emit, output, context, latencies, observed } = emitter();
    const rescore = { ...record, scoreId: 'rescore-1', rescore: { feedbackId: 'fb-1', reason: 'thumbs-down' } } as ScoreRecord;
    // A re-score deferred to a retry tier comes back with its run event's (old) timestamp: still no latency.
    await emit.emit({ kind: 'record', record: rescore }, output.output, where);
    await emit.emit({ kind: 'record', record: rescore }, output.output, { source, eventTime: Number.NaN });
    expect(output.accepted).toHaveLength(2);
    expect(observed.map((seen) => [seen.record.rescore?.feedbackId, seen.latencyMs])).toEqual([['fb-1', undefined], ['fb-1', undefined]]);
    expect(latencies).toEqual([]);
    expect(context.stats.latenciesMs).toEqual([]);
    expect(context.stats.byScorer.get('tone')).toBeUndefined();
    expect(context.stats.totals().scored).toBe(0);
  });

  it('publishes a record whose results cannot be written as failed (unserializable_result)', async () => {
    const { emitter: emit, output } = emitter();
    await emit.emit({ kind: 'record', record: { ...record, steps: { preprocess: 1n } } as unknown as ScoreRecord }, output.output, where);
    expect(valueOf(output.records()[0])).toMatchObject({ runId: 'run-1', status: 'failed', error: { code: 'unserializable_result' } });
  });

  it('sheds the evidence of a record over maxRecordBytes, keeping its score, with the truncation marker', async () => {
    const { emitter: emit, output, context } = emitter({ maxRecordBytes: 4_000 });
    const big = { ...record, steps: { preprocess: { answer: 'x'.repeat(10_000) } } } as ScoreRecord;
    await emit.emit({ kind: 'record', record: big }, output.output, where);
    const written = valueOf(output.records()[0]) as ScoreRecord;
    expect(written).toMatchObject({ status: 'scored', score: 0.5, scoreId: pairKey.key, steps: {}, truncated: { limitBytes: 4_000, dropped: [{ part: 'steps' }] } });
    expect(written.truncated!.dropped[0]!.bytes).toBeGreaterThan(10_000);
    expect(Buffer.byteLength(String(output.records()[0]!.value))).toBeLessThanOrEqual(4_000);
    expect(parseScoreRecord(written).success).toBe(true);
    expect(context.stats.recordsTruncated).toBe(1);
    expect(context.stats.totals().scored).toBe(1);
  });

  it('marks a replay’s score and decision records', async () => {
    const { context } = messageContext({ now, decisionsTopic: 'decisions' });
    context.replay = { id: 'replay-0123456789ab' };
    const output = fakeOutput();
    const emit = createRecordEmitter(context);
    await emit.emit({ kind: 'record', record }, output.output, where);
    await emit.emit({ kind: 'skipped', decision: { schemaVersion: 1, runId: 'run-1', scorerId: 'tone', decision: 'skipped', reason: 'filter', source, decidedAt: '2026-11-29T12:00:01.000Z' } }, output.output, where);
    expect(output.records().map((written) => valueOf(written).replay)).toEqual([{ id: 'replay-0123456789ab' }, { id: 'replay-0123456789ab' }]);
  });

  const missing = [
    { part: 'question' as const, reason: "no user message in the spans of the run ('chat m' ×2): no attribute or event they carry held one" },
    { part: 'answer' as const, reason: "no final answer in the spans of the run ('chat m' ×2): no attribute or event they carry held one" },
  ];
  const lacking = { ...record, metadata: { tenantId: 'acme' }, missing, trace: { traceId: 'a'.repeat(32), parentSpanId: 'b'.repeat(16) } } as ScoreRecord;

  it('publishes a record whose run lacks content together with its flagged / missing_content decision, counted as no skip', async () => {
    const { emitter: emit, output, context } = emitter({ decisionsTopic: 'decisions' });
    await emit.emit({ kind: 'record', record: lacking }, output.output, where);
    // one batch: the record and its flag are accepted together
    expect(output.accepted).toHaveLength(1);
    // both keyed by the pair's key, so a compacted decisions topic keeps the flag beside other pairs' decisions
    expect(output.records().map((written) => [written.topic, written.key])).toEqual([
      ['scores', pairKey.key],
      ['decisions', pairKey.key],
    ]);
    expect(valueOf(output.records()[0])).toEqual(lacking);
    expect(valueOf(output.records()[1])).toEqual({
      schemaVersion: 1,
      runId: 'run-1',
      scorerId: 'tone',
      entity: { type: 'agent', id: 'support-agent' },
      metadata: { tenantId: 'acme' },
      decision: 'flagged',
      reason: 'missing_content',
      detail: `${missing[0]!.reason}; ${missing[1]!.reason}`,
      trace: lacking.trace,
      source,
      decidedAt: new Date(now()).toISOString(),
    });
    expect(parseDecisionRecord(valueOf(output.records()[1])).success).toBe(true);
    expect(output.records()[1]!.headers).toEqual({ [ORIGIN_HEADER]: 'scorestream' });
    expect(context.stats.skipsByReason.size).toBe(0);
    expect(context.stats.totals().scored).toBe(1);
  });

  it('flags a replay’s record with the replay’s mark, and without a decisions topic publishes the record alone', async () => {
    const { context } = messageContext({ now, decisionsTopic: 'decisions' });
    context.replay = { id: 'replay-0123456789ab' };
    const replayed = fakeOutput();
    await createRecordEmitter(context).emit({ kind: 'record', record: lacking }, replayed.output, where);
    expect(replayed.records().map((written) => [written.topic, valueOf(written).replay])).toEqual([
      ['scores', { id: 'replay-0123456789ab' }],
      ['decisions', { id: 'replay-0123456789ab' }],
    ]);
    const { emitter: emit, output } = emitter();
    await emit.emit({ kind: 'record', record: lacking }, output.output, where);
    expect(output.records().map((written) => written.topic)).toEqual(['scores']);
  });

  it('keeps a flag’s detail within bounds when the reasons are long (span names come from the app)', async () => {
    const { emitter: emit, output } = emitter({ decisionsTopic: 'decisions' });
    await emit.emit({ kind: 'record', record: { ...lacking, missing: [{ part: 'answer', reason: 'x'.repeat(5_000) }] } as ScoreRecord }, output.output, where);
    expect(valueOf(output.records()[1]).detail).toHaveLength(1_000);
    // the record keeps the reason whole
    expect((valueOf(output.records()[0]) as ScoreRecord).missing![0]!.reason).toHaveLength(5_000);
  });

  it('gives every record a smaller stand-in for a broker that refuses it, down to failed/record_too_large', () => {
    const { emitter: emit, output } = emitter();
    const big = { ...record, steps: { preprocess: 'x'.repeat(5_000) }, prompts: { analyze: 'p'.repeat(5_000) } } as ScoreRecord;
    void emit.emit({ kind: 'record', record: big }, output.output, where);
    return expect.poll(() => output.records().length).toBe(1).then(() => {
      const first = output.records()[0]!;
      // Waiting for its acknowledgement as bytes: the stand-ins are made from them only when asked.
      expect(Buffer.isBuffer(first.value)).toBe(true);
      const refusal = { type: 'MESSAGE_TOO_LARGE' as const, message: 'too large' };
      const second = first.fallback!(refusal)!;
      expect(second).toMatchObject(pairKey);
      expect(valueOf(second)).toMatchObject({ status: 'scored', truncated: { dropped: [{ part: 'steps' }] } });
      const third = second.fallback!(refusal)!;
      expect(valueOf(third)).toMatchObject({ status: 'scored', prompts: {}, truncated: { dropped: [{ part: 'steps' }, { part: 'prompts' }] } });
      const fourth = third.fallback!(refusal)!;
      expect(valueOf(fourth)).toMatchObject({ status: 'failed', scoreId: pairKey.key, error: { code: 'record_too_large', retryable: false } });
      expect(parseScoreRecord(valueOf(fourth)).success).toBe(true);
    });
  });
});

describe('record emitter: what waits for the acknowledgement', () => {
  // V8's collector, reachable without --expose-gc: a test of what stays reachable needs it.
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;

  it('holds a score record waiting for its acknowledgement as its bytes, not as the record and its JSON text', async () => {
    const { emitter: emit, output } = emitter();
    output.hold();
    const records = 200;
    const evidenceChars = 50_000;
    collect();
    const before = process.memoryUsage();
    const waiting: Array<Promise<void> | undefined> = [];
    // Each record's steps are its own 50 kB string, reachable only through the record (and its JSON).
    for (let index = 0; index < records; index += 1) {
      const steps = { preprocess: `${index}:${'x'.repeat(evidenceChars)}` };
      waiting.push(emit.emit({ kind: 'record', record: { ...record, runId: `run-${index}`, steps } as ScoreRecord }, output.output, where));
    }
    await new Promise((resolve) => setImmediate(resolve));
    collect();
    const held = process.memoryUsage();
    const heapPerRecord = (held.heapUsed - before.heapUsed) / records;
    const bytesPerRecord = (held.external + held.arrayBuffers - before.external - before.arrayBuffers) / records;
    // Held as the record and its JSON text, each would keep about twice its evidence on the heap.
    expect(heapPerRecord).toBeLessThan(evidenceChars / 4);
    expect(bytesPerRecord).toBeGreaterThan(evidenceChars);
    output.release();
    await Promise.all(waiting);
    expect(output.records()).toHaveLength(records);
  });
});

describe('record emitter: decisions and deferrals', () => {
  const decision: DecisionRecord = { schemaVersion: 1, runId: 'run-1', scorerId: 'tone', decision: 'skipped', reason: 'filter', source, decidedAt: '2026-11-29T12:00:01.000Z' };

  it('publishes a skip to the decisions topic (keyed like the pair’s score record, origin header), then counts it by reason', async () => {
    const { emitter: emit, output, context } = emitter({ decisionsTopic: 'decisions' });
    output.fail(1);
    await emit.emit({ kind: 'skipped', decision }, output.output, where);
    expect(output.records().map((written) => ({ topic: written.topic, key: written.key, partitionKey: written.partitionKey, headers: written.headers }))).toEqual([{ topic: 'decisions', ...pairKey, headers: { [ORIGIN_HEADER]: 'scorestream' } }]);
    expect(valueOf(output.records()[0])).toEqual(decision);
    expect(Object.fromEntries(context.stats.skipsByReason)).toEqual({ filter: 1 });
  });

  it('without a decisions topic only counts the skip, and a budget skip by its budget', async () => {
    const { emitter: emit, output, context } = emitter();
    await emit.emit({ kind: 'skipped', decision: { ...decision, reason: 'budget_exhausted', budget: { name: 'calls', window: 'minute' } } }, output.output, where);
    expect(output.attempts()).toBe(0);
    expect(context.stats.skipsByReason.get('budget_exhausted')).toBe(1);
    expect(context.stats.budgetExhaustedByBudget.get('calls')).toBe(1);
  });

  const failed = { ...record, status: 'failed', score: undefined, error: { name: 'E', message: 'down', failedStep: 'generateScore', completedSteps: [], retryable: true } } as unknown as FailedScoreRecord;
  const retry = (attempts = 1): RetryMessage => ({
    schemaVersion: 1,
    runId: 'run-1',
    scorerId: 'tone',
    attempt: attempts,
    firstFailedAt: '2026-11-29T12:00:01.000Z',
    dueAt: '2026-11-29T12:01:01.000Z',
    source,
    trace: {},
    attempts: Array.from({ length: attempts }, () => ({ failedAt: '2026-11-29T12:00:01.000Z', durationMs: 4, error: failed.error, judge: { generateScore: { executions: [{ status: 'failed', prompt: 'p'.repeat(2_000), judgeModelId: 'm', attemptCount: 1, modelCallCount: 1, durationMs: 1, error: { name: 'E', message: 'down' } }] } } })),
    event: { runId: 'run-1' } as RetryMessage['event'],
  });

  it('publishes a deferral to the tier topic of its delay with the due header, and its decision', async () => {
    const { emitter: emit, output, context } = emitter({ decisionsTopic: 'decisions' });
    await emit.emit({ kind: 'deferred', retry: retry(), delayMs: 60_000, decision: { ...decision, decision: 'deferred', reason: 'deferred_retry' }, final: failed }, output.output, where);
    expect(output.accepted).toHaveLength(1);
    expect(output.records().map((written) => [written.topic, written.key, written.partitionKey])).toEqual([
      ['agent-runs-retry-1m', pairKey.key, pairKey.partitionKey],
      ['decisions', pairKey.key, pairKey.partitionKey],
    ]);
    expect(output.records()[0]!.headers).toMatchObject({ [ORIGIN_HEADER]: 'scorestream', [RETRY_DUE_HEADER]: String(Date.parse('2026-11-29T12:01:01.000Z')) });
    expect(context.stats.retriesDeferred).toBe(1);
    // Refused anyway: the failure goes out as final.
    const final = output.records()[0]!.fallback!({ type: 'MESSAGE_TOO_LARGE', message: 'm' })!;
    expect(final).toMatchObject({ topic: 'scores', ...pairKey });
    expect(valueOf(final)).toMatchObject({ status: 'failed', scoreId: pairKey.key });
  });

  it('drops older attempts’ judge evidence from a retry message over the limit, else publishes the failure as final', async () => {
    const slim = emitter({ maxRecordBytes: 3_000 });
    await slim.emitter.emit({ kind: 'deferred', retry: retry(2), delayMs: 10_000, decision, final: failed }, slim.output.output, where);
    const written = valueOf(slim.output.records()[0]) as RetryMessage;
    expect(written.attempts.map((attempt) => attempt.judge === undefined)).toEqual([true, false]);
    const tight = emitter({ maxRecordBytes: 1_000 });
    await tight.emitter.emit({ kind: 'deferred', retry: retry(2), delayMs: 10_000, decision, final: failed }, tight.output.output, where);
    expect(tight.output.records().map((written) => [written.topic, valueOf(written).status])).toEqual([['scores', 'failed']]);
    expect(tight.context.stats.retriesDeferred).toBe(0);
  });
});

describe('record emitter: dead letters', () => {
  const reason = { code: 'invalid_json' as const, message: 'the message value is not valid JSON' };
  const badMessage = consumedMessage({ key: 'run-7', value: '{"runId": ', headers: { traceparent: '00-abc', tenant: [Buffer.from('a'), Buffer.from('b')] } });

  it('keeps the key, sets the origin header, carries the message as it came with its hash, where from and why; counted once acknowledged', async () => {
    const { emitter: emit, output, context } = emitter({ now: () => Date.parse('2026-11-29T12:00:05.000Z') });
    output.fail(2);
    await emit.deadLetter(badMessage, source, reason, output.output);
    expect(output.attempts()).toBe(3);
    expect(output.records()[0]).toMatchObject({ topic: 'dead-letters', key: 'run-7', headers: { [ORIGIN_HEADER]: 'scorestream' } });
    // The key the message came with, and the partitioner's own choice by it: nothing of a pair.
    expect(output.records()[0]!.partitionKey).toBeUndefined();
    const deadLetter = valueOf(output.records()[0]);
    expect(parseDeadLetter(deadLetter).success).toBe(true);
    expect(deadLetter).toEqual({
      schemaVersion: 1,
      key: { encoding: 'utf8', data: 'run-7' },
      value: { encoding: 'utf8', data: '{"runId": ' },
      valueSha256: createHash('sha256').update('{"runId": ').digest('hex'),
      headers: { traceparent: { encoding: 'utf8', data: '00-abc' }, tenant: [{ encoding: 'utf8', data: 'a' }, { encoding: 'utf8', data: 'b' }] },
      source: { ...source, timestamp: messageTimestamp.iso },
      error: reason,
      deadLetteredAt: '2026-11-29T12:00:05.000Z',
    });
    expect(context.stats.deadLettersByCode.get('invalid_json')).toBe(1);
  });

  it('keeps a null key null, the contract problems, and leaves out a timestamp that is not a time', async () => {
    const { emitter: emit, output } = emitter();
    const problems = [{ path: 'entity.type', message: 'Invalid option' }];
    await emit.deadLetter(consumedMessage({ value: '{}', timestamp: 'not a time' }), source, { code: 'schema_violation', message: 'm', problems }, output.output);
    expect(output.records()[0]!.key).toBeNull();
    expect(valueOf(output.records()[0])).toMatchObject({ key: null, source, error: { code: 'schema_violation', problems } });
    expect(valueOf(output.records()[0]).source).toEqual(source);
  });

  it('keeps as much of an oversized value as fits, says how much it dropped, and carries the hash of the whole', async () => {
    const { emitter: emit, output } = emitter({ maxRecordBytes: 2_000 });
    const value = Buffer.from('é'.repeat(5_000)); // 10,000 bytes of two-byte characters
    await emit.deadLetter(consumedMessage({ key: 'big', value }), source, { code: 'oversized', message: 'too big' }, output.output);
    const json = String(output.records()[0]!.value);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(2_000);
    const deadLetter = valueOf(output.records()[0]) as { value: { encoding: string; data: string }; valueSha256: string; truncated: { keptBytes: number; droppedBytes: number } };
    expect(parseDeadLetter(deadLetter).success).toBe(true);
    expect(deadLetter.value.encoding).toBe('utf8');
    expect(value.toString('utf8').startsWith(deadLetter.value.data)).toBe(true);
    expect(deadLetter.truncated.keptBytes).toBe(Buffer.byteLength(deadLetter.value.data));
    expect(deadLetter.truncated.keptBytes + deadLetter.truncated.droppedBytes).toBe(10_000);
    expect(deadLetter.truncated.keptBytes).toBeGreaterThan(1_000);
    expect(deadLetter.valueSha256).toBe(createHash('sha256').update(value).digest('hex'));
  });

  it('is abandoned, uncounted, when the hard stop ends the retries of its dead letter', async () => {
    const { publishRetry, delays } = recordedPacing(() => control.hardStop.abort());
    const control = emitter({ publishRetry });
    control.output.fail(10);
    await expect(control.emitter.deadLetter(badMessage, source, reason, control.output.output)).rejects.toThrow('broker unavailable');
    expect(delays).toEqual([200]);
    expect(control.context.stats.deadLettered).toBe(0);
  });
});

describe('record emitter: data handling before anything else', () => {
  const address = 'alice@example.com';
  // A JSON Web Token of 3,000 characters: the bearer-token pattern's, redacted to a short marker.
  const token = `eyJhbGciOiJIUzI1NiJ9.${'a'.repeat(2_960)}.${'b'.repeat(20)}`;

  it('redacts every record it writes: score, decision, retry message, dead-letter reason', async () => {
    const { emitter: emit, output } = emitter({ decisionsTopic: 'decisions' });
    await emit.emit({ kind: 'record', record: { ...record, reason: `mailed ${address}` } as ScoreRecord }, output.output, where);
    const decision: DecisionRecord = { schemaVersion: 1, runId: 'run-1', scorerId: 'tone', decision: 'skipped', reason: 'predicate_error', detail: `no user ${address}`, source, decidedAt: '2026-11-29T12:00:01.000Z' };
    await emit.emit({ kind: 'skipped', decision }, output.output, where);
    const error = { name: 'E', message: `upstream quoted ${address}`, failedStep: 'generateScore' as const, completedSteps: [], retryable: true };
    const failed = { ...record, status: 'failed', score: undefined, error } as unknown as FailedScoreRecord;
    const retry: RetryMessage = { schemaVersion: 1, runId: 'run-1', scorerId: 'tone', attempt: 1, firstFailedAt: '2026-11-29T12:00:01.000Z', dueAt: '2026-11-29T12:01:01.000Z', source, trace: {}, attempts: [{ failedAt: '2026-11-29T12:00:01.000Z', durationMs: 4, error }], event: { runId: 'run-1', note: address } as unknown as RetryMessage['event'] };
    await emit.emit({ kind: 'deferred', retry, delayMs: 60_000, decision: { ...decision, decision: 'deferred', reason: 'deferred_retry' }, final: failed }, output.output, where);
    await emit.deadLetter(consumedMessage({ key: 'run-7', value: `{"to": "${address}", ` }), source, { code: 'invalid_json', message: `bad JSON: {"to": "${address}", ` }, output.output);
    const [score, skip, retried, deferred, deadLetter] = output.records().map((written) => valueOf(written));
    expect(score!.reason).toBe('mailed [redacted:email]');
    expect(skip!.detail).toBe('no user [redacted:email]');
    expect(retried).toMatchObject({ attempts: [{ error: { message: 'upstream quoted [redacted:email]' } }], event: { note: address } });
    expect(deferred!.detail).toBe('no user [redacted:email]');
    expect(deadLetter).toMatchObject({ error: { message: 'bad JSON: {"to": "[redacted:email]", ' }, value: { data: `{"to": "${address}", ` } });
  });

  it('sizes the redacted record: a reason over the limit only before redaction goes out whole', async () => {
    const long = { ...record, reason: `signed with Bearer ${token}` } as ScoreRecord;
    const redacted = emitter({ maxRecordBytes: 2_000 });
    await redacted.emitter.emit({ kind: 'record', record: long }, redacted.output.output, where);
    expect(valueOf(redacted.output.records()[0])).toMatchObject({ status: 'scored', score: 0.5, reason: 'signed with Bearer [redacted:bearer-token]' });
    expect(valueOf(redacted.output.records()[0]).truncated).toBeUndefined();
    expect(redacted.context.stats.recordsTruncated).toBe(0);
    // The same record without redaction is over the limit even without evidence: record_too_large.
    const plain = emitter({ maxRecordBytes: 2_000, redaction: { builtins: false } });
    await plain.emitter.emit({ kind: 'record', record: long }, plain.output.output, where);
    expect(valueOf(plain.output.records()[0])).toMatchObject({ status: 'failed', error: { code: 'record_too_large' } });
  });

  it('sizes the record at its evidence level: one too large with its prompts fits whole at no-content', async () => {
    const big = { ...record, steps: { preprocess: 'x'.repeat(5_000) }, prompts: { analyze: 'p'.repeat(5_000) } } as ScoreRecord;
    const { emitter: emit, output, context } = emitter({ maxRecordBytes: 4_000, evidence: 'no-content' });
    await emit.emit({ kind: 'record', record: big }, output.output, where);
    const written = valueOf(output.records()[0]);
    expect(written).toMatchObject({ status: 'scored', evidence: 'no-content', steps: {}, prompts: {} });
    expect(written.truncated).toBeUndefined();
    expect(context.stats.recordsTruncated).toBe(0);
  });
});

describe('record emitter: thread scoring', () => {
  const address = 'alice@example.com';
  const thread = { id: 'thread-9', key: 'acme:thread-9', turns: 3, firstRunId: 'run-1', lastRunId: 'run-3', closedBy: 'idle' as const };
  const threadScore = { ...record, scoreId: 'thread-score-1', runId: 'run-3', scorerId: 'turn-count', reason: `asked by ${address}`, thread: { ...thread, version: 1, versionId: 'v-1', scope: 'conversation' as const } } as ScoreRecord;
  const threadDecision: DecisionRecord = { schemaVersion: 1, runId: 'run-3', scorerId: 'turn-count', decision: 'skipped', reason: 'rescore_refused', detail: `resumed by ${address}`, source, decidedAt: '2026-11-29T12:00:01.000Z', thread };

  it("keys a thread scorer's records by their own id, partitions them by the thread key, and handles their data like every record's", async () => {
    const { emitter: emit, output } = emitter({ decisionsTopic: 'decisions' });
    await emit.emit({ kind: 'record', record: threadScore }, output.output, where);
    await emit.emit({ kind: 'skipped', decision: threadDecision }, output.output, where);
    const [score, decision] = output.records();
    expect(score).toMatchObject({ topic: 'scores', key: 'thread-score-1', partitionKey: 'acme:thread-9' });
    expect(decision).toMatchObject({ topic: 'decisions', key: threadDecisionKeyFor(threadDecision as DecisionRecord & { thread: typeof thread }), partitionKey: 'acme:thread-9' });
    expect(valueOf(score).reason).toBe('asked by [redacted:email]');
    expect(valueOf(decision).detail).toBe('resumed by [redacted:email]');
  });

  it('with thread scorers bound, writes a thread score to the latest-score view too, in the same publish, keyed by thread and scorer', async () => {
    const { emitter: emit, output } = emitter({ scorers: [{ scorer: fixedScorer }, { scorer: createTurnCountScorer(), level: 'thread' }] });
    await emit.emit({ kind: 'record', record: threadScore }, output.output, where);
    await emit.emit({ kind: 'record', record }, output.output, where);
    expect(output.accepted).toHaveLength(2);
    const [score, view, runScore] = output.records();
    expect(score).toMatchObject({ topic: 'scores', key: 'thread-score-1' });
    expect(view).toMatchObject({ topic: `${source.topic}-thread-scores`, ...threadScoreViewKeyFor({ threadKey: 'acme:thread-9', scorerId: 'turn-count' }), value: score!.value });
    // A run's record has no place in the view.
    expect(runScore).toMatchObject({ topic: 'scores', ...pairKey });
    expect(output.records()).toHaveLength(3);
  });

  it('writes re-keyed turns under their thread key and changelog records to their partition, their run content as it came', async () => {
    const { emitter: emit, output, context } = emitter({ scorers: [{ scorer: fixedScorer }, { scorer: createTurnCountScorer(), level: 'thread' }] });
    const turn = JSON.stringify({ note: address });
    await emit.emit({ kind: 'thread-turn', key: 'acme:thread-9', json: turn }, output.output, where);
    await emit.emit({ kind: 'thread-state', writes: [{ key: 't:acme:thread-9', value: turn }, { key: 'u:1:acme:thread-9', value: null }], partition: 2 }, output.output, where);
    expect(output.records().map(({ topic, key, partitionKey, partition, value }) => ({ topic, key, partitionKey, partition, value }))).toEqual([
      { topic: `${source.topic}-by-thread`, key: 'acme:thread-9', partitionKey: undefined, partition: undefined, value: turn },
      { topic: `${source.topic}-thread-state`, key: 't:acme:thread-9', partitionKey: undefined, partition: 2, value: turn },
      { topic: `${source.topic}-thread-state`, key: 'u:1:acme:thread-9', partitionKey: undefined, partition: 2, value: null },
    ]);
    expect(context.stats.threads).toMatchObject({ rekeyed: 1, stateWrites: 2 });
  });
});

describe('record emitter: the feedback join and the monitor publish through it too', () => {
  const address = 'alice@example.com';
  const names = topicsSchema.parse({ feedback: 'feedback', agreements: 'agreements', rescore: 'rescore', alerts: 'alerts' });
  const topology = topologyOf({ topics: names, retries: { enabled: false, delaysMs: [] }, threads: false, rescore: false });
  const pair: AgreementPair = {
    schemaVersion: 1,
    kind: 'pair',
    agreementId: 'agreement-1',
    feedbackId: 'feedback-1',
    scoreId: 'score-1',
    runId: 'run-1',
    scorerId: 'relevancy',
    judge: { score: 0.9, label: 'pass' },
    human: { name: 'thumbs', value: false, label: 'fail', source: 'end_user', submitter: { id: address }, comment: `wrong, write to ${address}` },
    agree: false,
    measuredAt: '2026-12-06T00:00:00.000Z',
  };
  function roleEmitter(maxRecordBytes = 1_000_000) {
    const output = fakeOutput();
    const stats = new ServiceStats();
    const emitter = createEmitter({
      topology,
      handling: createDataHandling({ evidence: 'full', redaction: redactionSchema.parse({}), scorers: [] }),
      maxRecordBytes,
      deadLetterTopic: 'feedback-dlq',
      stats,
      logger: pino({ level: 'silent' }),
      now,
      hardStop: new AbortController().signal,
      publishRetry: recordedPacing().publishRetry,
    });
    return { emitter, output, stats };
  }

  it("redacts a person's comment and submitter in an agreement pair, keeps its ids, and keys it by agreementRecordKey", async () => {
    const { emitter: emit, output } = roleEmitter();
    await emit.emit({ kind: 'agreement', record: pair }, output.output, where);
    const [published] = output.records();
    expect(published).toMatchObject({ topic: 'agreements', key: agreementRecordKey(pair), headers: { [ORIGIN_HEADER]: 'scorestream' } });
    expect(String(published!.value)).not.toContain(address);
    const written = JSON.parse(String(published!.value)) as AgreementPair;
    expect(written.human.comment).toBe('wrong, write to [redacted:email]');
    expect(written).toMatchObject({ agreementId: 'agreement-1', feedbackId: 'feedback-1', scoreId: 'score-1', runId: 'run-1', judge: pair.judge });
  });

  it('cuts an oversized comment to maxRecordBytes, and writes a smaller form when the broker refuses the record anyway', async () => {
    const { emitter: emit, output, stats } = roleEmitter(3_000);
    await emit.emit({ kind: 'agreement', record: { ...pair, human: { ...pair.human, comment: 'long '.repeat(10_000) } } }, output.output, where);
    const [published] = output.records();
    expect(Buffer.byteLength(String(published!.value))).toBeLessThanOrEqual(3_000);
    expect(JSON.parse(String(published!.value))).toMatchObject({ truncated: { limitBytes: 3_000, comment: { keptBytes: expect.any(Number) } } });
    expect(stats.recordsTruncated).toBe(1);
    const smaller = published!.fallback!({ type: 'MESSAGE_TOO_LARGE', message: 'too large' })!;
    expect(Buffer.byteLength(String(smaller.value))).toBeLessThan(Buffer.byteLength(String(published!.value)));
    expect(smaller).toMatchObject({ topic: 'agreements', key: agreementRecordKey(pair) });
  });

  it('keys a re-score request like the re-score, and an alert notice by its monitor', async () => {
    const { emitter: emit, output } = roleEmitter();
    const request: RescoreRequest = { schemaVersion: 1, runId: 'run-1', scorerId: 'relevancy', scoreId: 'score-1', source, rescore: { feedbackId: 'feedback-1', reason: 'thumbs-down' }, requestedAt: '2026-12-06T00:00:00.000Z' };
    await emit.emit({ kind: 'rescore-request', request }, output.output, where);
    const notice = { schemaVersion: 1, alertId: 'alert-1', kind: 'breach', monitor: { name: 'relevancy-low' } } as unknown as AlertRecord;
    await emit.emit({ kind: 'alert', notice }, output.output, where);
    const [rescore, alert] = output.records();
    expect(rescore).toMatchObject({ topic: 'rescore', ...recordKeyFor(request), value: JSON.stringify(request) });
    expect(alert).toMatchObject({ topic: 'alerts', key: alertKeyFor(notice) });
  });
});
