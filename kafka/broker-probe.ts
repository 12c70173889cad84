// The readiness probe's question to Kafka (service/health-state.ts asks it): can this instance reach a
// broker now? One metadata request (describeCluster) on an admin client of its own that does not
// retry — a probe must answer in bounded time, and the next probe asks again.
import type { Admin, Kafka } from 'kafkajs';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';

export type BrokerProbe = { probe(): Promise<void>; close(): Promise<void> };

export function createBrokerProbe(kafka: Kafka): BrokerProbe {
  let admin: Admin | undefined;
  return {
    async probe() {
      admin ??= kafka.admin({ retry: { ...KAFKA_DEFAULTS.brokerProbe.retry } });
      try {
        await admin.connect();
        await admin.describeCluster();
      } catch (error) {
        // A client that lost its broker is dropped: the next probe connects afresh.
        const failed = admin;
        admin = undefined;
        await failed.disconnect().catch(() => undefined);
        throw error;
      }
    },
    async close() {
      await admin?.disconnect().catch(() => undefined);
      admin = undefined;
    },
  };
}
