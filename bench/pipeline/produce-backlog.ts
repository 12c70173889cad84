// Fills a topic with the benchmark's events as fast as the broker takes them: big sendBatch
// requests of pre-serialised JSON, a few in flight, no validation. This is set-up, not a
// measured scenario, so it uses a plain (non-idempotent) producer. Also creates and removes
// the benchmark's topics.
import type { Kafka, Message } from 'kafkajs';

export type TopicSpec = { topic: string; partitions: number };

export async function createTopics(kafka: Kafka, topics: readonly TopicSpec[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({
      waitForLeaders: true,
      timeout: 30_000,
      topics: topics.map(({ topic, partitions }) => ({ topic, numPartitions: partitions, replicationFactor: 1 })),
    });
  } finally {
    await admin.disconnect();
  }
}

/** Deletes every topic whose name starts with `${prefix}-` (the benchmark's, and the service's outputs). */
export async function deleteTopicsWithPrefix(kafka: Kafka, prefix: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(`${prefix}-`));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
  } finally {
    await admin.disconnect();
  }
}

export type ProduceOptions = {
  topic: string;
  count: number;
  message: (index: number) => Message;
  /**
   * Messages per request (default 1,000). The broker limits each partition's record batch to
   * message.max.bytes (1 MB): 1,000 sample runs over 6 partitions are ~600 KB per partition.
   */
  batchSize?: number;
  /** Requests in flight at once (default 4). */
  inFlight?: number;
};

/** Produces `count` messages (requests may interleave); resolves when all are acknowledged. */
export async function produceBacklog(kafka: Kafka, options: ProduceOptions): Promise<void> {
  const batchSize = options.batchSize ?? 1_000;
  const inFlight = options.inFlight ?? 4;
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  try {
    let next = 0;
    const worker = async () => {
      while (next < options.count) {
        const start = next;
        const end = Math.min(options.count, start + batchSize);
        next = end;
        const messages: Message[] = [];
        for (let index = start; index < end; index += 1) messages.push(options.message(index));
        await producer.sendBatch({ acks: 1, topicMessages: [{ topic: options.topic, messages }] });
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
  } finally {
    await producer.disconnect();
  }
}
