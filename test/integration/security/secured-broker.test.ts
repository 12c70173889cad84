// Scorestream against a secured broker of this file's own (TLS with a private CA, SCRAM-SHA-512/256
// and PLAIN users, mutual TLS, the StandardAuthorizer denying whatever no ACL allows): each role
// runs with exactly the ACLs of kafka/acl-roles.ts (docs/security.md) and nothing more, and each
// misconfiguration — wrong password, unknown CA, hostname mismatch, a missing ACL, no client
// certificate — ends with exit 2 and a message naming what to fix, with no secret in the output.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createRunPublisher } from '../../../producers/run-publisher.ts';
import { toKafkajsAcls } from '../../../kafka/acl-roles.ts';
import type { DeliveryMode } from '../../../src/engine/config/config-types.ts';
import { KafkaAccessError } from '../../../kafka/kafka-access-error.ts';
import { CLIENT_CERTIFICATE_NAME } from '../../../local/kafka/secure-materials.ts';
import type { SecureBrokerHandle } from '../../../local/kafka/secure-broker.ts';
import { uniqueName } from '../../helpers/kafka.ts';
import { readAll } from '../../helpers/read-all.ts';
import { testRun } from '../../helpers/runs.ts';
import { adminKafka, createTopicsAsAdmin, grantAcls, publishRunsAsProducer, revokeAcls, testRoleGrants, useSecureBroker, waitForRecords } from '../../helpers/secure-broker.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';
import type { ServiceProcess } from '../../helpers/service-process.ts';
import type { ServiceTopics } from '../../helpers/service.ts';
import { DEFAULT_TOPICS, DEFAULTS, DEMO_DECISIONS_TOPIC } from '../../../src/engine/config/defaults.ts';
import { setUpSecureRoles } from '../../../cli/secure-broker-setup.ts';
import { retryTiers } from '../../../src/engine/topology/retry-tiers.ts';
import { threadTopicsFor } from '../../../src/engine/topology/thread-topics.ts';
import { createTopicsWithLeaders } from '../../../kafka/create-topics-with-leaders.ts';
import { turn } from '../service/thread-helpers.ts';
import type { ThreadScore } from '../service/thread-helpers.ts';

const users = ['svc', 'svc-threads', 'scorestream', 'svc-eos', 'svc-no-txn', 'svc-no-group', 'producer', 'tail', 'tail-no-group', 'nobody'] as const;
const secureBroker = useSecureBroker(users);
const cli = fileURLToPath(new URL('../../../cli/main.ts', import.meta.url));
const threadsConfig = fileURLToPath(new URL('../../fixtures/threads.config.ts', import.meta.url));
/** The fixture config's two scorers: one record each per run. */
const scorersPerRun = 2;

/** The service's topics, its retry tiers (`{runs}-retry-10s`, …: retries are on by default) included. */
async function useSecureTopics(broker: SecureBrokerHandle): Promise<ServiceTopics & { retryTiers: string[] }> {
  const runs = uniqueName('runs');
  const retryTierTopics = retryTiers({ topics: { retry: `${runs}-retry` }, retries: { enabled: true, delaysMs: DEFAULTS.retryDelaysMs } }).map((tier) => tier.topic);
  const topics = { runs, results: uniqueName('scores'), deadLetter: uniqueName('dlq'), decisions: uniqueName('decisions'), retryTiers: retryTierTopics };
  await createTopicsAsAdmin(broker, [topics.runs, topics.results, topics.deadLetter, topics.decisions, ...retryTierTopics]);
  return topics;
}

/** The service's grants for these topics, its retry tiers included (retries are on by default). */
const serviceGrants = (topics: ServiceTopics, groupId: string, delivery: DeliveryMode, features: { threads?: boolean } = {}) =>
  testRoleGrants('service', { topics: { runs: topics.runs, results: topics.results, deadLetter: topics.deadLetter, decisions: topics.decisions }, retries: true, ...features }, { groupId, delivery });
const producerGrants = (runs: string) => testRoleGrants('producer', { topics: { runs } });
const tailGrants = (topics: ServiceTopics) => testRoleGrants('tail', { topics: { runs: topics.runs, results: topics.results } });

