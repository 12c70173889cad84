import { ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import type { Kafka, Message, ProducerConfig, ProducerRecord, RecordMetadata } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { chunks, createRunPublisher } from '../../../producers/run-publisher.ts';
import { InvalidFeedbackError } from '../../../producers/feedback-validation.ts';
import { InvalidRunError } from '../../../producers/run-validation.ts';
import type { FeedbackTarget } from '../../../src/kit/contracts/feedback-record.ts';
import { ScorestreamError } from '../../../src/kit/errors.ts';
import { wireFeedback, wireRunEvent } from '../src/kit/contracts/fixtures.ts';

type Deferred = { promise: Promise<void>; resolve: () => void };
const deferred = (): Deferred => {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
};

/** A stand-in kafkajs client recording what the publisher asks of its producer. */
function stubKafka(behaviour: { send?: (record: ProducerRecord, call: number) => Promise<RecordMetadata[]>; connect?: (call: number) => Promise<void> } = {}) {
  const calls = { configs: [] as ProducerConfig[], connects: 0, disconnects: 0, sends: [] as ProducerRecord[] };
  const kafka = {
    producer(config: ProducerConfig) {
      calls.configs.push(config);
      return {
        connect: async () => {
          calls.connects += 1;
          await behaviour.connect?.(calls.connects);
        },
        disconnect: async () => {
          calls.disconnects += 1;
        },
        send: async (record: ProducerRecord) => {
          calls.sends.push(record);
          if (behaviour.send) return behaviour.send(record, calls.sends.length);
          return [{ topicName: record.topic, partition: 0, errorCode: 0, baseOffset: String(calls.sends.length * 100) }];
        },
      };
    },
  } as unknown as Kafka;
  return { kafka, calls };
}

const run = (runId: string) => ({ ...wireRunEvent(), runId });

describe('createRunPublisher', () => {
  it('needs brokers or a kafka client', () => {
    expect(() => createRunPublisher({})).toThrow(/needs `brokers`/);
    expect(() => createRunPublisher({ brokers: [] })).toThrow(expect.objectContaining({ code: 'invalid_options' }));
  });

  it('creates an idempotent producer with one request in flight, keeping other settings', () => {
    const { kafka, calls } = stubKafka();
    createRunPublisher({ kafka, producerConfig: { idempotent: false, maxInFlightRequests: 5, metadataMaxAge: 1000 } });
    expect(calls.configs[0]).toMatchObject({ idempotent: true, maxInFlightRequests: 1, metadataMaxAge: 1000 });
    expect(calls.configs[0]!.createPartitioner).toBeTypeOf('function');
  });

  it('connects lazily, once', async () => {
    const { kafka, calls } = stubKafka();
    const publisher = createRunPublisher({ kafka });
    expect(calls.connects).toBe(0);
    await publisher.publish(run('a'));
    await publisher.publish(run('b'));
    expect(calls.connects).toBe(1);
  });

  it('sends a batch in one request, keyed by runId, with JSON values and trace headers', async () => {
    const { kafka, calls } = stubKafka();
    const publisher = createRunPublisher({ kafka, topic: 'runs-test' });
    const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };
    const report = await publisher.publish([run('a'), run('b'), run('c')], {
      contextFor: (candidate) => ((candidate as { runId: string }).runId === 'b' ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : undefined),
    });
    expect(calls.sends).toHaveLength(1);
    const [record] = calls.sends;
    expect(record).toMatchObject({ topic: 'runs-test', acks: -1 });
    expect(record!.messages.map((message: Message) => message.key)).toEqual(['a', 'b', 'c']);
    expect(JSON.parse(String(record!.messages[0]!.value))).toEqual(run('a'));
    expect(record!.messages[1]!.headers).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'content-type': 'application/json' });
    expect(record!.messages[0]!.headers).toEqual({ 'content-type': 'application/json' });
    expect(report).toEqual({ topic: 'runs-test', count: 3, runIds: ['a', 'b', 'c'], requests: 1, partitions: [{ partition: 0, baseOffset: '100' }] });
  });

  it("injects a run's own trace field when no caller context is given", async () => {
    const { kafka, calls } = stubKafka();
    const traceparent = '00-11111111111111111111111111111111-2222222222222222-01';
    await createRunPublisher({ kafka }).publish({ ...run('a'), trace: { traceparent } });
    expect(calls.sends[0]!.messages[0]!.headers).toMatchObject({ traceparent });
  });

  it('sends nothing, and does not connect, when any run of a batch is invalid', async () => {
    const { kafka, calls } = stubKafka();
    const publisher = createRunPublisher({ kafka });
    const error = await publisher.publish([run('a'), { ...run('b'), timestamp: 'x' }]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidRunError);
    expect((error as InvalidRunError).code).toBe('invalid_run');
    expect((error as Error).message).toContain('runs[1] (runId "b") timestamp');
    expect(calls.connects).toBe(0);
    expect(calls.sends).toHaveLength(0);
  });

  it('splits large batches into several requests and reports them together', async () => {
    const { kafka, calls } = stubKafka();
    const report = await createRunPublisher({ kafka, maxRequestRuns: 2 }).publish([run('a'), run('b'), run('c')]);
    expect(calls.sends.map((record) => record.messages.length)).toEqual([2, 1]);
    expect(report).toMatchObject({ count: 3, requests: 2, runIds: ['a', 'b', 'c'] });
  });

  it('queues concurrent publishes so only one request is in flight', async () => {
    const gate = deferred();
    const { kafka, calls } = stubKafka({
      send: async (record, call) => {
        if (call === 1) await gate.promise;
        return [{ topicName: record.topic, partition: 0, errorCode: 0 }];
      },
    });
    const publisher = createRunPublisher({ kafka });
    const first = publisher.publish(run('a'));
    const second = publisher.publish(run('b'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.sends).toHaveLength(1);
    gate.resolve();
    await Promise.all([first, second]);
    expect(calls.sends).toHaveLength(2);
  });

  it('reports a failed send with how many runs were acknowledged and whether to retry', async () => {
    const { kafka } = stubKafka({
      send: async (record, call) => {
        if (call === 2) throw Object.assign(new Error('NOT_LEADER_FOR_PARTITION'), { retriable: true });
        return [{ topicName: record.topic, partition: 0, errorCode: 0 }];
      },
    });
    const publisher = createRunPublisher({ kafka, maxRequestRuns: 1 });
    const error = await publisher.publish([run('a'), run('b')]).catch((caught: unknown) => caught);
    expect(ScorestreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'publish_failed', canRetry: true });
    expect((error as Error).message).toContain('after 1 of 2 runs were acknowledged');
    expect((error as Error).cause).toBeInstanceOf(Error);
    await expect(publisher.publish(run('c'))).resolves.toMatchObject({ count: 1 });
  });

  it('reports a failed connect and tries again on the next publish', async () => {
    const { kafka, calls } = stubKafka({ connect: async (call) => { if (call === 1) throw new Error('ECONNREFUSED'); } });
    const publisher = createRunPublisher({ kafka });
    await expect(publisher.publish(run('a'))).rejects.toMatchObject({ code: 'kafka_unavailable', canRetry: true });
    await expect(publisher.publish(run('a'))).resolves.toMatchObject({ count: 1 });
    expect(calls.connects).toBe(2);
  });

  it('returns an empty report for an empty batch without connecting', async () => {
    const { kafka, calls } = stubKafka();
    await expect(createRunPublisher({ kafka }).publish([])).resolves.toMatchObject({ count: 0, requests: 0 });
    expect(calls.connects).toBe(0);
  });

  it('close disconnects once, waits for queued work, and refuses later publishes', async () => {
    const { kafka, calls } = stubKafka();
    const publisher = createRunPublisher({ kafka });
    const pending = publisher.publish(run('a'));
    await publisher.close();
    await publisher.close();
    await expect(pending).resolves.toMatchObject({ count: 1 });
    expect(calls.disconnects).toBe(1);
    await expect(publisher.publish(run('b'))).rejects.toMatchObject({ code: 'publisher_closed' });
  });

  it('close does not disconnect a producer that never connected', async () => {
    const { kafka, calls } = stubKafka();
    await createRunPublisher({ kafka }).close();
    expect(calls.disconnects).toBe(0);
  });
});

