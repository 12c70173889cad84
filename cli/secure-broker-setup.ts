// What `scorestream kafka start --secure` does once its secured broker answers: the default topics
// exist and each role's user holds exactly its ACLs (kafka/acl-roles.ts, docs/security.md), so
// the service, the producer SDK, tail, the dashboard and a replay can connect as they would to a
// managed cluster. The service's grants include the thread topics (the example config binds thread
// scorers), which are created here too: the service holds no CREATE. Idempotent: topics that exist are kept, ACLs granted again change nothing.
// Returns the lines telling the user how to connect — paths and user names, never a password.
import type { KafkaConfig } from 'kafkajs';
import { CLIENT_CERTIFICATE_NAME, quietKafka, securityMaterialsFile } from '../local/kafka/index.ts';
import type { SecurityMaterials } from '../local/kafka/index.ts';
import { agreementAcls, dashboardAcls, producerAcls, replayAcls, serviceAcls, tailAcls, toKafkajsAcls } from '../kafka/acl-roles.ts';
import type { AclGrant } from '../kafka/acl-roles.ts';
import { ensureTopics } from '../kafka/ensure-topics.ts';
import { replaysTopicSpec } from '../service/replay-state.ts';
import { DEFAULT_TOPICS, DEFAULTS, DEMO_DECISIONS_TOPIC } from '../src/config/defaults.ts';
import { retryTiers } from '../src/config/retry-tiers.ts';
import { threadTopicsFor } from '../src/config/thread-topics.ts';
import { DEFAULT_AGREEMENTS_TOPIC } from '../src/contracts/agreement-record.ts';
import { DEFAULT_FEEDBACK_TOPIC } from '../src/contracts/feedback-record.ts';

/** Where replays fix their ranges, with the default runs topic (`{runs}-replays`). */
const replaysTopic = `${DEFAULT_TOPICS.runs}${DEFAULTS.replaysTopicSuffix}`;

/** The service's retry tiers with the default runs topic and delays (`{runs}-retry-10s`, …; retries are on by default). */
const retryTierTopics = retryTiers({ topics: { retry: `${DEFAULT_TOPICS.runs}${DEFAULTS.retryTopicSuffix}` }, retries: { enabled: true, delaysMs: DEFAULTS.retryDelaysMs } }).map((tier) => tier.topic);

/** The thread topics with the default runs topic (`{runs}-by-thread`, `{runs}-thread-state`, `{runs}-thread-scores`). */
const threadTopics = threadTopicsFor(DEFAULT_TOPICS.runs);

/** Where the feedback join asks for re-scores, with the default runs topic (`{runs}-rescore`). */
const rescoreTopic = `${DEFAULT_TOPICS.runs}${DEFAULTS.rescoreTopicSuffix}`;

/** The feedback join's topics by default (docs/feedback.md): the feedback, its dead letters, the agreements. */
const feedbackTopics = { feedbackTopic: DEFAULT_FEEDBACK_TOPIC, deadLetterTopic: `${DEFAULT_FEEDBACK_TOPIC}-dlq`, agreementsTopic: DEFAULT_AGREEMENTS_TOPIC };

export function secureRoleGrants(): Array<{ principal: string; grants: AclGrant[] }> {
  // The service's grants cover re-scores on feedback and thread scorers, so a config with `rescoreOn` or `level: 'thread'` runs as it is.
  const topics = { ...DEFAULT_TOPICS, decisions: DEMO_DECISIONS_TOPIC, retryTiers: retryTierTopics, rescore: rescoreTopic, replays: replaysTopic, threads: threadTopics };
  return [
    { principal: 'User:scorestream', grants: serviceAcls({ topics, groupId: DEFAULTS.groupId, delivery: 'exactly-once' }) },
    { principal: 'User:producer', grants: producerAcls({ runsTopic: topics.runs }) },
    { principal: `User:${CLIENT_CERTIFICATE_NAME}`, grants: producerAcls({ runsTopic: topics.runs }) },
    { principal: 'User:tail', grants: tailAcls({ resultsTopic: topics.results }) },
    { principal: 'User:dashboard', grants: dashboardAcls({ resultsTopic: topics.results, decisionsTopic: DEMO_DECISIONS_TOPIC, agreementsTopic: feedbackTopics.agreementsTopic, latestScoresTopic: threadTopics.latestScores }) },
    { principal: 'User:agreement', grants: agreementAcls({ ...feedbackTopics, resultsTopic: topics.results, rescoreTopic }) },
    { principal: 'User:replay', grants: replayAcls({ topics, groupId: DEFAULTS.groupId, delivery: 'at-least-once' }) },
  ];
}

