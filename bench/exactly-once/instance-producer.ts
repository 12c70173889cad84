// Layout (B)'s one transactional producer for the instance, made exactly as the shipped
// per-partition producers are (platformaticTransactionalKafka, kafka/platformatic-producers.ts:
// the same client class, workarounds, timeout and retries), so that the two layouts differ in how
// transactions are cut, not in how a producer is configured.
import { ProduceAcks } from '@platformatic/kafka';
import { KAFKA_DEFAULTS } from '../../kafka/kafka-defaults.ts';
import { ClientApiProducer } from '../../kafka/platformatic-client-api-producer.ts';
import type { PlatformaticConnection } from '../../kafka/platformatic-options.ts';

/** The shipped schedule: a short first pause (CONCURRENT_TRANSACTIONS clears in milliseconds), doubling up to the maximum. */
const retryDelay = (_client: unknown, _operation: string, attempt: number): number => {
  const { initialRetryTime, maxRetryTime } = KAFKA_DEFAULTS.transactions.retry;
  return Math.min(initialRetryTime * 2 ** attempt, maxRetryTime);
};

export function instanceTransactionalProducer(connection: PlatformaticConnection, transactionalId: string): ClientApiProducer {
  return new ClientApiProducer({
    ...connection,
    transactionalId,
    idempotent: true,
    acks: ProduceAcks.ALL,
    autocreateTopics: false,
    // The shipped workarounds (platformatic-producers.ts says why): the request timeout is the
    // transaction timeout, and InitProducerId asks for the id's current producer, bumped.
    timeout: KAFKA_DEFAULTS.transactions.transactionTimeoutMs,
    producerId: -1n,
    producerEpoch: -1,
    retries: KAFKA_DEFAULTS.transactions.retry.retries,
    retryDelay,
  });
}
