// The record publisher's batching logic against a fake kafkajs sendBatch (behind the kafkajs
// transport, kafka/kafkajs-transport.ts) whose requests the test completes by hand: what goes into
// each request, and when each publish() settles.
import type { Kafka, ProducerBatch } from 'kafkajs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKafkajsTransport } from '../../../kafka/kafkajs-transport.ts';
import { createRecordPublisher } from '../../../producers/record-publisher.ts';
import type { OutgoingRecord } from '../../../producers/record-publisher.ts';

type Request = { batch: ProducerBatch; resolve: () => void; reject: (error: unknown) => void };

/** The kafkajs transport's record producer over a fake kafkajs producer. */
const kafkajsProducer = (sendBatch: (batch: ProducerBatch) => Promise<never[]>) => createKafkajsTransport({ producer: () => ({ sendBatch }) } as unknown as Kafka).producer();

/** A producer whose every sendBatch stays pending until the test settles it. */
function fakeProducer() {
  const requests: Request[] = [];
  const producer = kafkajsProducer(
    (batch: ProducerBatch) =>
      new Promise<never[]>((resolve, reject) => {
        requests.push({ batch, resolve: () => resolve([]), reject });
      }),
  );
  return { producer, requests };
}

/** Lets queued promise callbacks run (no timers involved). */
const settle = async () => {
  for (let index = 0; index < 10; index += 1) await Promise.resolve();
};

/** Tracks whether a promise settled, without awaiting it. */
function track(promise: Promise<void>) {
  const state = { status: 'pending' as 'pending' | 'resolved' | 'rejected', error: undefined as unknown };
  promise.then(
    () => (state.status = 'resolved'),
    (error: unknown) => {
      state.status = 'rejected';
      state.error = error;
    },
  );
  return state;
}

const record = (topic: string, key: string, value = `value-${key}`): OutgoingRecord => ({ topic, key, value });

/** The keys sent in a request, per topic. */
const keysOf = (request: Request | undefined) => Object.fromEntries((request?.batch.topicMessages ?? []).map(({ topic, messages }) => [topic, messages.map((message) => message.key)]));