/** The service as a child process, connecting as `user` over SASL_SSL with the CA from a file. */
function spawnSecureService(broker: SecureBrokerHandle, topics: ServiceTopics, groupId: string, user: string, env: Record<string, string> = {}, config?: string): ServiceProcess {
  const sasl = broker.sasl(user);
  return spawnService({
    topics,
    groupId,
    ...(config === undefined ? {} : { config }),
    env: {
      KAFKA_BROKERS: broker.brokers.join(','),
      KAFKA_SASL_MECHANISM: sasl.mechanism,
      KAFKA_SASL_USERNAME: sasl.username,
      KAFKA_SASL_PASSWORD: sasl.password,
      KAFKA_SSL_CA_FILE: broker.materials.caCertificate,
      SCORESTREAM_TOPIC_DECISIONS: topics.decisions,
      ...env,
    },
  });
}


/** Turns `indexes` of the conversation `secure-thread` (its messages carry the thread id), through the producer SDK. */
async function publishConversation(broker: SecureBrokerHandle, topic: string, indexes: number[]): Promise<void> {
  const publisher = createRunPublisher({ brokers: broker.brokers, topic, ssl: { ca: [broker.caPem] }, sasl: broker.sasl('producer', 'plain') as never });
  try {
    await publisher.publish(indexes.map((index) => JSON.parse(String(turn('secure-thread', index).value))));
  } finally {
    await publisher.close();
  }
}


async function stopService(service: ServiceProcess): Promise<void> {
  service.child.kill('SIGTERM');
  expect((await service.exited).code).toBe(0);
}

/** The whole output of a process that is expected to end by itself (a refused start). */
async function endedWith(service: ServiceProcess): Promise<{ code: number | null; output: string; lastError: string | undefined }> {
  const { code } = await service.exited;
  if (process.env.DEBUG_SECURED) console.error(service.output.join('\n'));
  return { code, output: service.output.join('\n'), lastError: service.errorOutput.at(-1) };
}

function expectNoSecret(output: string, broker: SecureBrokerHandle): void {
  for (const password of Object.values(broker.materials.users)) expect(output).not.toContain(password);
  expect(output).not.toContain(broker.clientKeyPem.split('\n')[1]);
}

function runCli(args: string[], env: Record<string, string>): { output: string[]; exited: Promise<number | null>; kill: () => void } {
  const output: string[] = [];
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--disable-warning=TimeoutNegativeWarning', cli, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { output, exited, kill: () => child.kill('SIGTERM') };
}

