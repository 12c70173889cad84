// Layout (A)'s clock: the shipped transactional Kafka (kafka/platformatic-producers.ts) with every
// committed transaction's phases timed at the seam (kafka/kafka-transport.ts), so that today's sink
// runs unchanged and is measured the same way as layout (B). A transaction that is aborted or
// cancelled (the claim's fencing) is not recorded.
import type { OutgoingRecord } from '../../kafka/kafka-records.ts';
import type { PartitionOffset, ProducerTransaction, TransactionalKafka, TransactionalProducer } from '../../kafka/kafka-transport.ts';
import type { TransactionTimings } from './transaction-timings.ts';

function timedTransaction(transaction: ProducerTransaction, begunAt: number, timings: TransactionTimings): ProducerTransaction {
  let sendMs = 0;
  let offsetsMs = 0;
  let records = 0;
  let partitions = 0;
  return {
    async send(batch: readonly OutgoingRecord[]) {
      const startedAt = performance.now();
      await transaction.send(batch);
      sendMs += performance.now() - startedAt;
      records += batch.length;
    },
    async sendOffsets(offset: PartitionOffset & { groupId: string }) {
      const startedAt = performance.now();
      await transaction.sendOffsets(offset);
      offsetsMs += performance.now() - startedAt;
      partitions += 1;
    },
    async commit() {
      const startedAt = performance.now();
      await transaction.commit();
      const endedAt = performance.now();
      timings.record({ totalMs: endedAt - begunAt, sendMs, offsetsMs, endMs: endedAt - startedAt, records, partitions });
    },
    abort: () => transaction.abort(),
  };
}

function timedProducer(producer: TransactionalProducer, timings: TransactionTimings): TransactionalProducer {
  return {
    connect: () => producer.connect(),
    async transaction() {
      const begunAt = performance.now();
      return timedTransaction(await producer.transaction(), begunAt, timings);
    },
    disconnect: () => producer.disconnect(),
  };
}

export function timedTransactionalKafka(kafka: TransactionalKafka, timings: TransactionTimings): TransactionalKafka {
  return {
    producer: (transactionalId) => timedProducer(kafka.producer(transactionalId), timings),
    committedOffset: (topic, partition) => kafka.committedOffset(topic, partition),
    close: () => kafka.close(),
  };
}