describe('createRecordPublisher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits lingerMs for company before the first request, then sends acks=all', async () => {
    const { producer, requests } = fakeProducer();
    const publisher = createRecordPublisher(producer, { lingerMs: 5 });
    const first = track(publisher.publish([record('scores', 'a')]));
    const second = track(publisher.publish([record('scores', 'b')]));
    await settle();
    expect(requests).toHaveLength(0);
    expect(publisher.pendingRecords).toBe(2);

    await vi.advanceTimersByTimeAsync(5);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.batch.acks).toBe(-1);
    expect(keysOf(requests[0])).toEqual({ scores: ['a', 'b'] });
    expect(publisher.pendingRecords).toBe(0);
    expect([first.status, second.status]).toEqual(['pending', 'pending']);

    requests[0]!.resolve();
    await settle();
    expect([first.status, second.status]).toEqual(['resolved', 'resolved']);
  });

  it('batches records published while a request is in flight into the next request', async () => {
    const { producer, requests } = fakeProducer();
    const publisher = createRecordPublisher(producer, { lingerMs: 1 });
    const first = track(publisher.publish([record('scores', 'a')]));
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(1);

    const second = track(publisher.publish([record('scores', 'b')]));
    const third = track(publisher.publish([record('scores', 'c'), record('scores', 'd')]));
    await settle();
    // One request at a time: nothing new goes out while the first is unacknowledged.
    expect(requests).toHaveLength(1);
    expect(publisher.pendingRecords).toBe(3);

    requests[0]!.resolve();
    await settle();
    expect(first.status).toBe('resolved');
    expect(requests).toHaveLength(2);
    expect(keysOf(requests[1])).toEqual({ scores: ['b', 'c', 'd'] });
    expect([second.status, third.status]).toEqual(['pending', 'pending']);

    requests[1]!.resolve();
    await settle();
    expect([second.status, third.status]).toEqual(['resolved', 'resolved']);
  });

  it('never puts more than maxBatchRecords records in one request', async () => {
    const { producer, requests } = fakeProducer();
    const publisher = createRecordPublisher(producer, { lingerMs: 50, maxBatchRecords: 2 });
    const all = track(publisher.publish(['a', 'b', 'c', 'd', 'e'].map((key) => record('scores', key))));
    await settle();
    // A full batch does not wait for the linger timer.
    expect(requests).toHaveLength(1);
    expect(keysOf(requests[0])).toEqual({ scores: ['a', 'b'] });

    requests[0]!.resolve();
    await settle();
    expect(keysOf(requests[1])).toEqual({ scores: ['c', 'd'] });
    requests[1]!.resolve();
    await settle();
    expect(keysOf(requests[2])).toEqual({ scores: ['e'] });
    expect(all.status).toBe('pending');
    requests[2]!.resolve();
    await settle();
    expect(all.status).toBe('resolved');
    expect(requests).toHaveLength(3);
  });

  it('resolves a publish only when the request carrying its last record resolved', async () => {
    const { producer, requests } = fakeProducer();
    const publisher = createRecordPublisher(producer, { lingerMs: 1, maxBatchRecords: 2 });
    const spanning = track(publisher.publish([record('scores', 'a'), record('scores', 'b'), record('scores', 'c')]));
    await settle();
    requests[0]!.resolve();
    await settle();
    expect(spanning.status).toBe('pending');
    requests[1]!.resolve();
    await settle();
    expect(spanning.status).toBe('resolved');
  });

  it('rejects exactly the records of a failing request and keeps sending the rest', async () => {
    const { producer, requests } = fakeProducer();
    const publisher = createRecordPublisher(producer, { lingerMs: 1 });
    const first = track(publisher.publish([record('scores', 'a')]));
    await vi.advanceTimersByTimeAsync(1);
    const second = track(publisher.publish([record('scores', 'b')]));
    await settle();

    const failure = new Error('NOT_ENOUGH_REPLICAS');
    requests[0]!.reject(failure);
    await settle();
    expect(first).toEqual({ status: 'rejected', error: failure });
    expect(second.status).toBe('pending');
    expect(keysOf(requests[1])).toEqual({ scores: ['b'] });

    requests[1]!.resolve();
    await settle();
    expect(second.status).toBe('resolved');
  });

  it('rejects when sendBatch throws synchronously instead of returning a rejected promise', async () => {
    const failure = new Error('producer is disconnected');
    const publisher = createRecordPublisher(
      kafkajsProducer(() => {
        throw failure;
      }),
      { lingerMs: 1 },
    );
    const published = track(publisher.publish([record('scores', 'a')]));
    await vi.advanceTimersByTimeAsync(1);
    expect(published).toEqual({ status: 'rejected', error: failure });
  });

  it('groups one request by topic, keeping per-topic order, keys, values and headers', async () => {
    const { producer, requests } = fakeProducer();
    const publisher = createRecordPublisher(producer, { lingerMs: 1 });
    void publisher.publish([
      record('scores', 'a'),
      { topic: 'decisions', key: 'b', value: Buffer.from('decision-b'), headers: { traceparent: 'tp' } },
      record('scores', 'c'),
      { topic: 'dead-letters', key: null, value: 'dl' },
    ]);
    await vi.advanceTimersByTimeAsync(1);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.batch.topicMessages).toEqual([
      {
        topic: 'scores',
        messages: [
          { key: 'a', value: 'value-a' },
          { key: 'c', value: 'value-c' },
        ],
      },
      { topic: 'decisions', messages: [{ key: 'b', value: Buffer.from('decision-b'), headers: { traceparent: 'tp' } }] },
      { topic: 'dead-letters', messages: [{ key: null, value: 'dl' }] },
    ]);
    // A record without headers gets no `headers` key at all.
    expect(Object.keys(requests[0]!.batch.topicMessages![0]!.messages[0]!)).toEqual(['key', 'value']);
  });

  it('publish([]) resolves at once and sends nothing', async () => {
    const { producer, requests } = fakeProducer();
    const publisher = createRecordPublisher(producer);
    await expect(publisher.publish([])).resolves.toBeUndefined();
    await vi.runAllTimersAsync();
    expect(requests).toHaveLength(0);
  });

  describe('flush()', () => {
    it('resolves at once when nothing is queued or in flight', async () => {
      const { producer, requests } = fakeProducer();
      const publisher = createRecordPublisher(producer);
      const flushed = track(publisher.flush());
      await settle();
      expect(flushed.status).toBe('resolved');
      expect(requests).toHaveLength(0);
    });

    it('sends lingering records without waiting for the timer and resolves once every request returned', async () => {
      const { producer, requests } = fakeProducer();
      const publisher = createRecordPublisher(producer, { lingerMs: 60_000, maxBatchRecords: 1 });
      const published = track(publisher.publish([record('scores', 'a'), record('scores', 'b')]));
      const flushed = track(publisher.flush());
      await settle();
      expect(requests).toHaveLength(1);

      requests[0]!.resolve();
      await settle();
      expect(flushed.status).toBe('pending');
      requests[1]!.reject(new Error('broker gone'));
      await settle();
      // flush() reports "done", not "succeeded": failures belong to the publish() promises.
      expect(flushed.status).toBe('resolved');
      expect(published.status).toBe('rejected');
    });

    it('waits for a request in flight and for what queued up behind it', async () => {
      const { producer, requests } = fakeProducer();
      const publisher = createRecordPublisher(producer, { lingerMs: 1 });
      void publisher.publish([record('scores', 'a')]);
      await vi.advanceTimersByTimeAsync(1);
      void publisher.publish([record('scores', 'b')]);
      const flushed = track(publisher.flush());
      await settle();
      requests[0]!.resolve();
      await settle();
      expect(flushed.status).toBe('pending');
      expect(keysOf(requests[1])).toEqual({ scores: ['b'] });
      requests[1]!.resolve();
      await settle();
      expect(flushed.status).toBe('resolved');
      expect(publisher.pendingRecords).toBe(0);
    });
  });

  it('keeps a request within maxRequestBytes: a record that would take it over starts the next one', async () => {
    const { producer, requests } = fakeProducer();
    const publisher = createRecordPublisher(producer, { lingerMs: 1, maxRequestBytes: 1_000 });
    const all = track(publisher.publish([record('scores', 'a', 'x'.repeat(600)), record('scores', 'b', 'x'.repeat(600)), record('scores', 'c', 'x'.repeat(10))]));
    await vi.advanceTimersByTimeAsync(1);
    expect(keysOf(requests[0])).toEqual({ scores: ['a'] });
    requests[0]!.resolve();
    await settle();
    expect(keysOf(requests[1])).toEqual({ scores: ['b', 'c'] });
    requests[1]!.resolve();
    await settle();
    expect(all.status).toBe('resolved');
  });

  it('fails only the record the broker refuses, not the records it shared a request with: it is replaced by its stand-in', async () => {
    const { producer, requests } = fakeProducer();
    const refused: string[] = [];
    const publisher = createRecordPublisher(producer, { lingerMs: 1, onRefused: (record, refusal, replacement) => void refused.push(`${record.key} ${refusal.type} -> ${replacement?.key}`) });
    const small = track(publisher.publish([record('scores', 'small')]));
    const big = track(publisher.publish([{ ...record('scores', 'big'), fallback: () => record('scores', 'big-failed') }]));
    await vi.advanceTimersByTimeAsync(1);
    const tooLarge = Object.assign(new Error('The request included a message larger than the max message size the server will accept'), { name: 'KafkaJSProtocolError', type: 'MESSAGE_TOO_LARGE', retriable: false });
    requests[0]!.reject(tooLarge);
    await settle();
    expect(keysOf(requests[1])).toEqual({ scores: ['small'] });
    requests[1]!.resolve();
    await settle();
    expect(keysOf(requests[2])).toEqual({ scores: ['big'] });
    requests[2]!.reject(tooLarge);
    await settle();
    expect(keysOf(requests[3])).toEqual({ scores: ['big-failed'] });
    requests[3]!.resolve();
    await settle();
    expect([small.status, big.status]).toEqual(['resolved', 'resolved']);
    expect(refused).toEqual(['big MESSAGE_TOO_LARGE -> big-failed']);
  });
});