describe('each role with exactly its ACLs', () => {
  it('the service (at-least-once, SCRAM-SHA-512) scores runs the producer SDK (PLAIN) published, and tail shows them', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const groupId = uniqueName('svc');
    await grantAcls(broker, 'User:svc', serviceGrants(topics, groupId, 'at-least-once'));
    await grantAcls(broker, 'User:producer', producerGrants(topics.runs));
    await grantAcls(broker, 'User:tail', tailGrants(topics));

    const service = spawnSecureService(broker, topics, groupId, 'svc');
    await waitForLog(service, /scorestream is consuming/);
    const runIds = ['secure-1', 'secure-2', 'secure-3'];
    await publishRunsAsProducer(broker, topics.runs, runIds);
    const records = await waitForRecords(broker, topics.results, runIds.length * scorersPerRun, 'read_uncommitted');
    expect(new Set(records.map((record) => record.runId))).toEqual(new Set(runIds));

    const tail = broker.sasl('tail', 'scram-sha-256');
    const tailing = runCli(['tail', '--topic', topics.results, '--from-beginning', '--json'], {
      KAFKA_BROKERS: broker.brokers.join(','),
      KAFKA_SASL_MECHANISM: tail.mechanism,
      KAFKA_SASL_USERNAME: tail.username,
      KAFKA_SASL_PASSWORD: tail.password,
      // PEM text in the environment, line breaks escaped as secret stores hand them over.
      KAFKA_SSL_CA: broker.caPem.replaceAll('\n', '\\n'),
    });
    const deadline = Date.now() + 30_000;
    while (tailing.output.filter((line) => line.includes('"runId"')).length < runIds.length * scorersPerRun && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(tailing.output.filter((line) => line.includes('"runId"'))).toHaveLength(runIds.length * scorersPerRun);
    tailing.kill();
    expect(await tailing.exited).toBe(0);

    await stopService(service);
    expectNoSecret(service.output.join('\n') + tailing.output.join('\n'), broker);
  });

  it('the service (exactly-once) scores runs with its transactional-id ACL, and exits 2 naming it when that is missing', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const groupId = uniqueName('svc-eos');
    await grantAcls(broker, 'User:svc-eos', serviceGrants(topics, groupId, 'exactly-once'));
    await grantAcls(broker, 'User:producer', producerGrants(topics.runs));
    const service = spawnSecureService(broker, topics, groupId, 'svc-eos', { SCORESTREAM_DELIVERY: 'exactly-once' });
    await waitForLog(service, /scorestream is consuming/);
    await publishRunsAsProducer(broker, topics.runs, ['eos-1', 'eos-2']);
    const records = await waitForRecords(broker, topics.results, 2 * scorersPerRun, 'read_committed');
    expect(new Set(records.map((record) => record.runId))).toEqual(new Set(['eos-1', 'eos-2']));
    await stopService(service);

    const otherGroup = uniqueName('svc-no-txn');
    await grantAcls(broker, 'User:svc-no-txn', serviceGrants(topics, otherGroup, 'at-least-once'));
    const refused = await endedWith(spawnSecureService(broker, topics, otherGroup, 'svc-no-txn', { SCORESTREAM_DELIVERY: 'exactly-once' }));
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('transactional ids');
    expect(refused.output).toContain(`--transactional-id '${otherGroup}-' --resource-pattern-type prefixed`);
    expectNoSecret(refused.output, broker);
  });
});

describe('a missing ACL stops the start with exit 2 and says which', () => {
  it('no READ on the consumer group', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const groupId = uniqueName('svc-no-group');
    await grantAcls(broker, 'User:svc-no-group', serviceGrants(topics, groupId, 'at-least-once').filter((grant) => grant.resource !== 'group'));
    const refused = await endedWith(spawnSecureService(broker, topics, groupId, 'svc-no-group'));
    expect(refused.code).toBe(2);
    expect(refused.output).toContain(`consumer group '${groupId}'`);
    expect(refused.output).toContain(`--allow-principal User:svc-no-group --operation Read --group ${groupId}`);
  });

  it('no ACL at all: the runs topic is not visible', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const refused = await endedWith(spawnSecureService(broker, topics, uniqueName('nobody'), 'nobody'));
    expect(refused.code).toBe(2);
    expect(refused.output).toContain(`user 'nobody' (SCRAM-SHA-512) no topic '${topics.runs}'`);
    expect(refused.output).toContain(`READ on topic '${topics.runs}'`);
  });

  it('output topics that do not exist and may not be created', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const missing = { ...topics, results: uniqueName('missing-scores') };
    const groupId = uniqueName('svc');
    await grantAcls(broker, 'User:svc', serviceGrants(missing, groupId, 'at-least-once'));
    const refused = await endedWith(spawnSecureService(broker, missing, groupId, 'svc'));
    expect(refused.code).toBe(2);
    expect(refused.output).toContain(`WRITE (and CREATE while it does not exist) on topic '${missing.results}'`);
    // The last word on stderr is ours, not kafkajs' bare "Topic creation errors" (its log lines go
    // to stdout, which the pipes interleave with stderr in any order).
    expect(refused.lastError).toMatch(/^scorestream: Kafka \(.*\) denied user 'svc'/);
  });

  it('the producer SDK without WRITE on the runs topic', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const publisher = createRunPublisher({ brokers: broker.brokers, topic: topics.runs, ssl: { ca: [broker.caPem] }, sasl: broker.sasl('nobody') as never });
    const error = await publisher.publish(testRun({ runId: 'denied' })).then(() => undefined, (thrown: unknown) => thrown);
    await publisher.close();
    expect(KafkaAccessError.isInstance(error)).toBe(true);
    // Its idempotent producer is refused first: a producer id needs WRITE on some topic.
    expect((error as KafkaAccessError).reason).toBe('cluster_authorization');
    expect((error as Error).message).toContain(`grant WRITE on topic '${topics.runs}'`);
    expectNoSecret((error as Error).message, broker);
  });

  it('tail without READ on the results topic (it needs no group: it reads group-less)', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    expect(tailGrants(topics).filter((grant) => grant.resource === 'group')).toEqual([]);
    await grantAcls(broker, 'User:tail-no-group', tailGrants({ ...topics, results: uniqueName('other-results') }));
    const sasl = broker.sasl('tail-no-group');
    const tailing = runCli(['tail', '--topic', topics.results], {
      KAFKA_BROKERS: broker.brokers.join(','),
      KAFKA_SASL_MECHANISM: sasl.mechanism,
      KAFKA_SASL_USERNAME: sasl.username,
      KAFKA_SASL_PASSWORD: sasl.password,
      KAFKA_SSL_CA_FILE: broker.materials.caCertificate,
    });
    expect(await tailing.exited).toBe(2);
    expect(tailing.output.join('\n')).toContain(`READ on topic '${topics.results}'`);
  });
});