describe('publishFeedback', () => {
  const feedback = (feedbackId: string, target: FeedbackTarget = { type: 'run', runId: 'run-1' }) => ({ ...wireFeedback(), feedbackId, target });

  it('sends to the feedback topic, keyed like the run\'s (or the thread\'s) score records, with JSON values and no trace headers', async () => {
    const { kafka, calls } = stubKafka();
    const publisher = createRunPublisher({ kafka, feedbackTopic: 'feedback-test' });
    const traced = { type: 'trace' as const, traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' };
    const thread = { type: 'thread' as const, threadId: 'thread-9' };
    const report = await publisher.publishFeedback([feedback('f-1'), feedback('f-2', traced), { ...feedback('f-3', thread), metadata: { tenantId: 'acme' } }, { ...feedback('f-4', thread), metadata: {} }]);
    expect(calls.sends).toHaveLength(1);
    const [record] = calls.sends;
    expect(record).toMatchObject({ topic: 'feedback-test', acks: -1 });
    // A thread's feedback by the thread key: its tenant from metadata.tenantId (none: ':thread-9').
    expect(record!.messages.map((message: Message) => message.key)).toEqual(['run-1', '4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7', 'acme:thread-9', ':thread-9']);
    expect(JSON.parse(String(record!.messages[0]!.value))).toEqual(feedback('f-1'));
    expect(record!.messages[0]!.headers).toEqual({ 'content-type': 'application/json' });
    expect(report).toEqual({ topic: 'feedback-test', count: 4, feedbackIds: ['f-1', 'f-2', 'f-3', 'f-4'], requests: 1, partitions: [{ partition: 0, baseOffset: '100' }] });
  });

  it('defaults to the agent-feedback topic, shares the connection and the queue with runs', async () => {
    const { kafka, calls } = stubKafka();
    const publisher = createRunPublisher({ kafka });
    await Promise.all([publisher.publish(run('a')), publisher.publishFeedback(feedback('f-1'))]);
    expect(calls.sends.map((record) => record.topic)).toEqual(['agent-runs', 'agent-feedback']);
    expect(calls.connects).toBe(1);
  });

  it('sends nothing when any record of a batch is invalid, naming each problem', async () => {
    const { kafka, calls } = stubKafka();
    const error = await createRunPublisher({ kafka }).publishFeedback([feedback('f-1'), { ...feedback('f-2'), source: 'crowd' as never }]).catch((caught: unknown) => caught);
    expect(InvalidFeedbackError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid_feedback', canRetry: false, problems: [{ index: 1, feedbackId: 'f-2', path: 'source' }] });
    expect((error as Error).message).toContain('1 of 2 feedback are not valid FeedbackRecord v1s; nothing was sent');
    expect((error as Error).message).toContain('feedback[1] (feedbackId "f-2") source');
    expect(calls.connects).toBe(0);
  });

  it('reports a failed send with how many records were acknowledged and that sending again is safe', async () => {
    const { kafka } = stubKafka({
      send: async () => {
        throw Object.assign(new Error('NOT_LEADER_FOR_PARTITION'), { retriable: true });
      },
    });
    const error = await createRunPublisher({ kafka, feedbackTopic: 'fb' }).publishFeedback(feedback('f-1')).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'publish_failed', canRetry: true });
    expect((error as Error).message).toContain('publishing feedback records to topic "fb" failed after 0 of 1 feedback records were acknowledged');
    expect((error as Error).message).toContain('the same id again is the same feedback');
  });

  it('refuses feedback once closed', async () => {
    const { kafka } = stubKafka();
    const publisher = createRunPublisher({ kafka });
    await publisher.close();
    await expect(publisher.publishFeedback(feedback('f-1'))).rejects.toMatchObject({ code: 'publisher_closed' });
  });
});

describe('chunks', () => {
  const message = (size: number): Message => ({ value: 'x'.repeat(size) });

  it('bounds requests by summed value bytes, keeping order', () => {
    expect(chunks([message(4), message(4), message(4)], 8, 100).map((chunk) => chunk.length)).toEqual([2, 1]);
  });

  it('puts an oversized message in a request of its own', () => {
    expect(chunks([message(2), message(20), message(2)], 8, 100).map((chunk) => chunk.length)).toEqual([1, 1, 1]);
  });

  it('bounds requests by count', () => {
    expect(chunks([message(1), message(1), message(1)], 100, 1).map((chunk) => chunk.length)).toEqual([1, 1, 1]);
  });
});
