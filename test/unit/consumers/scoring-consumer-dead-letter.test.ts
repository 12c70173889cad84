// The scoring consumer's caller of the dead-letter path: a message whose processing throws (a
// bug, here a scorer object whose name getter throws) is dead-lettered like any other — key kept,
// origin header, counted — and its offset committed; after the hard stop it is abandoned instead,
// its offset uncommitted. A fake kafkajs consumer (behind the kafkajs transport) hands the batch
// over; nothing talks to Kafka.
import type { EachBatchPayload, Kafka } from 'kafkajs';
import type { ConsumedMessage } from '../../../kafka/kafka-records.ts';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ORIGIN_HEADER } from '../../../consumers/loop-guard.ts';
import { createScoringConsumer } from '../../../consumers/scoring-consumer.ts';
import { createKafkajsTransport } from '../../../kafka/kafkajs-transport.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import type { OutgoingRecord } from '../../../kafka/kafka-records.ts';
import type { RecordPublisher } from '../../../producers/record-publisher.ts';
import { runMessage, valueOf } from './message-fixtures.ts';
import { handMadeRun } from '../../helpers/hand-made-scorer.ts';

const brokenScorer = {
  id: 'broken-object',
  get name(): string {
    throw new Error('name getter exploded');
  },
  run: handMadeRun(async () => ({ score: 1 })),
};

function setup(options: { publishFails?: boolean } = {}) {
  let eachBatch: ((payload: EachBatchPayload) => Promise<void>) | undefined;
  const commits: unknown[] = [];
  const consumer = {
    events: { REBALANCING: 'rebalancing', GROUP_JOIN: 'group-join', CRASH: 'crash' },
    on: () => undefined,
    connect: async () => undefined,
    subscribe: async () => undefined,
    run: async (config: { eachBatch: typeof eachBatch }) => void (eachBatch = config.eachBatch),
    pause: () => undefined,
    disconnect: async () => undefined,
    commitOffsets: async (offsets: unknown) => void commits.push(offsets),
  };
  const published: OutgoingRecord[] = [];
  let attempts = 0;
  const publisher: RecordPublisher = {
    publish: async (records) => {
      attempts += 1;
      if (options.publishFails) throw new Error('broker unavailable');
      published.push(...records);
    },
    flush: async () => undefined,
    pendingRecords: 0,
  };
  const config = resolveConfig({ kafka: { brokers: ['127.0.0.1:9'] }, groupId: 'unit', topics: { runs: 'runs', deadLetter: 'dead-letters' }, scorers: [{ scorer: brokenScorer }] });
  const scoring = createScoringConsumer({ transport: createKafkajsTransport({ consumer: () => consumer } as unknown as Kafka), config, publisher, logger: pino({ level: 'silent' }), publishRetryDelayMs: 1 });
  const deliver = (messages: ConsumedMessage[]) =>
    eachBatch!({
      batch: { topic: 'runs', partition: 0, messages, highWatermark: String(messages.length), firstOffset: () => messages[0]!.offset },
      heartbeat: async () => undefined,
      isRunning: () => true,
      isStale: () => false,
      resolveOffset: () => undefined,
      pause: () => () => undefined,
    } as unknown as EachBatchPayload);
  return { scoring, deliver, published, commits, attempts: () => attempts };
}

describe('scoring consumer: a message whose processing throws', () => {
  it('is dead-lettered as processing_failed with its key and the origin header, and its offset committed', async () => {
    const { scoring, deliver, published, commits } = setup();
    await scoring.start();
    await deliver([{ ...runMessage({ runId: 'odd-1' }), offset: '0' }]);
    await expect.poll(() => scoring.stats.completed).toBe(1);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ topic: 'dead-letters', key: 'odd-1', headers: { [ORIGIN_HEADER]: 'scorestream' } });
    expect(valueOf(published[0])).toMatchObject({ source: { topic: 'runs', partition: 0, offset: '0' }, error: { code: 'processing_failed', message: 'name getter exploded' } });
    expect(scoring.stats.deadLettersByCode.get('processing_failed')).toBe(1);
    await scoring.stop({ timeoutMs: 1_000 });
    expect(commits).toEqual([[{ topic: 'runs', partition: 0, offset: '1' }]]);
  });

  it('is abandoned, its offset uncommitted, when its dead letter cannot be published before the hard stop', async () => {
    const { scoring, deliver, commits, attempts } = setup({ publishFails: true });
    await scoring.start();
    await deliver([{ ...runMessage({ runId: 'odd-2' }), offset: '0' }]);
    await expect.poll(attempts).toBeGreaterThan(1); // retried, as every publish is
    expect(await scoring.stop({ timeoutMs: 0 })).toEqual({ unfinished: 1 });
    await expect.poll(() => scoring.stats.inFlight).toBe(0);
    expect(scoring.stats.completed).toBe(0);
    expect(scoring.stats.deadLettered).toBe(0);
    expect(commits).toEqual([]);
  });
});
