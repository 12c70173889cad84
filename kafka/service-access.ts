// What the scoring service needs from a secured cluster, derived from its config: the principal
// it connects as, the topics it reads and writes, its consumer group and, for exactly-once, the
// prefix of its transactional ids — for the pre-flight check and for the messages that name a
// missing ACL (docs/security.md has the same list as kafka-acls.sh commands).
import type { ConnectionOptions } from 'node:tls';
import type { ResolvedConfig } from '../src/config/resolve-config.ts';
import { retryTiers } from '../src/config/retry-tiers.ts';
import { threadTopics } from '../src/config/thread-topics.ts';
import type { ThreadTopics } from '../src/config/thread-topics.ts';
import { rescoreTopic } from '../src/config/rescore-topic.ts';
import { transactionalIdPrefix } from './transactional-kafka.ts';
import { aclPrincipalOf, describePrincipal, settingSecrets } from './kafka-access-error.ts';
import type { AccessContext } from './kafka-access-error.ts';
import type { KafkaNeeds } from './kafka-preflight.ts';
import { kafkaClientSecurity } from './kafka-security.ts';

export function serviceAccess(config: ResolvedConfig, options: { createRunsTopic?: boolean | undefined }): { context: AccessContext; needs: KafkaNeeds } {
  const { topics } = config;
  const outputs = [topics.results, topics.deadLetter, ...(topics.decisions === undefined ? [] : [topics.decisions])];
  const exactlyOnce = config.delivery === 'exactly-once';
  return {
    context: {
      brokers: config.kafka.brokers,
      principal: describePrincipal(config.kafka),
      ...optionalPrincipal(aclPrincipalOf(config.kafka)),
      secrets: settingSecrets(config.kafka),
      topics: [
        { topic: topics.runs, operations: 'READ' },
        ...outputs.map((topic) => ({ topic, operations: 'WRITE (and CREATE while it does not exist)' })),
        ...retryTiers(config).map((tier) => ({ topic: tier.topic, operations: 'READ and WRITE (and CREATE while it does not exist)' })),
        ...threadTopicNeeds(threadTopics(config)),
        ...[rescoreTopic(config)].flatMap((topic) => (topic === undefined ? [] : [{ topic, operations: 'READ (and CREATE while it does not exist): re-scores on feedback' }])),
      ],
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

function threadTopicNeeds(topics: ThreadTopics | undefined): Array<{ topic: string; operations: string }> {
  if (topics === undefined) return [];
  const readWrite = 'READ and WRITE (and CREATE while it does not exist): thread scorers';
  return [
    { topic: topics.byThread, operations: readWrite },
    { topic: topics.state, operations: readWrite },
    { topic: topics.latestScores, operations: 'WRITE (and CREATE while it does not exist): thread scorers' },
  ];
}

function optionalPrincipal(aclPrincipal: string | undefined): { aclPrincipal?: string } {
  return aclPrincipal === undefined ? {} : { aclPrincipal };
}

/** kafkajs' `ssl` as Node TLS options: `true` is the defaults; off is nothing to check. */
export function tlsOptions(ssl: ConnectionOptions | boolean | undefined): ConnectionOptions | undefined {
  if (ssl === undefined || ssl === false) return undefined;
  return ssl === true ? {} : ssl;
}
