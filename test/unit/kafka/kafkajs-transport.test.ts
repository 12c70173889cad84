// The kafkajs transport's shapes (kafka/kafkajs-transport.ts): what kafkajs' sendBatch is handed.
import { describe, expect, it } from 'vitest';
import { toTopicMessages } from '../../../kafka/kafkajs-transport.ts';

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
