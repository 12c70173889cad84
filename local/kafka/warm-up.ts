// Brings up a new broker's group and transaction coordinators before anyone needs them. Kafka
// creates __consumer_offsets and __transaction_state on first use and answers "coordinator is
// loading" meanwhile; kafkajs retries, but logs each retry as an ERROR and its first consumer
// crashes and restarts once. Doing it here, once, quietly, keeps the first real client's logs clean.
import { randomBytes } from 'node:crypto';
import { quietKafka } from './quiet.ts';
import type { ClientSecurity } from './readiness.ts';

export async function warmUpCoordinators(brokers: string[], security: ClientSecurity = {}): Promise<void> {
  const suffix = randomBytes(4).toString('hex');
  const kafka = quietKafka({ clientId: 'scorestream-broker-warm-up', brokers, ...security, retry: { retries: 20, initialRetryTime: 100, maxRetryTime: 1_000 } });
  const admin = kafka.admin();
  const producer = kafka.producer({ transactionalId: `scorestream-warm-up-${suffix}`, idempotent: true, maxInFlightRequests: 1 });
  try {
    await admin.connect();
    await admin.describeGroups([`scorestream-warm-up-${suffix}`]);
    await producer.connect();
    const transaction = await producer.transaction();
    await transaction.abort();
  } finally {
    await producer.disconnect().catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}
