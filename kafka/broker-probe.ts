// The readiness probe's question to Kafka (service/health-state.ts asks it): can this instance reach a
// broker now? One metadata request (describeCluster) on an admin client of its own that does not
// retry — a probe must answer in bounded time, and the next probe asks again.
import { createKafkaAdmin } from './kafka-admin.ts';
import type { KafkaAdmin } from './kafka-admin.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';

export type BrokerProbe = { probe(): Promise<void>; close(): Promise<void> };

export function createBrokerProbe(connection: PlatformaticConnection): BrokerProbe {
  let admin: KafkaAdmin | undefined;
  return {
    async probe() {
      admin ??= createKafkaAdmin(connection, { retries: KAFKA_DEFAULTS.brokerProbe.retry.retries, requestTimeoutMs: KAFKA_DEFAULTS.brokerProbe.timeoutMs });
      try {
        await admin.describeCluster();
      } catch (error) {
        // A client that lost its broker is dropped: the next probe connects afresh.
        const failed = admin;
        admin = undefined;
        await failed.close().catch(() => undefined);
        throw error;
      }
    },
    async close() {
      await admin?.close().catch(() => undefined);
      admin = undefined;
    },
  };
}
