// The kafkajs transport's shapes (kafka/kafkajs-transport.ts): what kafkajs' sendBatch is handed.
import { describe, expect, it } from 'vitest';
import { Kafka, logLevel } from 'kafkajs';
import { createKafkajsTransport, toTopicMessages } from '../../../kafka/kafkajs-transport.ts';

describe('toTopicMessages', () => {
  it("hands a record's partitionKey to the partitioner with the message, and leaves it out when there is none", () => {
    const messages = toTopicMessages([
      { topic: 'scores', key: 'score-1', partitionKey: 'run-1', value: 'a', headers: { origin: 'x' } },
      { topic: 'scores', key: 'run-2', value: 'b' },
    ]);
    expect(messages).toEqual([
      {
        topic: 'scores',
        messages: [
          { key: 'score-1', partitionKey: 'run-1', value: 'a', headers: { origin: 'x' } },
          { key: 'run-2', value: 'b' },
        ],
      },
    ]);
  });
});

describe("the kafkajs consumer's seek", () => {
  // A real kafkajs consumer that has not run is in the state kafkajs leaves it in between a
  // crash and its restart: no consumer group. Nothing connects; the broker address is never dialled.
  const consumer = () =>
    createKafkajsTransport(new Kafka({ clientId: 'seek-test', brokers: ['127.0.0.1:1'], logLevel: logLevel.NOTHING })).consumer({
      groupId: 'seek-test',
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 1_000,
      maxBytesPerPartition: 1_048_576,
      retries: 0,
      events: {},
    });

  it('is dropped, not thrown, while the consumer is not running (it restarts at the committed offsets)', () => {
    expect(() => consumer().seek({ topic: 'runs', partition: 0, offset: '42' })).not.toThrow();
  });

  it('still throws what is a caller error, such as a negative offset', () => {
    expect(() => consumer().seek({ topic: 'runs', partition: 0, offset: '-5' })).toThrow(/negative/);
  });
});
