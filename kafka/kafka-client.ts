// Builds the kafkajs client from a resolved config: brokers, TLS (PEM files read by kafka-security.ts), SASL, and kafkajs' own log
// lines routed into our logger at warn level and above (its info chatter is noise here).
import { Kafka, logLevel } from 'kafkajs';
import type { LogEntry } from 'kafkajs';
import type { Logger } from 'pino';
import pino from 'pino';
import type { KafkaSettings } from './kafka-settings.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import { kafkaClientSecurity } from './kafka-security.ts';

// Lines that describe expected behaviour of exactly-once delivery, not problems: its
// transactional producers bound their retries on purpose (a failed transaction is aborted and the
// partition re-claimed with a new producer id), and a transaction begun right after the previous
// one committed is retried while the coordinator finishes writing the markers.
const idempotentRetriesNotice = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';
const concurrentTransactions = 'The producer attempted to update a transaction while another concurrent operation on the same transaction was ongoing';
const isExpected = (message: string, fields: Record<string, unknown>) =>
  message === idempotentRetriesNotice || fields.error === concurrentTransactions || message.endsWith(concurrentTransactions);

export function createKafkaClient(kafka: KafkaSettings, logger: Logger = pino({ level: 'warn' })): Kafka {
  return new Kafka({
    clientId: kafka.clientId,
    brokers: kafka.brokers,
    ...kafkaClientSecurity(kafka),
    reauthenticationThreshold: KAFKA_DEFAULTS.kafkajs.reauthenticationThresholdMs,
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...fields } = log;
        if (isExpected(message, fields)) return;
        const child = { kafkajs: fields };
        if (level === logLevel.ERROR) logger.error(child, `kafkajs: ${message}`);
        else if (level === logLevel.WARN) logger.warn(child, `kafkajs: ${message}`);
      },
  });
}
