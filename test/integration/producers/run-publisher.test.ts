// The run-event producer SDK against a real broker: what lands on the topic is keyed by runId,
// valid against the contract and carries the publishing span's trace; an invalid batch lands nothing.
import { context, trace } from '@opentelemetry/api';
import { StackContextManager, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRunPublisher } from '../../../producers/index.ts';
import type { RunPublisher } from '../../../producers/index.ts';
import { decodeAgentRunEvent } from '../../../src/kit/contracts/parse.ts';
import { readMessages, testBrokers, testKafka, useTopic } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';

const headerText = (value: unknown) => (Buffer.isBuffer(value) ? value.toString('utf8') : String(value));

async function topicEndOffsets(topic: string): Promise<string[]> {
  const admin = testKafka('scorestream-test-offsets').admin();
  await admin.connect();
  try {
    return (await admin.fetchTopicOffsets(topic)).map((partition) => partition.high);
  } finally {
    await admin.disconnect();
  }
}

describe('createRunPublisher against Kafka', () => {
  let publisher: RunPublisher | undefined;
  const contextManager = new StackContextManager();

  beforeEach(() => {
    context.setGlobalContextManager(contextManager.enable());
  });

  afterEach(async () => {
    await publisher?.close();
    publisher = undefined;
    context.disable();
  });

  it('publishes runs keyed by runId, valid against the contract, with the active span as traceparent', async () => {
    const topic = await useTopic({ prefix: 'runs', partitions: 3 });
    publisher = createRunPublisher({ kafka: testKafka('scorestream-test-publisher'), topic });
    const tracer = new TracerProvider().getTracer('integration-test');
    const span = tracer.startSpan('agent run');
    const runs = ['run-a', 'run-b', 'run-c'].map((runId) => testRun({ runId }));

    const report = await context.with(trace.setSpan(context.active(), span), () => publisher!.publish(runs));
    span.end();
    expect(report).toMatchObject({ topic, count: 3, runIds: ['run-a', 'run-b', 'run-c'], requests: 1 });

    const messages = await readMessages(topic, { count: 3 });
    expect(messages.map((message) => message.key?.toString()).sort()).toEqual(['run-a', 'run-b', 'run-c']);
    const { traceId, spanId } = span.spanContext();
    for (const message of messages) {
      const decoded = decodeAgentRunEvent(message.value);
      expect(decoded.success ? [] : decoded.problems).toEqual([]);
      if (decoded.success) expect(decoded.data.runId).toBe(message.key?.toString());
      expect(headerText(message.headers.traceparent)).toBe(`00-${traceId}-${spanId}-01`);
      expect(headerText(message.headers['content-type'])).toBe('application/json');
    }
  });

  it('sends nothing when one run of the batch is invalid, and says what is wrong', async () => {
    const topic = await useTopic({ prefix: 'runs-invalid', partitions: 2 });
    publisher = createRunPublisher({ kafka: testKafka('scorestream-test-publisher'), topic });
    const broken = { ...testRun({ runId: 'run-2' }), timestamp: 'yesterday', entity: { type: 'robot', id: '' } };

    const error = await publisher.publish([testRun({ runId: 'run-1' }), broken as never, testRun({ runId: 'run-3' })]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_run', name: 'InvalidRunError' });
    const message = (error as Error).message;
    expect(message).toContain('1 of 3 runs');
    expect(message).toContain('runs[1] (runId "run-2") timestamp');
    expect(message).toContain('runs[1] (runId "run-2") entity.type');
    expect(message).toContain('runs[1] (runId "run-2") entity.id');

    // A valid publish afterwards proves the producer works, and is the only thing on the topic.
    await publisher.publish(testRun({ runId: 'after' }));
    const offsets = await topicEndOffsets(topic);
    expect(offsets.reduce((sum, offset) => sum + Number(offset), 0)).toBe(1);
  });

  it('leaves the topic empty after a rejected single run', async () => {
    const topic = await useTopic({ prefix: 'runs-empty' });
    publisher = createRunPublisher({ brokers: testBrokers(), topic });
    await expect(publisher.publish({ ...testRun({ runId: 'x' }), runId: '' })).rejects.toMatchObject({ code: 'invalid_run' });
    expect(await topicEndOffsets(topic)).toEqual(['0']);
  });
});
