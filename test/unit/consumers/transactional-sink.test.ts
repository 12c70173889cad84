// The exactly-once sink against fake kafkajs transactional producers (behind the kafkajs
// transport, kafka/kafkajs-transport.ts) whose requests the test can hold or
// fail: claims fence before reading the committed offset, records wait for the prefix and go out
// with its offset in one transaction, slots free only when that transaction ends, a failed
// transaction is aborted and rewinds the partition, and an ended assignment commits nothing more.
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { RecordSink } from '../../../consumers/record-sink.ts';
import { ServiceStats } from '../../../consumers/service-stats.ts';
import type { Kafka, Producer } from 'kafkajs';
import type { TransactionalKafka } from '../../../kafka/kafka-transport.ts';
import { createKafkajsTransport } from '../../../kafka/kafkajs-transport.ts';
import { createTransactionalSink } from '../../../consumers/transactional-sink.ts';

type Step = 'sendBatch' | 'sendOffsets' | 'commit';

/** A producer that logs every call; `fail` makes a step throw, `hold` keeps commit pending until released. */
class FakeProducer {
  readonly log: string[] = [];
  readonly sent: unknown[] = [];
  readonly offsets: unknown[] = [];
  fail: Step | 'connect' | undefined;
  /** A sendBatch holding a record with this value is refused as too large (MESSAGE_TOO_LARGE). */
  refuse: string | undefined;
  private held: Array<() => void> | undefined;

  readonly transactionalId: string;

  constructor(transactionalId: string) {
    this.transactionalId = transactionalId;
  }

  hold(): void {
    this.held = [];
  }

  releaseHeld(): void {
    const waiting = this.held ?? [];
    this.held = undefined;
    for (const resume of waiting) resume();
  }

  asProducer(): Producer {
    const step = async (name: Step | 'connect') => {
      this.log.push(name);
      if (this.fail === name) throw new Error(`${name} failed: Producer attempted an operation with an old epoch`);
    };
    return {
      connect: async () => step('connect'),
      disconnect: async () => {
        this.log.push('disconnect');
      },
      transaction: (async () => {
        this.log.push('transaction');
        return {
          sendBatch: async (batch: { topicMessages: Array<{ messages: Array<{ value: unknown }> }> }) => {
            this.sent.push(batch);
            await step('sendBatch');
            if (this.refuse !== undefined && batch.topicMessages.some((topic) => topic.messages.some((message) => message.value === this.refuse))) {
              throw Object.assign(new Error('The request included a message larger than the max message size the server will accept'), { name: 'KafkaJSProtocolError', type: 'MESSAGE_TOO_LARGE', retriable: false });
            }
          },
          sendOffsets: async (offsets: unknown) => {
            this.offsets.push(offsets);
            await step('sendOffsets');
          },
          commit: async () => {
            if (this.held !== undefined) await new Promise<void>((resolve) => this.held!.push(resolve));
            await step('commit');
          },
          abort: async () => {
            this.log.push('abort');
          },
          isActive: () => true,
        };
      }) as unknown as Producer['transaction'],
    } as unknown as Producer;
  }
}

function setup(options: { committed?: number; pressureThreshold?: number } = {}) {
  const producers: FakeProducer[] = [];
  const calls: string[] = [];
  const kafka: TransactionalKafka & { nextProducerFails?: FakeProducer['fail'] } = {
    producer(transactionalId) {
      const fake = new FakeProducer(transactionalId);
      fake.fail = kafka.nextProducerFails;
      kafka.nextProducerFails = undefined;
      producers.push(fake);
      return createKafkajsTransport({ producer: () => fake.asProducer(), admin: () => ({}) } as unknown as Kafka)
        .transactional({ groupId: 'scorers' })
        .producer(transactionalId);
    },
    async committedOffset(topic, partition) {
      calls.push(`committedOffset ${topic}[${partition}] after ${producers.at(-1)?.log.join(',')}`);
      return options.committed;
    },
    close: vi.fn(async () => undefined),
  };
  const consumer = { seek: vi.fn() };
  const stats = new ServiceStats();
  const sink: RecordSink = createTransactionalSink({
    kafka,
    consumer,
    groupId: 'scorers',
    stats,
    logger: pino({ level: 'silent' }),
    pressureThreshold: options.pressureThreshold ?? 100,
  });
  return { sink, kafka, producers, calls, consumer, stats };
}

const record = (value: string) => ({ topic: 'scores', key: value, value });
const flush = async () => {
  for (let index = 0; index < 20; index += 1) await new Promise((resolve) => setImmediate(resolve));
};