describe('an ACL revoked while the service runs', () => {
  it('ends the service with exit 2 and the ACL to grant, not a restart loop', { timeout: 60_000 }, async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const groupId = uniqueName('svc-revoked');
    const grants = serviceGrants(topics, groupId, 'at-least-once');
    await grantAcls(broker, 'User:svc', grants);
    const service = spawnSecureService(broker, topics, groupId, 'svc');
    await waitForLog(service, /scorestream is consuming/);
    const admin = adminKafka(broker).admin();
    await admin.connect();
    try {
      await admin.deleteAcls({ filters: toKafkajsAcls('User:svc', grants.filter((grant) => grant.resource === 'topic' && grant.name === topics.runs)) as never });
    } finally {
      await admin.disconnect();
    }
    const ended = await endedWith(service);
    expect(ended.code).toBe(2);
    expect(ended.output).toContain(`denied user 'svc' (SCRAM-SHA-512) access to a topic: it needs READ on topic '${topics.runs}'`);
  });
});

describe('thread scorers on the secured broker', () => {
  it('score threads (exactly-once) with the topics and ACLs `scorestream kafka start --secure` sets up', async () => {
    const broker = secureBroker();
    // What `kafka start --secure` does once its broker answers: the default topics, each role's ACLs.
    await setUpSecureRoles({ brokers: broker.brokers, mtlsBrokers: broker.mtlsBrokers, directory: 'unused', materials: broker.materials });
    const topics = { ...DEFAULT_TOPICS, decisions: DEMO_DECISIONS_TOPIC };
    const service = spawnSecureService(broker, topics, DEFAULTS.groupId, 'scorestream', { SCORESTREAM_DELIVERY: 'exactly-once', FIXTURE_THREAD_IDLE_MS: '1500' }, threadsConfig);
    await waitForLog(service, /scorestream is consuming/);
    await publishConversation(broker, topics.runs, [1, 2]);
    // Two run scores and the thread's two (turn count, mean answer length).
    const records = await waitForRecords(broker, topics.results, 4, 'read_committed');
    expect(records.filter((record) => record.thread !== undefined).map((record) => [record.scorerId, (record.thread as ThreadScore['thread']).turns]).sort()).toEqual([
      ['run-score-mean', 2],
      ['turn-count', 2],
    ]);
    // And the latest-score view, which --secure created and lets the service write.
    const view = await waitForRecords(broker, threadTopicsFor(topics.runs).latestScores, 2, 'read_committed');
    expect(view.map((record) => record.scorerId).sort()).toEqual(['run-score-mean', 'turn-count']);
    await stopService(service);
    expectNoSecret(service.output.join('\n'), broker);
  });

  it('score threads with exactly the ACLs of the service role, and a restore the service may not read is tried again until it may', { timeout: 120_000 }, async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const threads = threadTopicsFor(topics.runs);
    // Created ahead, as `scorestream kafka start --secure` does: the role holds no CREATE.
    const admin = adminKafka(broker).admin();
    await admin.connect();
    try {
      await createTopicsWithLeaders(admin, [{ topic: threads.byThread, numPartitions: 1, replicationFactor: 1 }, { topic: threads.state, numPartitions: 1, replicationFactor: 1, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }, { topic: threads.latestScores, numPartitions: 1, replicationFactor: 1, configEntries: [{ name: 'cleanup.policy', value: 'compact' }] }], { timeoutMs: 30_000 });
    } finally {
      await admin.disconnect();
    }
    const groupId = uniqueName('svc-threads');
    const grants = serviceGrants(topics, groupId, 'at-least-once', { threads: true });
    await grantAcls(broker, 'User:svc-threads', grants);
    await grantAcls(broker, 'User:producer', producerGrants(topics.runs));
    const environment = { FIXTURE_THREAD_IDLE_MS: '2000' };
    const turnCounts = async (count: number) => (await waitForRecords(broker, topics.results, count, 'read_uncommitted')).filter((record) => record.scorerId === 'turn-count') as unknown as ThreadScore[];

    const first = spawnSecureService(broker, topics, groupId, 'svc-threads', environment, threadsConfig);
    await waitForLog(first, /scorestream is consuming/);
    await publishConversation(broker, topics.runs, [1, 2]);
    // Two run scores and two thread scores (turn count, mean answer length) of version 1.
    const [v1] = await turnCounts(4);
    expect(v1).toMatchObject({ score: 2, thread: { id: 'secure-thread', version: 1, turns: 2, closedBy: 'idle' } });
    await stopService(first);

    // The changelog holds the thread; without READ on it, the next start cannot restore it.
    const readState = grants.filter((grant) => grant.resource === 'topic' && grant.name === threads.state).map((grant) => ({ ...grant, operations: ['Read' as const] }));
    await revokeAcls(broker, 'User:svc-threads', readState);
    const second = spawnSecureService(broker, topics, groupId, 'svc-threads', environment, threadsConfig);
    // Logged with what to grant, and tried again (the service keeps running).
    const failed = await waitForLog(second, /restoring the thread state failed; trying again/, 60_000);
    expect(failed).toContain(`denied user 'svc-threads' (SCRAM-SHA-512) access to a topic: it needs READ (to restore the thread state of a by-thread partition) on topic '${threads.state}'`);
    await publishConversation(broker, topics.runs, [3]);
    // The resumed turn waits for the restore: no version 2 while the state cannot be read.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    expect((await turnCounts(5)).map((score) => score.thread.version)).toEqual([1]);
    expect(second.child.exitCode).toBeNull();

    await grantAcls(broker, 'User:svc-threads', readState);
    // Restored with its two turns: version 2 is the whole conversation, superseding version 1.
    const scores = await turnCounts(7);
    expect(scores.map((score) => [score.thread.version, score.thread.turns])).toEqual([
      [1, 2],
      [2, 3],
    ]);
    expect(scores[1]!.thread).toMatchObject({ firstRunId: 'secure-thread-run-1', lastRunId: 'secure-thread-run-3', supersedes: v1!.thread.versionId });
    await waitForLog(second, /restored the thread state of a by-thread partition/);
    await stopService(second);
    expectNoSecret(first.output.join('\n') + second.output.join('\n'), broker);
  });
});

