// Checks, before a client starts consuming or producing, that the cluster lets it in and lets it
// do what it needs — by attempting the smallest real operations, since the ACL API is itself
// ACL'd: connect and describe the cluster (TLS and SASL), see each topic it reads (DESCRIBE, which
// READ and WRITE imply), find its consumer group's coordinator (DESCRIBE on the group, implied by
// READ) and, for exactly-once, initialise a transactional producer under its prefix (WRITE on the
// transactional ids). A refusal becomes a KafkaAccessError naming what to fix (exit 2). WRITE on a
// topic cannot be checked without writing: a denied publish is reported when it happens.
import type { ConnectionOptions } from 'node:tls';
import { probeTls } from './tls-probe.ts';
import { KafkaAccessError, kafkaAccessError } from './kafka-access-error.ts';
import type { AccessContext } from './kafka-access-error.ts';
import { createKafkaAdmin } from './kafka-admin.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';
import type { PlatformaticConnection } from './platformatic-options.ts';
import { platformaticTransactionalKafka } from './platformatic-producers.ts';

export type KafkaNeeds = {
  /** The client's TLS options, to check the certificates with one handshake first (tls-probe.ts). */
  tls?: ConnectionOptions | undefined;
  /** Topics that must exist and be visible (to read them, or to write to topics the client does not create). */
  existingTopics?: readonly string[];
  group?: string;
  /** Exactly-once: the prefix of the transactional ids the client will use. */
  transactionalIdPrefix?: string;
};

/** Rethrows `error` as a KafkaAccessError when it is Kafka refusing this client; else as it is. */
export function explainKafkaError(error: unknown, context: AccessContext): unknown {
  return kafkaAccessError(error, context) ?? error;
}

export async function kafkaPreflight(connection: PlatformaticConnection, needs: KafkaNeeds, context: AccessContext): Promise<void> {
  if (needs.tls !== undefined && context.brokers[0] !== undefined) {
    const refused = await probeTls(context.brokers[0], needs.tls, KAFKA_DEFAULTS.preflight.tlsProbeTimeoutMs);
    if (refused !== undefined) throw explainKafkaError(Object.assign(refused, { broker: context.brokers[0] }), context);
  }
  // Its own admin, which gives up soon: a refusal should be reported, not retried.
  const admin = createKafkaAdmin(connection, { retries: KAFKA_DEFAULTS.preflight.requestRetries, requestTimeoutMs: KAFKA_DEFAULTS.preflight.requestTimeoutMs });
  try {
    await admin.describeCluster();
    const visible = new Set(await admin.listTopics());
    const missing = (needs.existingTopics ?? []).filter((topic) => !visible.has(topic));
    if (missing.length > 0) {
      const needed = (context.topics ?? []).filter(({ topic }) => missing.includes(topic));
      const what = needed.length > 0 ? needed.map(({ topic, operations }) => `${operations} on topic '${topic}'`).join(', ') : missing.map((topic) => `topic '${topic}'`).join(', ');
      throw new KafkaAccessError(
        `Kafka (${context.brokers.join(',')}) shows ${context.principal} no topic ${missing.map((topic) => `'${topic}'`).join(', ')}: either it does not exist ` +
          `(create it, or fix SCORESTREAM_TOPIC_*), or the principal has no ACL on it (grant ${what}; docs/security.md lists the commands per role).`,
        'topic_missing',
      );
    }
    if (needs.group !== undefined) await admin.describeGroup(needs.group);
  } catch (error) {
    throw explainKafkaError(error, context);
  } finally {
    await admin.close().catch(() => undefined);
  }
  if (needs.transactionalIdPrefix !== undefined) {
    // Initialising a producer id under the prefix is the check; it writes no record.
    const transactional = platformaticTransactionalKafka(connection, { groupId: needs.group ?? 'scorestream-preflight' });
    const producer = transactional.producer(`${needs.transactionalIdPrefix}scorestream-preflight`);
    try {
      await producer.connect();
      const transaction = await producer.transaction();
      await transaction.abort();
    } catch (error) {
      throw explainKafkaError(error, context);
    } finally {
      await producer.disconnect().catch(() => undefined);
      await transactional.close().catch(() => undefined);
    }
  }
}
