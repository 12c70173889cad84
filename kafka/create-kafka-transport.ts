// The scoring path's transport (kafka-transport.ts): kafkajs, on the service's kafkajs client (the
// one its admin work runs on).
import type { Kafka } from 'kafkajs';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../src/config/resolve-config.ts';
import type { KafkaTransport } from './kafka-transport.ts';
import { createKafkajsTransport } from './kafkajs-transport.ts';

export function createKafkaTransport(config: ResolvedConfig, logger: Logger, kafka: Kafka): KafkaTransport {
  void logger;
  void config;
  return createKafkajsTransport(kafka);
}
