// The scoring path's Kafka seam (kafka-transport.ts) on kafkajs, the default client: its
// consumer's eachBatch, pause and seek, its idempotent and transactional producers, and the
// admin client that reads a group's committed offsets. Thin on purpose: the seam was cut along
// kafkajs' own shapes.
import type { Consumer, EachBatchPayload, Kafka, TopicMessages } from 'kafkajs';
import type { Logger } from 'pino';
import { createKafkaClient } from './kafka-client.ts';
import type { KafkaSettings } from './kafka-settings.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import type { OutgoingRecord } from './kafka-records.ts';
import type { GroupConsumer, GroupConsumerOptions, KafkaTransport, RecordProducer, TransactionalKafka, TransactionalKafkaOptions } from './kafka-transport.ts';
import { keyPartitioner } from './key-partitioner.ts';

/** Records grouped per topic, in their order, as kafkajs' sendBatch takes them. */
export function toTopicMessages(records: readonly OutgoingRecord[]): TopicMessages[] {
  const byTopic = new Map<string, OutgoingRecord[]>();
  for (const record of records) {
    let list = byTopic.get(record.topic);
    if (list === undefined) byTopic.set(record.topic, (list = []));
    list.push(record);
  }
  return [...byTopic].map(([topic, list]) => ({
    topic,
    // kafkajs hands each message object to the partitioner as given, so partitionKey rides along
    // to keyPartitioner and is never encoded (only key, value, headers and timestamp are); an
    // explicit partition (a changelog's) wins over both.
    messages: list.map(({ key, partitionKey, value, headers, partition }) => ({ key, value, ...(partitionKey === undefined ? {} : { partitionKey }), ...(headers === undefined ? {} : { headers }), ...(partition === undefined ? {} : { partition }) })),
  }));
}

export type KafkajsTransportOptions = {
  /** How long a fetch waits for data when there is none (kafkajs' default 5 s; tests shorten it). */
  fetchMaxWaitMs?: number;
};

/** The alternative client's transport on a kafkajs client of its own (kafka-edge.ts loads this file only when `kafka.client` is 'kafkajs'). */
export function createKafkajsTransportFor(settings: KafkaSettings, options: KafkajsTransportOptions & { logger?: Logger } = {}): KafkaTransport {
  return createKafkajsTransport(createKafkaClient(settings, options.logger), options);
}

export function createKafkajsTransport(kafka: Kafka, options: KafkajsTransportOptions = {}): KafkaTransport {
  return {
    client: 'kafkajs',
    consumer: (consumerOptions) => kafkajsGroupConsumer(kafka, consumerOptions, options),
    producer: () => kafkajsRecordProducer(kafka),
    transactional: (transactionalOptions) => kafkajsTransactionalKafka(kafka, transactionalOptions),
  };
}

function kafkajsGroupConsumer(kafka: Kafka, options: GroupConsumerOptions, transport: KafkajsTransportOptions): GroupConsumer {
  const consumer: Consumer = kafka.consumer({
    groupId: options.groupId,
    sessionTimeout: options.sessionTimeoutMs,
    heartbeatInterval: options.heartbeatIntervalMs,
    maxBytesPerPartition: options.maxBytesPerPartition,
    retry: { retries: options.retries },
    ...(transport.fetchMaxWaitMs === undefined ? {} : { maxWaitTimeInMs: transport.fetchMaxWaitMs }),
  });
  const { events } = options;
  if (events.rebalancing !== undefined) consumer.on(consumer.events.REBALANCING, () => events.rebalancing!());
  if (events.joined !== undefined) consumer.on(consumer.events.GROUP_JOIN, (event) => events.joined!(event.payload.memberAssignment));
  if (events.crashed !== undefined) consumer.on(consumer.events.CRASH, (event) => events.crashed!(event.payload.error, event.payload.restart));
  return {
    async run(run) {
      await consumer.connect();
      await consumer.subscribe({ topics: [...run.topics], fromBeginning: run.fromBeginning });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: run.partitionsConsumedConcurrently,
        eachBatch: ({ batch, pause, heartbeat, isRunning, isStale, resolveOffset }: EachBatchPayload) =>
          run.eachBatch({ topic: batch.topic, partition: batch.partition, messages: batch.messages, highWatermark: batch.highWatermark }, { pause, heartbeat, isRunning, isStale, resolveOffset }),
      });
    },
    pause: (topics) => consumer.pause(topics.map((entry) => ({ ...entry }))),
    seek(position) {
      try {
        consumer.seek({ ...position });
      } catch (error) {
        // Between a crash and its restart (and after a stop) kafkajs has no consumer group and
        // refuses every seek. Nothing is lost by dropping it: the restarted consumer re-joins and
        // starts each partition at the group's committed offset, which is where a seek after a
        // failed transaction points anyway, and the join ends every claim of the old assignment.
        if (!isNotRunning(error)) throw error;
      }
    },
    commitOffsets: (offsets) => consumer.commitOffsets(offsets.map((offset) => ({ ...offset }))),
    disconnect: () => consumer.disconnect(),
  };
}

