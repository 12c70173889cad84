// The scoring path's Kafka seam (kafka-transport.ts) on @platformatic/kafka (`kafka.client:
// 'platformatic'`): its group consumer (platformatic-consumer.ts) and producers
// (platformatic-producers.ts), connected as the config says (platformatic-options.ts).
import type { KafkaTransport } from './kafka-transport.ts';
import { platformaticGroupConsumer } from './platformatic-consumer.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';
import { platformaticRecordProducer, platformaticTransactionalKafka } from './platformatic-producers.ts';

export type PlatformaticTransportOptions = {
  /** How long a fetch waits for data when there is none (default KAFKA_DEFAULTS.platformatic.fetchMaxWaitMs; tests shorten it). */
  fetchMaxWaitMs?: number;
};

export function createPlatformaticTransport(connection: PlatformaticConnection, options: PlatformaticTransportOptions = {}): KafkaTransport {
  return {
    client: 'platformatic',
    consumer: (consumerOptions) => platformaticGroupConsumer({ ...consumerOptions, connection, ...(options.fetchMaxWaitMs === undefined ? {} : { fetchMaxWaitMs: options.fetchMaxWaitMs }) }),
    producer: () => platformaticRecordProducer(connection),
    transactional: (transactionalOptions) => platformaticTransactionalKafka(connection, transactionalOptions),
  };
}
