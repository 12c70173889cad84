// The platformatic group consumer's emulation of kafkajs' per-partition batches
// (kafka/platformatic-consumer.ts), against a fake library consumer whose message streams the
// test feeds: batches per partition, a paused partition held and delivered again from its first
// unresolved message, a seek replacing the stream at the sought offset and every other partition's
// position, a join reading again from the group's commit with the older batches stale, and a
// failed stream replaced unless Kafka refused access (then the consumer crashed for good).
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { BatchControl, ConsumedBatch } from '../../../kafka/kafka-transport.ts';
import { platformaticGroupConsumer } from '../../../kafka/platformatic-consumer.ts';
import type { PlatformaticConsumerLike } from '../../../kafka/platformatic-consumer.ts';

type ConsumeCall = { mode?: string; offsets?: Array<{ topic: string; partition: number; offset: bigint }> };

class FakeStream extends EventEmitter {
  paused = false;
  closed = false;
  pause() {
    this.paused = true;
    return this;
  }
  resume() {
    this.paused = false;
    return this;
  }
  async close() {
    this.closed = true;
  }
  push(topic: string, partition: number, offset: number) {
    this.emit('data', { topic, partition, offset: BigInt(offset), timestamp: 0n, key: Buffer.from(`k${offset}`), value: Buffer.from(`v${offset}`), headerEntries: [], leaderEpoch: 0 });
  }
}

function setup(options: { maxQueuedMessages?: number } = {}) {
  const library = new EventEmitter();
  const streams: FakeStream[] = [];
  const consumes: ConsumeCall[] = [];
  // The partitions' latest offsets as the broker lists them (the lag's high watermarks).
  const highWatermarks = [7n, 12n];
  const fake = Object.assign(library, {
    assignments: [{ topic: 'runs', partitions: [0, 1] }],
    consume: async (call: ConsumeCall) => {
      consumes.push(call);
      const stream = new FakeStream();
      streams.push(stream);
      return stream;
    },
    commit: async () => undefined,
    listCommittedOffsets: async () => new Map([['runs', [5n, 9n]]]),
    listOffsets: async () => new Map([['runs', highWatermarks]]),
    close: async () => undefined,
  }) as unknown as PlatformaticConsumerLike;
  const batches: Array<{ batch: ConsumedBatch; control: BatchControl }> = [];
  let handler: (batch: ConsumedBatch, control: BatchControl) => Promise<void> = async (batch, control) => {
    for (const message of batch.messages) control.resolveOffset(message.offset);
  };
  const joined: Array<Record<string, number[] | undefined>> = [];
  const crashes: Array<{ error: Error; restarting: boolean }> = [];
  const consumer = platformaticGroupConsumer({
    groupId: 'g',
    sessionTimeoutMs: 30_000,
    heartbeatIntervalMs: 3_000,
    maxBytesPerPartition: 1_048_576,
    retries: 3,
    events: { joined: (assignment) => joined.push(assignment), crashed: (error, restarting) => crashes.push({ error, restarting }) },
    connection: { clientId: 'test', bootstrapBrokers: ['127.0.0.1:9'] },
    ...(options.maxQueuedMessages === undefined ? {} : { maxQueuedMessages: options.maxQueuedMessages }),
    createConsumer: () => fake,
  });
  const start = () =>
    consumer.run({
      topics: ['runs'],
      fromBeginning: true,
      partitionsConsumedConcurrently: 4,
      eachBatch: async (batch, control) => {
        batches.push({ batch, control });
        await handler(batch, control);
      },
    });
  return { consumer, library, streams, consumes, batches, joined, crashes, start, highWatermarks, handle: (next: typeof handler) => (handler = next) };
}

const flush = async () => {
  for (let index = 0; index < 5; index += 1) await new Promise((resolve) => setImmediate(resolve));
};
const offsetsOf = (batch: ConsumedBatch) => batch.messages.map((message) => message.offset);