describe('a wrong connection setting stops the start with exit 2 and says which', () => {
  it('a wrong password: named, fast, and not printed', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const wrongPassword = 'not-the-password-of-svc';
    const started = Date.now();
    const refused = await endedWith(spawnSecureService(broker, topics, uniqueName('svc'), 'svc', { KAFKA_SASL_PASSWORD: wrongPassword }));
    expect(refused.code).toBe(2);
    expect(refused.output).toContain("rejected the SASL login of user 'svc' (SCRAM-SHA-512)");
    expect(refused.output).toContain('KAFKA_SASL_PASSWORD');
    expect(refused.output).not.toContain(wrongPassword);
    expectNoSecret(refused.output, broker);
    console.error(`[secured] wrong password refused after ${Date.now() - started} ms (process start included)`);
  });

  it('an unknown CA (TLS on, the private CA not given)', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const started = Date.now();
    const refused = await endedWith(spawnSecureService(broker, topics, uniqueName('svc'), 'svc', { KAFKA_SSL_CA_FILE: '', KAFKA_SSL: 'true' }));
    console.error(`[secured] unknown CA refused after ${Date.now() - started} ms (process start included)`);
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('signed by a CA this client does not trust');
    expect(refused.output).toContain('KAFKA_SSL_CA_FILE');
  });

  it('a hostname the certificate does not list', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const refused = await endedWith(spawnSecureService(broker, topics, uniqueName('svc'), 'svc', { KAFKA_SSL_SERVERNAME: 'kafka.wrong.example' }));
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('is not valid for the name this client connected to');
    expect(refused.output).toContain('kafka.wrong.example');
  });

  it('the mutual-TLS listener without a client certificate', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const refused = await endedWith(
      spawnService({ topics, groupId: uniqueName('svc'), env: { KAFKA_BROKERS: broker.mtlsBrokers.join(','), KAFKA_SSL_CA_FILE: broker.materials.caCertificate } }),
    );
    expect(refused.code).toBe(2);
    expect(refused.output).toContain('this listener requires mutual TLS');
    expect(refused.output).toContain('KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE');
  });

  it('the service over mutual TLS, its certificate and key from files, with exactly its ACLs', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const groupId = uniqueName('svc-mtls');
    await grantAcls(broker, `User:${CLIENT_CERTIFICATE_NAME}`, serviceGrants(topics, groupId, 'at-least-once'));
    await grantAcls(broker, 'User:producer', producerGrants(topics.runs));
    const service = spawnService({
      topics,
      groupId,
      env: {
        KAFKA_BROKERS: broker.mtlsBrokers.join(','),
        KAFKA_SSL_CA_FILE: broker.materials.caCertificate,
        KAFKA_SSL_CERT_FILE: broker.materials.clientCertificate,
        KAFKA_SSL_KEY_FILE: broker.materials.clientKey,
        SCORESTREAM_TOPIC_DECISIONS: topics.decisions,
      },
    });
    await waitForLog(service, /scorestream is consuming/);
    await publishRunsAsProducer(broker, topics.runs, ['mtls-service-1']);
    const records = await waitForRecords(broker, topics.results, scorersPerRun, 'read_uncommitted');
    expect(records.map((record) => record.runId)).toEqual(['mtls-service-1', 'mtls-service-1']);
    await stopService(service);
    expectNoSecret(service.output.join('\n'), broker);
  });

  it('a CA file that cannot be read', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const refused = await endedWith(spawnSecureService(broker, topics, uniqueName('svc'), 'svc', { KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' }));
    expect(refused.code).toBe(2);
    expect(refused.output).toContain("kafka.ssl.caFile: cannot read '/nonexistent/ca.pem' (ENOENT)");
  });
});

