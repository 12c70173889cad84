// Where the scoring consumer's records go, as the config's `delivery` says (docs/delivery.md):
// at-least-once through one shared idempotent producer and the batching record publisher;
// exactly-once through one transactional producer per owned partition, made by the sink as
// partitions are claimed. Either way a record the broker refuses for what it is
// (kafka/publish-refusal.ts) is counted and replaced by its smaller form.
import { KAFKA_DEFAULTS } from '../kafka/kafka-defaults.ts';
import type { AccessContext } from '../kafka/kafka-access-error.ts';
import { explainKafkaError } from '../kafka/kafka-preflight.ts';
import type { OutgoingRecord } from '../kafka/kafka-records.ts';
import type { KafkaTransport, RecordProducer } from '../kafka/kafka-transport.ts';
import type { PublishRefusal } from '../kafka/publish-refusal.ts';
import type { ScoringConsumerOptions } from '../consumers/scoring-consumer.ts';
import type { ServiceStats } from '../consumers/service-stats.ts';
import { createTransactionalSink } from '../consumers/transactional-sink.ts';
import { createRecordPublisher } from '../producers/record-publisher.ts';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';

/** Where the scoring consumer's records go, as the delivery mode says; the shared producer (at-least-once) is connected here. */
export async function deliverySink(
  options: { config: ResolvedConfig; logger: Logger; transport: KafkaTransport },
  stats: ServiceStats,
  accessContext: AccessContext,
): Promise<{ producer: RecordProducer | undefined; sinkOptions: Pick<ScoringConsumerOptions, 'publisher' | 'createSink'> }> {
  const { config, logger, transport } = options;
  // A record the broker refused for what it is (kafka/publish-refusal.ts) and what went out instead.
  const send = {
    maxRequestBytes: config.maxRecordBytes,
    maxRequestRecords: KAFKA_DEFAULTS.publish.maxBatchRecords,
    onRefused: (record: OutgoingRecord, refusal: PublishRefusal, replacement: OutgoingRecord | undefined) => {
      stats.recordsRefused += 1;
      if (replacement === undefined) stats.recordsDropped += 1;
      const what = { topic: record.topic, key: record.key?.slice(0, 200), refusal: refusal.type, bytes: record.value === null ? 0 : typeof record.value === 'string' ? Buffer.byteLength(record.value) : record.value.length };
      if (replacement === undefined) logger.error(what, `Kafka refused a record (${refusal.type}) and no smaller form of it is left: dropped, so that its partition keeps moving`);
      else logger.warn(what, `Kafka refused a record (${refusal.type}); writing a smaller form of it instead (lower maxRecordBytes to the topics' max.message.bytes)`);
    },
  };
  // At-least-once publishes through one shared idempotent producer; exactly-once through one
  // transactional producer per owned partition, made by the sink as partitions are claimed.
  let producer: RecordProducer | undefined;
  let sinkOptions: Pick<ScoringConsumerOptions, 'publisher' | 'createSink'>;
  if (config.delivery === 'exactly-once') {
    sinkOptions = {
      createSink: (consumer, stats) =>
        createTransactionalSink({
          kafka: transport.transactional({ groupId: config.groupId }),
          consumer,
          groupId: config.groupId,
          stats,
          logger,
          pressureThreshold: Math.max(1, Math.floor(config.concurrency.runsInFlight / 2)),
          send,
        }),
    };
  } else {
    producer = transport.producer();
    await producer.connect().catch((error: unknown) => {
      throw explainKafkaError(error, accessContext);
    });
    sinkOptions = { publisher: createRecordPublisher(producer, { maxRequestBytes: send.maxRequestBytes, onRefused: send.onRefused }) };
  }
  return { producer, sinkOptions };
}