describe('platformatic group consumer', () => {
  it('hands over each partition’s messages as batches of that partition, in offset order, from the group’s commit', async () => {
    const { streams, consumes, batches, start } = setup();
    await start();
    expect(consumes[0]).toMatchObject({ mode: 'committed' });
    streams[0]!.push('runs', 0, 5);
    streams[0]!.push('runs', 1, 9);
    streams[0]!.push('runs', 0, 6);
    await flush();
    const byPartition = new Map<number, string[]>();
    for (const { batch } of batches) byPartition.set(batch.partition, [...(byPartition.get(batch.partition) ?? []), ...offsetsOf(batch)]);
    expect(Object.fromEntries(byPartition)).toEqual({ 0: ['5', '6'], 1: ['9'] });
    // The library's messages carry no high watermark: the listed latest offsets go with the batches, for the lag.
    expect(batches.map(({ batch }) => [batch.partition, batch.highWatermark])).toEqual(expect.arrayContaining([[0, '7'], [1, '12']]));
  });

  it('holds a paused partition and delivers it again from its first unresolved message on resume', async () => {
    const { streams, batches, start, handle } = setup();
    let resume: (() => void) | undefined;
    handle(async (batch, control) => {
      control.resolveOffset(batch.messages[0]!.offset); // takes one, then the partition waits (a retry tier not yet due)
      resume ??= control.pause();
    });
    await start();
    for (const offset of [5, 6, 7]) streams[0]!.push('runs', 0, offset);
    await flush();
    expect(batches.map(({ batch }) => offsetsOf(batch))).toEqual([['5', '6', '7']]);
    handle(async (batch, control) => {
      for (const message of batch.messages) control.resolveOffset(message.offset);
    });
    resume!();
    await flush();
    expect(batches.map(({ batch }) => offsetsOf(batch))).toEqual([['5', '6', '7'], ['6', '7']]);
  });

  it('on a seek, replaces the stream: the sought partition at its offset, the others where they were; older batches are stale', async () => {
    const { consumer, streams, consumes, batches, start, handle } = setup();
    handle(async () => undefined); // resolves nothing: partition 1's message 9 stays undelivered-for-good
    await start();
    streams[0]!.push('runs', 0, 7);
    streams[0]!.push('runs', 1, 9);
    await flush();
    consumer.seek({ topic: 'runs', partition: 0, offset: '5' });
    await flush();
    expect(consumes[1]).toMatchObject({ mode: 'manual' });
    expect(consumes[1]!.offsets).toEqual(expect.arrayContaining([{ topic: 'runs', partition: 0, offset: 5n }, { topic: 'runs', partition: 1, offset: 9n }]));
    expect(streams[0]!.closed).toBe(true);
    expect(batches.every(({ control }) => control.isStale())).toBe(true);
    // The old stream's late messages are ignored; the new one's are delivered.
    streams[0]!.push('runs', 0, 8);
    streams[1]!.push('runs', 0, 5);
    await flush();
    expect(batches.at(-1)!.batch).toMatchObject({ partition: 0 });
    expect(offsetsOf(batches.at(-1)!.batch)).toEqual(['5']);
  });

  it('on a join, reads every partition again from the group’s commit and reports the assignment', async () => {
    const { library, streams, consumes, joined, batches, start, handle } = setup();
    handle(async () => undefined);
    await start();
    streams[0]!.push('runs', 0, 7);
    await flush();
    library.emit('consumer:group:join', {});
    await flush();
    expect(joined).toEqual([{ runs: [0, 1] }]);
    expect(consumes[1]).toMatchObject({ mode: 'committed' });
    expect(streams[0]!.closed).toBe(true);
    expect(batches[0]!.control.isStale()).toBe(true);
  });

  it('lists the latest offsets again on a join, so the lag follows the new assignment', async () => {
    const { library, streams, batches, start, highWatermarks } = setup();
    await start();
    highWatermarks.splice(0, 2, 40n, 50n);
    library.emit('consumer:group:join', {});
    await flush();
    streams[1]!.push('runs', 1, 9);
    await flush();
    expect(batches.at(-1)!.batch).toMatchObject({ partition: 1, highWatermark: '50' });
  });

  it('pauses the whole stream past maxQueuedMessages and resumes it once half drained', async () => {
    const { streams, start, handle } = setup({ maxQueuedMessages: 4 });
    const controls: Array<{ batch: ConsumedBatch; control: BatchControl }> = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    handle(async (batch, control) => {
      controls.push({ batch, control });
      await held;
      for (const message of batch.messages) control.resolveOffset(message.offset);
    });
    await start();
    for (const offset of [1, 2, 3, 4]) streams[0]!.push('runs', 0, offset);
    expect(streams[0]!.paused).toBe(true);
    release();
    await flush();
    expect(streams[0]!.paused).toBe(false);
  });

  it('replaces a stream that failed for a passing reason, reading again from the group’s commit', async () => {
    const { streams, consumes, crashes, joined, start } = setup();
    await start();
    const lost = Object.assign(new Error('Connection closed'), { code: 'PLT_KFK_NETWORK', canRetry: true });
    streams[0]!.emit('error', lost);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the first pause before a replacement (250 ms)
    await flush();
    expect(crashes).toEqual([{ error: lost, restarting: true }]);
    expect(consumes).toHaveLength(2);
    expect(consumes[1]).toMatchObject({ mode: 'committed' });
    expect(joined).toEqual([{ runs: [0, 1] }]);
  });

  it('crashes for good, without replacing the stream, when Kafka refused access (an ACL revoked while it runs)', async () => {
    const { library, consumer, streams, consumes, crashes, batches, start } = setup();
    await start();
    // What 2.12.1's stream emits once READ on the topic is revoked: the Metadata answer's protocol error in a ResponseError.
    const refused = Object.assign(new AggregateError([Object.assign(new Error('Topic authorization failed.'), { code: 'PLT_KFK_PROTOCOL', apiId: 'TOPIC_AUTHORIZATION_FAILED', canRetry: false })], 'Received response with error while executing API Metadata(v12)'), {
      code: 'PLT_KFK_RESPONSE',
    });
    streams[0]!.emit('error', refused);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The group still answers: a join, a seek and a message must not bring the stream back.
    library.emit('consumer:group:join', {});
    consumer.seek({ topic: 'runs', partition: 0, offset: '5' });
    streams[0]!.push('runs', 0, 5);
    await flush();
    expect(crashes).toEqual([{ error: refused, restarting: false }]);
    expect(consumes).toHaveLength(1);
    expect(batches).toHaveLength(0);
  });
});
