// Checks, before a client starts consuming or producing, that the cluster lets it in and lets it
// do what it needs — by attempting the smallest real operations, since the ACL API is itself
// ACL'd: connect and describe the cluster (TLS and SASL), see each topic it reads (DESCRIBE, which
// READ and WRITE imply), find its consumer group's coordinator (DESCRIBE on the group, implied by
// READ) and, for exactly-once, initialise a transactional producer under its prefix (WRITE on the
// transactional ids). A refusal becomes a KafkaAccessError naming what to fix (exit 2). WRITE on a
// topic cannot be checked without writing: a denied publish is reported when it happens.
import type { ConnectionOptions } from 'node:tls';
import type { Kafka } from 'kafkajs';
import { probeTls } from './tls-probe.ts';
import { KafkaAccessError, kafkaAccessError } from './kafka-access-error.ts';
import type { AccessContext } from './kafka-access-error.ts';
import { KAFKA_DEFAULTS } from './kafka-defaults.ts';

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

/**
 * kafkajs reports a coordinator lookup the broker refused (FindCoordinator answered
 * GROUP_AUTHORIZATION_FAILED or TRANSACTIONAL_ID_AUTHORIZATION_FAILED) only as "Failed to find group
 * coordinator", the broker's answer dropped. The pre-flight has just seen the cluster answer, so
 * in this step that means the ACL: the error is given the refusal's type back.
 */
function coordinatorRefused(type: 'GROUP_AUTHORIZATION_FAILED' | 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED'): (error: unknown) => never {
  return (error) => {
    if ((error as { name?: unknown }).name === 'KafkaJSGroupCoordinatorNotFound') {
      throw Object.assign(new Error(`no coordinator found (the broker answered ${type}, or none is available)`, { cause: error }), { name: 'KafkaJSGroupCoordinatorNotFound', type });
    }
    throw error;
  };
}

export async function kafkaPreflight(kafka: Kafka, needs: KafkaNeeds, context: AccessContext): Promise<void> {
  if (needs.tls !== undefined && context.brokers[0] !== undefined) {
    const refused = await probeTls(context.brokers[0], needs.tls, KAFKA_DEFAULTS.preflight.tlsProbeTimeoutMs);
    if (refused !== undefined) throw explainKafkaError(Object.assign(refused, { broker: context.brokers[0] }), context);
  }
  const admin = kafka.admin({ retry: { ...KAFKA_DEFAULTS.preflight.retry } });
  try {
    await admin.connect();
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
    if (needs.group !== undefined) await admin.describeGroups([needs.group]).catch(coordinatorRefused('GROUP_AUTHORIZATION_FAILED'));
  } catch (error) {
    throw explainKafkaError(error, context);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
  if (needs.transactionalIdPrefix !== undefined) {
    // Initialising a producer id under the prefix is the check; it writes no record.
    const producer = kafka.producer({ transactionalId: `${needs.transactionalIdPrefix}scorestream-preflight`, idempotent: true, maxInFlightRequests: 1, retry: { ...KAFKA_DEFAULTS.preflight.retry } });
    try {
      await producer.connect();
      const transaction = await producer.transaction().catch(coordinatorRefused('TRANSACTIONAL_ID_AUTHORIZATION_FAILED'));
      await transaction.abort();
    } catch (error) {
      throw explainKafkaError(error, context);
    } finally {
      await producer.disconnect().catch(() => undefined);
    }
  }
}