describe('exactly-once sink', () => {
  it('writes records of no message (a thread timer) right after the message they followed, and alone when no message is left to commit', async () => {
    const { sink, producers } = setup();
    const claim = await sink.claim('runs', 0);
    const [first, second] = ['10', '11'].map((offset) => claim.open(offset, () => undefined));
    await first!.output.publish([record('a')]);
    await claim.detached('10').publish([record('timer-after-10')]);
    await second!.output.publish([record('b')]);
    second!.finished();
    await sink.commit();
    expect(producers[0]!.sent).toEqual([]); // 10 still running: neither the detached records nor 11 go
    first!.finished();
    await sink.commit();
    const values = (batch: unknown) => (batch as { topicMessages: Array<{ messages: Array<{ value: string }> }> }).topicMessages.flatMap((topic) => topic.messages.map((message) => message.value));
    expect(producers[0]!.sent.flatMap(values)).toEqual(['a', 'timer-after-10', 'b']);
    // Later, with every message committed: a transaction of its own, the offset unchanged.
    await claim.detached('11').publish([record('timer-after-11')]);
    const before = producers[0]!.offsets.length;
    await sink.commit();
    expect(producers[0]!.sent.flatMap(values).at(-1)).toBe('timer-after-11');
    expect(producers[0]!.offsets.length).toBe(before);
    expect(producers[0]!.log.slice(-3)).toEqual(['transaction', 'sendBatch', 'commit']);
  });

  it("claims a partition by fencing its transactional id, then reads the group's committed offset", async () => {
    const { sink, producers, calls } = setup({ committed: 42 });
    const claim = await sink.claim('runs', 3);
    expect(producers.map((producer) => producer.transactionalId)).toEqual(['scorers-runs-3']);
    expect(producers[0]!.log).toEqual(['connect', 'transaction', 'abort']);
    expect(calls).toEqual(['committedOffset runs[3] after connect,transaction,abort']);
    expect(claim.fromOffset).toBe(42);
    expect(await sink.claim('runs', 3)).toBe(claim);
  });

  it("holds a message's records until it is inside the finished prefix, then sends them with the prefix's offset in one transaction", async () => {
    const { sink, producers, stats } = setup();
    const claim = await sink.claim('runs', 0);
    const release = vi.fn();
    const [first, second] = ['10', '11'].map((offset) => claim.open(offset, release));
    await second!.output.publish([record('b1'), record('b2')]);
    second!.finished();
    await sink.commit();
    expect(producers[0]!.sent).toEqual([]); // 10 is still running
    await first!.output.publish([record('a1')]);
    first!.finished();
    expect(release).not.toHaveBeenCalled(); // held messages keep their slots
    await sink.commit();
    const producer = producers[0]!;
    expect(producer.log.slice(3)).toEqual(['transaction', 'sendBatch', 'sendOffsets', 'commit']);
    expect(producer.sent).toEqual([
      {
        acks: -1,
        topicMessages: [{ topic: 'scores', messages: ['a1', 'b1', 'b2'].map((value) => ({ key: value, value })) }],
      },
    ]);
    expect(producer.offsets).toEqual([{ consumerGroupId: 'scorers', topics: [{ topic: 'runs', partitions: [{ partition: 0, offset: '12' }] }] }]);
    expect(release).toHaveBeenCalledTimes(2);
    expect(stats.transactions).toBe(1);
    await sink.commit();
    expect(producer.log.filter((step) => step === 'commit')).toHaveLength(1); // nothing new
  });

  it('redoes a transaction whose request the broker refused one record per request, so that only the refused record is replaced, and commits it once', async () => {
    const { sink, producers, stats } = setup();
    const claim = await sink.claim('runs', 0);
    const producer = producers[0]!;
    producer.refuse = 'big';
    const ticket = claim.open('0', () => undefined);
    await ticket.output.publish([record('a'), { ...record('big'), fallback: () => record('big-failed') }, record('c')]);
    ticket.finished();
    await sink.commit();
    expect(producer.log.slice(3)).toEqual(['transaction', 'sendBatch', 'abort', 'transaction', 'sendBatch', 'sendBatch', 'sendBatch', 'sendBatch', 'sendOffsets', 'commit']);
    const sentInCommitted = producer.sent.slice(1).map((batch) => (batch as { topicMessages: Array<{ messages: Array<{ value: string }> }> }).topicMessages[0]!.messages.map((message) => message.value));
    expect(sentInCommitted).toEqual([['a'], ['big'], ['big-failed'], ['c']]);
    expect(stats.transactions).toBe(1);
    expect(stats.transactionFailures).toBe(0);
  });

  it('skips the records of nothing: a prefix without records still commits its offset', async () => {
    const { sink, producers } = setup();
    const claim = await sink.claim('runs', 0);
    claim.open('0', () => undefined).finished();
    await sink.commit();
    expect(producers[0]!.log.slice(3)).toEqual(['transaction', 'sendOffsets', 'commit']);
  });

  it('commits at once when the held messages reach the pressure threshold', async () => {
    const { sink, producers } = setup({ pressureThreshold: 2 });
    const claim = await sink.claim('runs', 0);
    claim.open('0', () => undefined).finished();
    await flush();
    expect(producers[0]!.log).not.toContain('commit');
    claim.open('1', () => undefined).finished();
    await flush();
    expect(producers[0]!.log).toContain('commit');
    expect(producers[0]!.offsets).toEqual([{ consumerGroupId: 'scorers', topics: [{ topic: 'runs', partitions: [{ partition: 0, offset: '2' }] }] }]);
  });

  it.each(['sendBatch', 'sendOffsets', 'commit'] as const)(
    'when %s fails: aborts, advances nothing, frees the slots, rewinds to the committed offset and claims afresh',
    async (step) => {
      const { sink, producers, consumer, stats } = setup({ committed: 7 });
      const claim = await sink.claim('runs', 0);
      producers[0]!.fail = step;
      const release = vi.fn();
      const done = claim.open('7', release);
      const running = claim.open('8', release);
      await done.output.publish([record('x')]);
      done.finished();
      await sink.commit();
      const steps = ['sendBatch', 'sendOffsets', 'commit'] as const;
      expect(producers[0]!.log.slice(3, 3 + steps.indexOf(step) + 3)).toEqual(['transaction', ...steps.slice(0, steps.indexOf(step) + 1), 'abort']);
      expect(stats.transactionFailures).toBe(1);
      expect(stats.transactions).toBe(0);
      expect(release).toHaveBeenCalledTimes(1);
      expect(consumer.seek).toHaveBeenCalledWith({ topic: 'runs', partition: 0, offset: '7' });
      expect(claim.active).toBe(false);
      await flush();
      expect(producers[0]!.log.at(-1)).toBe('disconnect');
      // The message still running belongs to the reset claim: stale when it finishes.
      running.finished();
      expect(stats.staleCompletions).toBe(1);
      expect(release).toHaveBeenCalledTimes(2);
      // The next batch claims the partition again, with a new producer that fences the old one.
      const again = await sink.claim('runs', 0);
      expect(again).not.toBe(claim);
      expect(producers).toHaveLength(2);
      expect(producers[1]!.log).toEqual(['connect', 'transaction', 'abort']);
    },
  );

  it('after a committed transaction a failure rewinds to that transaction’s offset', async () => {
    const { sink, producers, consumer } = setup();
    const claim = await sink.claim('runs', 0);
    claim.open('0', () => undefined).finished();
    await sink.commit();
    producers[0]!.fail = 'commit';
    claim.open('1', () => undefined).finished();
    await sink.commit();
    expect(consumer.seek).toHaveBeenCalledWith({ topic: 'runs', partition: 0, offset: '1' });
  });

  it('when the assignment ends: held messages are dropped, a transaction in flight may finish, and nothing later is committed', async () => {
    const { sink, producers, stats } = setup();
    const claim = await sink.claim('runs', 0);
    const producer = producers[0]!;
    const release = vi.fn();
    claim.open('0', release).finished();
    producer.hold();
    const committing = sink.commit(); // offset 1 in flight
    await flush();
    const held = claim.open('1', release);
    const running = claim.open('2', release);
    held.finished();
    sink.assignmentEnded();
    expect(release).toHaveBeenCalledTimes(1); // offset 1 dropped; offset 0 waits for its transaction
    producer.releaseHeld();
    await committing;
    expect(release).toHaveBeenCalledTimes(2);
    running.finished();
    expect(stats.staleCompletions).toBe(1);
    await sink.commit();
    await flush();
    expect(producer.log.filter((step) => step === 'commit')).toHaveLength(1);
    expect(producer.log.at(-1)).toBe('disconnect');
  });

  it('close waits for the transaction in flight, commits the rest, disconnects every producer and the admin', async () => {
    const { sink, producers, kafka } = setup();
    const [zero, one] = await Promise.all([sink.claim('runs', 0), sink.claim('runs', 1)]);
    producers[0]!.hold();
    zero!.open('0', () => undefined).finished();
    const first = sink.commit();
    await flush();
    zero!.open('1', () => undefined).finished();
    one!.open('5', () => undefined).finished();
    const closing = sink.close();
    await flush();
    producers[0]!.releaseHeld();
    await Promise.all([first, closing]);
    expect(producers[0]!.offsets.map((offsets) => (offsets as { topics: Array<{ partitions: Array<{ offset: string }> }> }).topics[0]!.partitions[0]!.offset)).toEqual(['1', '2']);
    expect(producers[1]!.offsets).toHaveLength(1);
    expect(producers.map((producer) => producer.log.at(-1))).toEqual(['disconnect', 'disconnect']);
    expect(kafka.close).toHaveBeenCalledTimes(1);
  });

  it('a claim that cannot fence is rejected and retried from scratch by the next batch', async () => {
    const { sink, producers, kafka } = setup();
    kafka.nextProducerFails = 'connect';
    await expect(sink.claim('runs', 0)).rejects.toThrow(/connect failed/);
    await flush();
    expect(producers[0]!.log).toEqual(['connect', 'disconnect']);
    const retried = await sink.claim('runs', 0);
    expect(retried.active).toBe(true);
    expect(producers).toHaveLength(2);
  });
});
