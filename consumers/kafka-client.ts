// Builds the kafkajs client from a resolved config: brokers, TLS, SASL, and kafkajs' own log
// lines routed into our logger at warn level and above (its info chatter is noise here).
import { Kafka, logLevel } from 'kafkajs';
import type { LogEntry } from 'kafkajs';
import type { Logger } from 'pino';
import type { ResolvedConfig } from '../src/config/resolve-config.ts';

const idempotentRetriesNotice = 'Limiting retries for the idempotent producer may invalidate EoS guarantees';

export function createKafkaClient(config: ResolvedConfig, logger: Logger): Kafka {
  const { kafka } = config;
  return new Kafka({
    clientId: kafka.clientId,
    brokers: kafka.brokers,
    ...(kafka.ssl === undefined ? {} : { ssl: kafka.ssl }),
    ...(kafka.sasl === undefined ? {} : { sasl: kafka.sasl as never }),
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...fields } = log;
        // Exactly-once bounds its transactional producers' retries on purpose (a failed
        // transaction is aborted and the partition re-claimed with a new producer id).
        if (message === idempotentRetriesNotice) return;
        const child = { kafkajs: fields };
        if (level === logLevel.ERROR) logger.error(child, `kafkajs: ${message}`);
        else if (level === logLevel.WARN) logger.warn(child, `kafkajs: ${message}`);
      },
  });
}
