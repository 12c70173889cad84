// The scoring path's transport of `config.kafka.client` (kafka-transport.ts): kafkajs on the
// service's kafkajs client (the one its admin work runs on), or @platformatic/kafka.
import type { Kafka } from 'kafkajs';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import type { KafkaTransport } from './kafka-transport.ts';
import { createKafkajsTransport } from './kafkajs-transport.ts';
import { createPlatformaticTransport } from './platformatic-transport.ts';

export type KafkaTransportOptions = {
  /** How long an idle fetch waits for data (default: each client's own; tests shorten it). */
  fetchMaxWaitMs?: number;
};

export function createKafkaTransport(config: ResolvedConfig, kafka: Kafka, options: KafkaTransportOptions = {}): KafkaTransport {
  return config.kafka.client === 'platformatic' ? createPlatformaticTransport(config.kafka, options) : createKafkajsTransport(kafka, options);
}
