// The seam's producers (kafka-transport.ts) on @platformatic/kafka: the idempotent record
// producer of at-least-once delivery, and exactly-once's transactional producers with the
// group's committed offsets read back — one transactional id per input partition, as with
// kafkajs (transactional-kafka.ts), so that instances on either client fence each other.
import { Consumer, Producer, ProduceAcks } from '@platformatic/kafka';
import type { Message } from '@platformatic/kafka';
import { backoffDelayMs } from '../src/kit/backoff.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import type { OutgoingRecord } from './kafka-records.ts';
import type { ProducerTransaction, RecordProducer, TransactionalKafka, TransactionalKafkaOptions } from './kafka-transport.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';
import { toMessageToProduce } from './platformatic-records.ts';
import { ClientApiProducer } from './platformatic-client-api-producer.ts';

const sendOptions = (records: readonly OutgoingRecord[]) => ({ messages: records.map(toMessageToProduce), acks: ProduceAcks.ALL });

export function platformaticRecordProducer(connection: PlatformaticConnection): RecordProducer {
  const producer = new Producer({ ...connection, idempotent: true, acks: ProduceAcks.ALL, autocreateTopics: false, retries: KAFKA_DEFAULTS.platformatic.publishRetries, retryDelay: KAFKA_DEFAULTS.platformatic.retryDelayMs });
  return {
    // The client connects on its first request.
    connect: async () => void (await producer.metadata({ topics: [] })),
    send: async (records) => void (await producer.send(sendOptions(records))),
    disconnect: () => producer.close(),
  };
}

/** kafkajs' schedule (kafka-defaults.ts): a short first pause (CONCURRENT_TRANSACTIONS clears in ms), doubling up to the maximum. */
const transactionRetryDelay = (_client: unknown, _operation: string, attempt: number): number => {
  const { initialRetryTime, maxRetryTime } = KAFKA_DEFAULTS.transactions.retry;
  // initialRetryTime × 2^attempt, capped: the backoff counts failures from 1.
  return backoffDelayMs({ firstDelayMs: initialRetryTime, maxDelayMs: maxRetryTime }, attempt + 1);
};

export function platformaticTransactionalKafka(connection: PlatformaticConnection, options: TransactionalKafkaOptions): TransactionalKafka {
  // Not a group member: it only finds the group's coordinator and reads its committed offsets.
  let reader: Consumer | undefined;
  const readerOf = () => (reader ??= new Consumer({ ...connection, groupId: options.groupId, autocommit: false }));
  const transactionTimeoutMs = options.transactionTimeoutMs ?? KAFKA_DEFAULTS.transactions.transactionTimeoutMs;
  return {
    producer(transactionalId) {
      // Workaround: AddPartitionsToTxn at a client's version, else a cluster enforcing ACLs refuses
      // every transaction (platformatic-client-api-producer.ts says why).
      const producer = new ClientApiProducer({
        ...connection,
        transactionalId,
        idempotent: true,
        acks: ProduceAcks.ALL,
        autocreateTopics: false,
        // Workaround: @platformatic/kafka 2.12.1 sends its request timeout (`timeout`, 5 s by
        // default) as InitProducerId's transaction timeout, so the request timeout is the
        // transaction timeout here (kafkajs has a setting of its own).
        timeout: transactionTimeoutMs,
        // Workaround: 2.12.1 sends InitProducerId with producer id 0 and epoch 0 unless told
        // otherwise, which the broker takes for a claim to be producer 0 (KIP-360) and answers
        // PRODUCER_FENCED once any producer used the transactional id before (a restart, another
        // instance's claim, a zombie). -1/-1 asks for the id's current producer, bumped: the fencing
        // every claim relies on.
        producerId: -1n,
        producerEpoch: -1,
        // Bounded, as kafkajs' are (kafka-defaults.ts): a transaction that cannot finish is aborted
        // and its partition claimed again with a fresh producer.
        retries: KAFKA_DEFAULTS.transactions.retry.retries,
        retryDelay: transactionRetryDelay,
      });
      return {
        connect: async () => void (await producer.metadata({ topics: [] })),
        async transaction(): Promise<ProducerTransaction> {
          // The first one initialises the transactional id (InitProducerId), fencing earlier producers of it.
          const transaction = await producer.beginTransaction();
          let touched = false;
          return {
            async send(records) {
              touched = true;
              await transaction.send(sendOptions(records));
            },
            async sendOffsets({ groupId, topic, partition, offset }) {
              touched = true;
              const coordinatorId = await readerOf().findGroupCoordinator();
              await transaction.addConsumer({ groupId } as Consumer);
              // Workaround: 2.12.1 takes a transaction's offsets only as consumed Messages (it
              // commits `offset + 1` under the message's consumer metadata). Generation -1 and no
              // member id: the id follows the partition, so fencing is by transactional id, as with kafkajs.
              const consumed = { topic, partition, offset: BigInt(offset) - 1n, metadata: { consumer: { groupId, generationId: -1, memberId: '', coordinatorId } } };
              await transaction.addOffset(consumed as unknown as Message);
            },
            commit: () => transaction.commit(),
            // A transaction that sent nothing is unknown to the coordinator (EndTxn would be refused): it ends locally.
            abort: () => (touched ? transaction.abort() : transaction.cancel()),
          };
        },
        disconnect: () => producer.close(true),
      };
    },
    async committedOffset(topic, partition) {
      const committed = await readerOf().listCommittedOffsets({ topics: [{ topic, partitions: [partition] }] });
      const offset = committed.get(topic)?.[partition];
      return offset !== undefined && offset >= 0n ? Number(offset) : undefined;
    },
    async close() {
      await reader?.close(true);
    },
  };
}