describe('mutual TLS', () => {
  it('the producer SDK publishes with a client certificate, whose CN is its principal', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    await grantAcls(broker, `User:${CLIENT_CERTIFICATE_NAME}`, producerGrants(topics.runs));
    const publisher = createRunPublisher({
      brokers: broker.mtlsBrokers,
      topic: topics.runs,
      ssl: { ca: [broker.caPem], cert: broker.clientCertificatePem, key: broker.clientKeyPem },
    });
    const report = await publisher.publish([testRun({ runId: 'mtls-1' }), testRun({ runId: 'mtls-2' })]);
    await publisher.close();
    expect(report.count).toBe(2);
    const runs = await readAll(topics.runs, { isolation: 'read_uncommitted', kafka: adminKafka(broker) });
    expect(runs.map((run) => run.runId).sort()).toEqual(['mtls-1', 'mtls-2']);
  });

  it('without a client certificate the listener refuses, and the error says to set one', async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const publisher = createRunPublisher({ brokers: broker.mtlsBrokers, topic: topics.runs, ssl: { ca: [broker.caPem] }, producerConfig: { retry: { retries: 1 } } });
    const error = await publisher.publish(testRun({ runId: 'no-cert' })).then(() => undefined, (thrown: unknown) => thrown);
    await publisher.close();
    expect(KafkaAccessError.isInstance(error)).toBe(true);
    expect((error as KafkaAccessError).reason).toBe('tls_client_certificate');
    expect((error as Error).message).toContain('KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE');
  });
});
