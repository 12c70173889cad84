// What the scoring service (or a replay) needs from a secured cluster, derived from its config's
// topology (src/engine/topology/): the principal it connects as, the topics its role reads and writes,
// its consumer group and, for exactly-once, the prefix of its transactional ids — for the
// pre-flight check and for the messages that name a missing ACL (docs/security.md prints the same
// table as kafka-acls.sh commands, kafka/acl-roles.ts).
import type { ConnectionOptions } from 'node:tls';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import type { Role } from '../src/engine/topology/topic-entry.ts';
import { topicsOf, topologyOfConfig } from '../src/engine/topology/topology.ts';
import { transactionalIdPrefix } from './transactional-kafka.ts';
import { aclPrincipalOf, describePrincipal, settingSecrets } from './kafka-access-error.ts';
import type { AccessContext } from './kafka-access-error.ts';
import type { KafkaNeeds } from './kafka-preflight.ts';
import { kafkaClientSecurity } from './kafka-security.ts';

/** The topics `role` touches with what it needs on each, in the words of the messages ('READ and WRITE (and CREATE while it does not exist)'). */
export function topicNeedsOf(config: ResolvedConfig, role: Role): Array<{ topic: string; operations: string }> {
  return topicsOf(topologyOfConfig(config), role).map((entry) => {
    const access = entry.access[role]!;
    return { topic: entry.name, operations: `${access.operations.map((operation) => operation.toUpperCase()).join(' and ')}${access.creates ? ' (and CREATE while it does not exist)' : ''}` };
  });
}

export function serviceAccess(config: ResolvedConfig, options: { createRunsTopic?: boolean | undefined; role?: 'service' | 'replay' }): { context: AccessContext; needs: KafkaNeeds } {
  const { topics } = config;
  const exactlyOnce = config.delivery === 'exactly-once';
  return {
    context: {
      brokers: config.kafka.brokers,
      principal: describePrincipal(config.kafka),
      ...optionalPrincipal(aclPrincipalOf(config.kafka)),
      secrets: settingSecrets(config.kafka),
      topics: topicNeedsOf(config, options.role ?? 'service'),
      group: config.groupId,
      ...(exactlyOnce ? { transactionalIdPrefix: transactionalIdPrefix(config.groupId) } : {}),
    },
    needs: {
      tls: tlsOptions(kafkaClientSecurity(config.kafka).ssl),
      existingTopics: options.createRunsTopic === true ? [] : [topics.runs],
      group: config.groupId,
      ...(exactlyOnce ? { transactionalIdPrefix: transactionalIdPrefix(config.groupId) } : {}),
    },
  };
}

function optionalPrincipal(aclPrincipal: string | undefined): { aclPrincipal?: string } {
  return aclPrincipal === undefined ? {} : { aclPrincipal };
}

/** kafkajs' `ssl` as Node TLS options: `true` is the defaults; off is nothing to check. */
export function tlsOptions(ssl: ConnectionOptions | boolean | undefined): ConnectionOptions | undefined {
  if (ssl === undefined || ssl === false) return undefined;
  return ssl === true ? {} : ssl;
}
