// The feedback loop's roles against a secured broker of this file's own (TLS with a private CA,
// SCRAM users, the StandardAuthorizer denying whatever no ACL allows), each holding exactly its
// ACLs from kafka/acl-roles.ts (docs/security.md): the feedback join (agreementAcls) joins a
// thumbs-down to its score record, publishes the pair, dead-letters bad feedback and asks for a
// re-score; the scoring service with re-scores on feedback (serviceAcls with the rescore topic)
// reads the request, reads the run event back by its position (group-less) and publishes the
// re-score. Neither makes a group but the service's own.
import pino from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { SecureBrokerHandle } from '../../../local/kafka/secure-broker.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import type { FeedbackRecord } from '../../../src/kit/contracts/feedback-record.ts';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { startAgreementJoin } from '../../../service/agreement-join.ts';
import { createKafkaEdge } from '../../../kafka/kafka-edge.ts';
import { startService } from '../../../service/start-service.ts';
import { uniqueName } from '../../helpers/kafka.ts';
import { readAll } from '../../helpers/read-all.ts';
import { testRun } from '../../helpers/runs.ts';
import { adminKafka, createTopicsAsAdmin, grantAcls, testRoleGrants, useSecureBroker } from '../../helpers/secure-broker.ts';

const secureBroker = useSecureBroker(['svc-rescore', 'agreement']);

async function publishAsAdmin(broker: SecureBrokerHandle, topic: string, messages: Array<{ key: string; value: string }>): Promise<void> {
  const producer = adminKafka(broker).producer();
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages });
  } finally {
    await producer.disconnect();
  }
}

async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function groupsStartingWith(broker: SecureBrokerHandle, prefix: string): Promise<string[]> {
  const admin = adminKafka(broker).admin();
  await admin.connect();
  try {
    return (await admin.listGroups()).groups.map((group) => group.groupId).filter((groupId) => groupId.startsWith(prefix));
  } finally {
    await admin.disconnect();
  }
}

describe('the feedback loop with exactly its ACLs', () => {
  it('the join asks for a re-score of a thumbs-down and the service scores it again, each as its own role', { timeout: 180_000 }, async () => {
    const broker = secureBroker();
    const runs = uniqueName('runs');
    const topics = { runs, results: uniqueName('scores'), deadLetter: uniqueName('dlq'), rescore: `${runs}-rescore` };
    const feedbackTopic = uniqueName('feedback');
    const feedbackTopics = { feedbackTopic, agreementsTopic: uniqueName('agreements'), deadLetterTopic: `${feedbackTopic}-dlq` };
    await createTopicsAsAdmin(broker, [...Object.values(topics), ...Object.values(feedbackTopics)]);
    const groupId = uniqueName('svc-rescore');
    const topology = { topics: { ...topics, feedback: feedbackTopics.feedbackTopic, agreements: feedbackTopics.agreementsTopic }, rescore: true };
    await grantAcls(broker, 'User:svc-rescore', testRoleGrants('service', topology, { groupId, delivery: 'at-least-once' }));
    await grantAcls(broker, 'User:agreement', testRoleGrants('agreement', topology));

    const judged = createScorer({ id: 'judged', description: 'passes every run' }).generateScore(() => 0.9);
    const config = resolveConfig({
      kafka: { brokers: broker.brokers, ssl: { ca: [broker.caPem] }, sasl: broker.sasl('svc-rescore') as never },
      groupId,
      topics,
      retries: { enabled: false },
      scorers: [{ scorer: judged, version: '1', rescoreOn: ['thumbs-down'] }],
    });
    const service = await startService({ config, logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), consumer: { commitIntervalMs: 200 } });
    onTestFinished(async () => {
      await service.stop({ timeoutMs: 5_000 });
    });
    const agreementEdge = createKafkaEdge({ clientId: 'scorestream-test-agreement', brokers: broker.brokers, ssl: { ca: [broker.caPem] }, sasl: broker.sasl('agreement') as never });
    onTestFinished(() => agreementEdge.close());
    const join = await startAgreementJoin({ edge: agreementEdge, ...feedbackTopics, resultsTopic: topics.results, rescoreTopic: topics.rescore, windowMs: 3_600_000, ttlMs: 600_000, flushIntervalMs: 100 });
    let joinStopped = false;
    onTestFinished(async () => {
      if (!joinStopped) await join.stop();
    });

    await publishAsAdmin(broker, topics.runs, [{ key: 'run-s', value: JSON.stringify(testRun({ runId: 'run-s' })) }]);
    await until('the score read by the join', () => join.counters.scoresRead === 1);
    const feedback: FeedbackRecord = { schemaVersion: 1, feedbackId: 'fb-secure', target: { type: 'run', runId: 'run-s' }, source: 'end_user', name: 'thumbs', value: false, submittedAt: new Date().toISOString() };
    await publishAsAdmin(broker, feedbackTopics.feedbackTopic, [{ key: 'run-s', value: JSON.stringify(feedback) }, { key: 'run-s', value: '{not feedback' }]);

    const kafka = adminKafka(broker);
    await until('the re-score', async () => (await readAll<ScoreRecord>(topics.results, { isolation: 'read_uncommitted', kafka })).some((record) => record.rescore !== undefined));
    const records = await readAll<ScoreRecord>(topics.results, { isolation: 'read_uncommitted', kafka });
    expect(records.map((record) => [record.runId, record.scorerId, record.rescore?.feedbackId])).toEqual([
      ['run-s', 'judged', undefined],
      ['run-s', 'judged', 'fb-secure'],
    ]);
    expect(Object.fromEntries(service.stats.rescores)).toEqual({ admitted: 1 });
    expect(join.counters).toMatchObject({ pairsPublished: 1, rescoresRequested: 1 });
    await until('the dead letter', async () => (await readAll(feedbackTopics.deadLetterTopic, { isolation: 'read_uncommitted', kafka })).length === 1);
    expect((await readAll(feedbackTopics.agreementsTopic, { isolation: 'read_uncommitted', kafka })).length).toBeGreaterThanOrEqual(1);

    // Both read group-less but the service's own consumer group: the join's reads and the run's read-back made no group.
    await join.stop();
    joinStopped = true;
    // (The groups this test's own reader made, read-all-*, aside.)
    expect((await groupsStartingWith(broker, '')).filter((id) => !id.startsWith('read-all-'))).toEqual([groupId]);
  });
});
