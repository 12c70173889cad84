// Run slots with thread scorers bound: by-thread messages wait for their partition's state (its
// restore, its batch's acknowledgement) in slots of their own, so a by-thread backlog that waits
// never takes the runs' slots — the runs whose scoring makes the turns it waits for. Regression:
// with one pool, by-thread messages waiting on acknowledgements held every slot and the run path
// slowed to the thread stage's pace (docs/benchmarks.md, threads through the service). A fake
// kafkajs consumer hands the batches over; the changelog read never finishes.
import type { EachBatchPayload, Kafka } from 'kafkajs';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createScoringConsumer } from '../../../consumers/scoring-consumer.ts';
import { createKafkajsTransport } from '../../../kafka/kafkajs-transport.ts';
import type { ConsumedMessage, OutgoingRecord } from '../../../kafka/kafka-records.ts';
import type { RecordPublisher } from '../../../producers/record-publisher.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { threadTopicsFor } from '../../../src/engine/topology/thread-topics.ts';
import { createTurnCountScorer } from '../../../src/kit/scorers/code/turn-count/index.ts';
import { conversationRunInput, turnOf } from '../src/engine/threads/fixtures.ts';
import { consumedMessage, fixedScorer } from './message-fixtures.ts';

const runsInFlight = 2;

function setup() {
  let eachBatch: ((payload: EachBatchPayload) => Promise<void>) | undefined;
  const consumer = {
    events: { REBALANCING: 'rebalancing', GROUP_JOIN: 'group-join', CRASH: 'crash' },
    on: () => undefined,
    connect: async () => undefined,
    subscribe: async () => undefined,
    run: async (config: { eachBatch: typeof eachBatch }) => void (eachBatch = config.eachBatch),
    pause: () => undefined,
    disconnect: async () => undefined,
    commitOffsets: async () => undefined,
  };
  const published: OutgoingRecord[] = [];
  const publisher: RecordPublisher = { publish: async (records) => void published.push(...records), flush: async () => undefined, pendingRecords: 0 };
  const config = resolveConfig({
    kafka: { brokers: ['127.0.0.1:9'] },
    groupId: 'unit',
    topics: { runs: 'runs', results: 'scores', deadLetter: 'dead-letters' },
    scorers: [{ scorer: fixedScorer }, { scorer: createTurnCountScorer(), level: 'thread' }],
    concurrency: { runsInFlight },
  });
  const scoring = createScoringConsumer({
    transport: createKafkajsTransport({ consumer: () => consumer } as unknown as Kafka),
    config,
    publisher,
    logger: pino({ level: 'silent' }),
    publishRetryDelayMs: 1,
    readChangelog: () => new Promise<number>(() => undefined), // the by-thread partition's state is never restored
  });
  const pauses: string[] = [];
  const deliver = (topic: string, messages: ConsumedMessage[]) =>
    eachBatch!({
      batch: { topic, partition: 0, messages, highWatermark: String(messages.length), firstOffset: () => messages[0]!.offset },
      heartbeat: async () => undefined,
      isRunning: () => true,
      isStale: () => false,
      resolveOffset: () => undefined,
      pause: () => {
        pauses.push(topic);
        return () => undefined;
      },
    } as unknown as EachBatchPayload);
  return { scoring, deliver, published, pauses };
}

const turnMessage = (offset: number) => consumedMessage({ value: turnOf({ runId: `turn-${offset}`, threadId: `t-${offset}` }).json, offset: String(offset) });

describe('scoring consumer: run slots with thread scorers bound', () => {
  it('scores runs while every by-thread message waits for its partition’s state', async () => {
    const { scoring, deliver, published, pauses } = setup();
    await scoring.start();
    // As many waiting by-thread messages as there are run slots: they hold slots of their own.
    await deliver(threadTopicsFor('runs').byThread, [turnMessage(0), turnMessage(1)]);
    expect(scoring.stats.inFlight).toBe(runsInFlight);
    const runs = [0, 1, 2, 3].map((offset) => consumedMessage({ key: `run-${offset}`, value: JSON.stringify(conversationRunInput({ runId: `run-${offset}`, threadId: `t-${offset}` })), offset: String(offset) }));
    await deliver('runs', runs);
    await expect.poll(() => published.filter((record) => record.topic === 'scores').length).toBe(4);
    // Each run re-keyed to its thread, once its records were accepted (perform-job.ts): after them.
    await expect.poll(() => published.filter((record) => record.topic === threadTopicsFor('runs').byThread).length).toBe(4);
    await expect.poll(() => scoring.stats.completed).toBe(4);
    expect(pauses.filter((topic) => topic === 'runs').length).toBeGreaterThan(0); // the runs still wait for each other's slots
    await scoring.stop({ timeoutMs: 50 });
  });
});
