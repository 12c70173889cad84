// The Kafka side of exactly-once delivery, behind a small seam the transactional sink's unit
// tests replace: one transactional producer per input partition, and the group's committed
// offset of a partition read back from the coordinator.
//
// Why a producer per partition: kafkajs 2.2.4 has no consumer-group-metadata fencing (KIP-447),
// so the transactional id itself must follow the partition. With `${groupId}-${topic}-${partition}`
// whoever claims the partition next initialises that id, which bumps its producer epoch, fences
// the previous owner's producer and completes or aborts its open transaction. The price: one
// producer (its own connections and producer id) per owned partition.
import type { Kafka, Producer } from 'kafkajs';
import { keyPartitioner } from './key-partitioner.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';

export type TransactionalProducer = Pick<Producer, 'connect' | 'disconnect' | 'transaction'>;

export type TransactionalKafka = {
  /** A new, unconnected transactional producer for this id. */
  producer(transactionalId: string): TransactionalProducer;
  /** The group's committed offset of a partition (the next offset to consume), or undefined when none. */
  committedOffset(topic: string, partition: number): Promise<number | undefined>;
  close(): Promise<void>;
};

export type TransactionalKafkaOptions = {
  groupId: string;
  /**
   * How long the broker lets a transaction stay open before aborting it itself: what a
   * `read_committed` reader waits at most behind a dead owner's transaction when nobody claims its
   * partition sooner (a restart or the new owner aborts it at once).
   */
  transactionTimeoutMs?: number;
};

/** What every transactional id of a group starts with: the prefix its ACL is granted on (docs/security.md). */
export const transactionalIdPrefix = (groupId: string): string => `${groupId}-`;

/** The transactional id of an input partition: stable across restarts, one per (group, partition). */
export const transactionalIdFor = (groupId: string, topic: string, partition: number): string => `${transactionalIdPrefix(groupId)}${topic}-${partition}`;

export function createTransactionalKafka(kafka: Kafka, options: TransactionalKafkaOptions): TransactionalKafka {
  const admin = kafka.admin();
  let adminConnected: Promise<void> | undefined;
  return {
    producer(transactionalId) {
      return kafka.producer({
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