export async function setUpSecureRoles(options: { brokers: string[]; mtlsBrokers: string[]; directory: string; materials: SecurityMaterials; admin: Pick<KafkaConfig, 'ssl' | 'sasl'> }): Promise<string[]> {
  const kafka = quietKafka({ clientId: 'scorestream-secure-setup', brokers: options.brokers, ...options.admin });
  await ensureTopics(kafka, [
    ...[DEFAULT_TOPICS.runs, DEFAULT_TOPICS.results, DEFAULT_TOPICS.deadLetter, DEMO_DECISIONS_TOPIC, ...retryTierTopics, rescoreTopic, feedbackTopics.feedbackTopic, feedbackTopics.deadLetterTopic].map((topic) => ({ topic })),
    { topic: feedbackTopics.agreementsTopic, config: { 'cleanup.policy': 'compact' } },
    replaysTopicSpec(replaysTopic),
  ]);
  // After the runs and results topics: the thread topics mirror their partitions (service/start-service.ts creates them alike).
  await ensureTopics(kafka, [
    { topic: threadTopics.byThread, partitionsLike: DEFAULT_TOPICS.runs },
    { topic: threadTopics.state, partitionsLike: DEFAULT_TOPICS.runs, config: { 'cleanup.policy': 'compact' } },
    { topic: threadTopics.latestScores, partitionsLike: DEFAULT_TOPICS.results, config: { 'cleanup.policy': 'compact' } },
  ]);
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createAcls({ acl: secureRoleGrants().flatMap(({ principal, grants }) => toKafkajsAcls(principal, grants)) as never });
  } finally {
    await admin.disconnect();
  }
  const { materials } = options;
  return [
    `topics ${DEFAULT_TOPICS.runs}, ${DEFAULT_TOPICS.results}, ${DEFAULT_TOPICS.deadLetter}, ${DEMO_DECISIONS_TOPIC}, ${retryTierTopics.join(', ')}, ${rescoreTopic}, ${replaysTopic}, ${threadTopics.byThread}, ${threadTopics.state}, ${threadTopics.latestScores}, ${feedbackTopics.feedbackTopic}, ${feedbackTopics.deadLetterTopic}, ${feedbackTopics.agreementsTopic}; users scorestream, producer, tail, dashboard, agreement, replay hold the ACLs of docs/security.md`,
    `passwords (and admin's, for setup only): ${securityMaterialsFile(options.directory)}`,
    `the service: KAFKA_BROKERS=${options.brokers.join(',')} KAFKA_SSL_CA_FILE=${materials.caCertificate} KAFKA_SASL_MECHANISM=scram-sha-512 KAFKA_SASL_USERNAME=scorestream KAFKA_SASL_PASSWORD=<users.scorestream of that file>`,
    `mutual TLS (as User:${CLIENT_CERTIFICATE_NAME}, the producer's ACLs): KAFKA_BROKERS=${options.mtlsBrokers.join(',')} KAFKA_SSL_CA_FILE=${materials.caCertificate} KAFKA_SSL_CERT_FILE=${materials.clientCertificate} KAFKA_SSL_KEY_FILE=${materials.clientKey}`,
  ];
}