function isNotRunning(error: unknown): boolean {
  return error instanceof Error && error.message.includes('consumer#run must be called first');
}

function kafkajsRecordProducer(kafka: Kafka): RecordProducer {
  const producer = kafka.producer({ createPartitioner: keyPartitioner, idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  return {
    connect: () => producer.connect(),
    send: async (records) => void (await producer.sendBatch({ acks: -1, topicMessages: toTopicMessages(records) })),
    disconnect: () => producer.disconnect(),
  };
}

// One producer per input partition, its id from transactionalIdFor (transactional-kafka.ts says why).
function kafkajsTransactionalKafka(kafka: Kafka, options: TransactionalKafkaOptions): TransactionalKafka {
  const admin = kafka.admin();
  let adminConnected: Promise<void> | undefined;
  return {
    producer(transactionalId) {
      const producer = kafka.producer({
        transactionalId,
        createPartitioner: keyPartitioner,
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        transactionTimeout: options.transactionTimeoutMs ?? KAFKA_DEFAULTS.transactions.transactionTimeoutMs,
        // Bounded on purpose (about 10 s in all): a transaction that cannot finish is aborted and
        // its partition re-claimed with a fresh producer id, so nothing depends on one producer
        // retrying for ever (and kafkajs' endless retries would outlive the producer's
        // disconnect). A short first delay because the commonest retry is benign: a transaction
        // begun right after the previous one committed meets CONCURRENT_TRANSACTIONS until the
        // coordinator has written the markers (a few ms); kafkajs' default 300 ms, paid by every
        // back-to-back transaction, costs exactly-once much of its throughput (docs/benchmarks.md).
        retry: { ...KAFKA_DEFAULTS.transactions.retry },
      });
      return {
        connect: () => producer.connect(),
        async transaction() {
          const transaction = await producer.transaction();
          return {
            send: async (records) => void (await transaction.sendBatch({ acks: -1, topicMessages: toTopicMessages(records) })),
            sendOffsets: ({ groupId, topic, partition, offset }) => transaction.sendOffsets({ consumerGroupId: groupId, topics: [{ topic, partitions: [{ partition, offset }] }] }),
            commit: () => transaction.commit(),
            abort: () => transaction.abort(),
          };
        },
        disconnect: () => producer.disconnect(),
      };
    },
    async committedOffset(topic, partition) {
      adminConnected ??= admin.connect().catch((error: unknown) => {
        adminConnected = undefined;
        throw error;
      });
      await adminConnected;
      const [entry] = await admin.fetchOffsets({ groupId: options.groupId, topics: [topic] });
      const offset = Number(entry?.partitions.find((candidate) => candidate.partition === partition)?.offset ?? -1);
      return offset >= 0 ? offset : undefined;
    },
    async close() {
      if (adminConnected !== undefined) await admin.disconnect();
    },
  };
}
