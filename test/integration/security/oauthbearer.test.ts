// OAUTHBEARER against a real broker (docs/security.md, OAuth): the secured broker of this file
// validates OIDC tokens (Kafka's OAuthBearerValidatorCallbackHandler, a JWKS file of the test's
// identity provider, an expected audience, and connections.max.reauth.ms so every connection
// logs in again within seconds); the service, a child process as `scorestream start` runs, gets
// its tokens from the test's token endpoint with the client credentials grant and runs with
// exactly the service role's ACLs for its token's subject. Tokens live 6 s: runs published
// across several lifetimes are all scored, once each, in both delivery modes, the token renewed
// as it goes, on either Kafka client; the producer SDK, `scorestream tail`, `replay`, `dashboard`,
// `monitor` and the feedback join, other roles, each log in as an OAuth client of their own with
// exactly their ACLs; an identity provider out for longer than a token lives stops nothing; a
// wrong client secret ends the start with exit 2, naming the mechanism and what to check, the
// secret nowhere in the output.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createKafkaEdge } from '../../../kafka/kafka-edge.ts';
import { createRunPublisher } from '../../../producers/run-publisher.ts';
import { testRun } from '../../helpers/runs.ts';
import { startAgreementJoin } from '../../../service/agreement-join.ts';
import { startMonitor } from '../../../service/monitor/start-monitor.ts';
import type { ScorestreamConfigInput } from '../../../src/engine/config/config-types.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { scoreRecord } from '../../helpers/dashboard-records.ts';
import type { DeliveryMode } from '../../../src/engine/config/config-types.ts';
import type { SecureBrokerHandle } from '../../../local/kafka/secure-broker.ts';
import { uniqueName } from '../../helpers/kafka.ts';
import { createOidcProvider } from '../../helpers/oidc-provider.ts';
import { readAll } from '../../helpers/read-all.ts';
import { adminKafka, createTopicsAsAdmin, grantAcls, publishRunsAsProducer, testRoleGrants, useSecureBroker, waitForRecords } from '../../helpers/secure-broker.ts';
import { spawnService, waitForLog } from '../../helpers/service-process.ts';
import type { ServiceProcess } from '../../helpers/service-process.ts';
import type { ServiceTopics } from '../../helpers/service.ts';
import { DEFAULTS } from '../../../src/engine/config/defaults.ts';
import { retryTiers } from '../../../src/engine/topology/retry-tiers.ts';

const secret = randomBytes(18).toString('base64url');
const tailSecret = randomBytes(18).toString('base64url');
const replaySecret = randomBytes(18).toString('base64url');
const dashboardSecret = randomBytes(18).toString('base64url');
const agreementSecret = randomBytes(18).toString('base64url');
const monitorSecret = randomBytes(18).toString('base64url');
const publisherSecret = randomBytes(18).toString('base64url');
const oidc = createOidcProvider(
  { 'scorestream-service': { secret, subject: 'svc-oauth' }, 'scorestream-tail': { secret: tailSecret, subject: 'tail-oauth' }, 'scorestream-replay': { secret: replaySecret, subject: 'replay-oauth' }, 'scorestream-dashboard': { secret: dashboardSecret, subject: 'dashboard-oauth' }, 'scorestream-agreement': { secret: agreementSecret, subject: 'agreement-oauth' }, 'scorestream-monitor': { secret: monitorSecret, subject: 'monitor-oauth' }, 'agent-publisher': { secret: publisherSecret, subject: 'producer-oauth' } },
  { lifetimeSeconds: 6 },
);
const fixtureConfig = fileURLToPath(new URL('../../fixtures/service.config.ts', import.meta.url));
const cli = fileURLToPath(new URL('../../../cli/main.ts', import.meta.url));
const secureBroker = useSecureBroker(['producer'], { oauth: { jwksUrl: oidc.jwksUrl, audience: oidc.audience, maxReauthMs: 5_000 } });
beforeAll(async () => {
  await oidc.start();
});
afterAll(async () => {
  await oidc.stop();
});

/** The fixture config's two scorers: one record each per run. */
const scorersPerRun = 2;

/** The service's topics, its retry tiers (retries are on by default) included. */
async function useTopics(broker: SecureBrokerHandle): Promise<ServiceTopics> {
  const runs = uniqueName('runs');
  const tiers = retryTiers({ topics: { retry: `${runs}-retry` }, retries: { enabled: true, delaysMs: DEFAULTS.retryDelaysMs } }).map((tier) => tier.topic);
  const topics = { runs, results: uniqueName('scores'), deadLetter: uniqueName('dlq'), decisions: uniqueName('decisions') };
  await createTopicsAsAdmin(broker, [...Object.values(topics), ...tiers]);
  return topics;
}

/** A role's login: OAUTHBEARER with its own client id and secret, over TLS with the broker's CA from a file. */
function oauthLogin(broker: SecureBrokerHandle, clientId: string, clientSecret: string): Record<string, string> {
  return {
    KAFKA_BROKERS: broker.brokers.join(','),
    KAFKA_SSL_CA_FILE: broker.materials.caCertificate,
    KAFKA_SASL_MECHANISM: 'oauthbearer',
    KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL: oidc.tokenEndpointUrl,
    KAFKA_SASL_OAUTHBEARER_CLIENT_ID: clientId,
    KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET: clientSecret,
  };
}

/** A `scorestream` command as a child process: its output lines as they come, its exit code. */
function runCli(args: string[], env: Record<string, string>): { lines: string[]; exited: Promise<number | null>; kill: (signal?: NodeJS.Signals) => void } {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', cli, ...args], { env: { ...process.env, OTEL_SDK_DISABLED: 'true', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => lines.push(...chunk.toString('utf8').split(/[\n\r]/).filter(Boolean));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { lines, exited, kill: (signal = 'SIGTERM') => child.kill(signal) };
}

/** The service as a child process logging in with OAUTHBEARER, the CA from a file. */
function spawnOAuthService(broker: SecureBrokerHandle, topics: ServiceTopics, groupId: string, delivery: DeliveryMode, clientSecret = secret, client: 'platformatic' | 'kafkajs' = 'platformatic'): ServiceProcess {
  return spawnService({
    topics,
    groupId,
    env: {
      ...oauthLogin(broker, 'scorestream-service', clientSecret),
      KAFKA_SASL_OAUTHBEARER_SCOPE: 'kafka',
      SCORESTREAM_TOPIC_DECISIONS: topics.decisions,
      SCORESTREAM_DELIVERY: delivery,
      SCORESTREAM_KAFKA_CLIENT: client,
    },
  });
}



describe('OAUTHBEARER with OIDC client credentials', () => {
  // kafkajs too: it does not log in again on the live connection (KAFKA_DEFAULTS.kafkajs says why);
  // the broker closes it when the session ends, and kafkajs reconnects with a fresh token.
  it.each([
    ['at-least-once', 'platformatic'],
    ['exactly-once', 'platformatic'],
    ['at-least-once', 'kafkajs'],
  ] as const)('scores every run once across several token lifetimes, %s on %s, with the service role\'s ACLs for the token\'s subject', async (delivery, client) => {
    const broker = secureBroker();
    const topics = await useTopics(broker);
    const groupId = uniqueName('svc-oauth');
    await grantAcls(broker, 'User:svc-oauth', testRoleGrants('service', { topics, retries: true }, { groupId, delivery }));
    await grantAcls(broker, 'User:producer', testRoleGrants('producer', { topics: { runs: topics.runs } }));
    const issuedBefore = oidc.issued;
    const service = spawnOAuthService(broker, topics, groupId, delivery, secret, client);
    try {
      await waitForLog(service, /scorestream is consuming/);
      const isolation = delivery === 'exactly-once' ? 'read_committed' : 'read_uncommitted';
      const first = Array.from({ length: 10 }, (_, index) => `oauth-${delivery}-a-${index}`);
      await publishRunsAsProducer(broker, topics.runs, first);
      expect((await waitForRecords(broker, topics.results, first.length * scorersPerRun, isolation)).length).toBe(first.length * scorersPerRun);
      // Two token lifetimes and more: every connection logs in again (max.reauth 5 s) with renewed tokens.
      await new Promise((resolve) => setTimeout(resolve, 14_000));
      const second = Array.from({ length: 10 }, (_, index) => `oauth-${delivery}-b-${index}`);
      await publishRunsAsProducer(broker, topics.runs, second);
      const records = await waitForRecords(broker, topics.results, (first.length + second.length) * scorersPerRun, isolation);
      const pairs = records.map((record) => `${String(record.runId)}|${String(record.scorerId)}`);
      expect(new Set(pairs).size).toBe(pairs.length);
      expect(new Set(records.map((record) => record.runId))).toEqual(new Set([...first, ...second]));
      // The first token, then renewals: at least one per lifetime that passed.
      expect(oidc.issued - issuedBefore).toBeGreaterThanOrEqual(3);
      expect(service.output.join('\n')).not.toContain(secret);
    } catch (error) {
      console.error(service.output.slice(-15).join('\n'));
      throw error;
    } finally {
      service.child.kill('SIGTERM');
      expect((await service.exited).code).toBe(0);
    }
  }, 180_000);

  it('the producer SDK, in the agent\'s process, publishes across several token lifetimes with the service\'s token settings and exactly the producer role\'s ACLs', async () => {
    const broker = secureBroker();
    const runs = uniqueName('runs');
    await createTopicsAsAdmin(broker, [runs]);
    await grantAcls(broker, 'User:producer-oauth', testRoleGrants('producer', { topics: { runs } }));
    const publisher = createRunPublisher({
      brokers: broker.brokers,
      topic: runs,
      ssl: { ca: [broker.caPem] },
      sasl: { mechanism: 'oauthbearer', tokenEndpointUrl: oidc.tokenEndpointUrl, clientId: 'agent-publisher', clientSecret: publisherSecret },
    });
    try {
      const first = ['oauth-sdk-a-1', 'oauth-sdk-a-2'];
      expect((await publisher.publish(first.map((runId) => testRun({ runId })))).count).toBe(2);
      // Past the broker's re-login deadline and the token's life: the connection is closed, and the publisher logs in afresh.
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      const second = ['oauth-sdk-b-1', 'oauth-sdk-b-2'];
      expect((await publisher.publish(second.map((runId) => testRun({ runId })))).count).toBe(2);
    } finally {
      await publisher.close();
    }
    const records = await waitForRecords(broker, runs, 4, 'read_uncommitted');
    expect(records.map((record) => record.runId).sort()).toEqual(['oauth-sdk-a-1', 'oauth-sdk-a-2', 'oauth-sdk-b-1', 'oauth-sdk-b-2']);
    expect(oidc.issuedTo('agent-publisher')).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it('scorestream tail, another role, reads the scores as its own OAuth client with exactly its ACLs', async () => {
    const broker = secureBroker();
    const topics = await useTopics(broker);
    const groupId = uniqueName('svc-oauth');
    await grantAcls(broker, 'User:svc-oauth', testRoleGrants('service', { topics, retries: true }, { groupId, delivery: 'at-least-once' }));
    await grantAcls(broker, 'User:producer', testRoleGrants('producer', { topics: { runs: topics.runs } }));
    await grantAcls(broker, 'User:tail-oauth', testRoleGrants('tail', { topics: { runs: topics.runs, results: topics.results } }));
    const service = spawnOAuthService(broker, topics, groupId, 'at-least-once');
    const runIds = ['oauth-tail-1', 'oauth-tail-2', 'oauth-tail-3'];
    try {
      await waitForLog(service, /scorestream is consuming/);
      await publishRunsAsProducer(broker, topics.runs, runIds);
      await waitForRecords(broker, topics.results, runIds.length * scorersPerRun, 'read_uncommitted');
      const tail = runCli(['tail', '--topic', topics.results, '--from-beginning', '--json'], oauthLogin(broker, 'scorestream-tail', tailSecret));
      const { lines } = tail;
      const deadline = Date.now() + 30_000;
      while (lines.filter((line) => line.includes('"runId"')).length < runIds.length * scorersPerRun && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      tail.kill();
      expect(await tail.exited, lines.join('\n')).toBe(0);
      expect(lines.filter((line) => line.includes('"runId"'))).toHaveLength(runIds.length * scorersPerRun);
      expect(lines.join('\n')).not.toContain(tailSecret);
    } finally {
      service.child.kill('SIGTERM');
      expect((await service.exited).code).toBe(0);
    }
  }, 120_000);

  it('scorestream replay, another role, scores a time range as its own OAuth client with exactly the replay role\'s ACLs', async () => {
    const broker = secureBroker();
    const topics = await useTopics(broker);
    const replays = `${topics.runs}-replays`;
    await createTopicsAsAdmin(broker, [replays]);
    const groupId = uniqueName('replay-oauth');
    await grantAcls(broker, 'User:producer', testRoleGrants('producer', { topics: { runs: topics.runs } }));
    await grantAcls(broker, 'User:replay-oauth', testRoleGrants('replay', { topics: { ...topics, replays } }, { groupId, delivery: 'at-least-once' }));
    const runIds = ['oauth-replay-1', 'oauth-replay-2', 'oauth-replay-3'];
    await publishRunsAsProducer(broker, topics.runs, runIds);
    const replay = runCli(['replay', '--config', fixtureConfig, '--from', '10m'], {
      ...oauthLogin(broker, 'scorestream-replay', replaySecret),
      SCORESTREAM_GROUP_ID: groupId,
      SCORESTREAM_TOPIC_RUNS: topics.runs,
      SCORESTREAM_TOPIC_RESULTS: topics.results,
      SCORESTREAM_TOPIC_DEAD_LETTER: topics.deadLetter,
      SCORESTREAM_TOPIC_DECISIONS: topics.decisions,
      FIXTURE_JUDGE_DELAY_MS: '0',
    });
    const { lines } = replay;
    const code = await replay.exited;
    expect(code, lines.join('\n')).toBe(0);
    expect(lines.join('\n')).toMatch(/finished at 3\/3 runs/);
    const records = await readAll<{ runId: string; replay?: { id: string } }>(topics.results, { isolation: 'read_uncommitted', kafka: adminKafka(broker) });
    expect(records).toHaveLength(runIds.length * scorersPerRun);
    expect(new Set(records.map((record) => record.runId))).toEqual(new Set(runIds));
    expect(lines.join('\n')).not.toContain(replaySecret);
  }, 90_000);

  it('scorestream dashboard, another role, serves the scores as its own OAuth client with exactly the dashboard role\'s ACLs', async () => {
    const broker = secureBroker();
    const topics = await useTopics(broker);
    const groupId = uniqueName('svc-oauth');
    await grantAcls(broker, 'User:svc-oauth', testRoleGrants('service', { topics, retries: true }, { groupId, delivery: 'at-least-once' }));
    await grantAcls(broker, 'User:producer', testRoleGrants('producer', { topics: { runs: topics.runs } }));
    await grantAcls(broker, 'User:dashboard-oauth', testRoleGrants('dashboard', { topics: { runs: topics.runs, results: topics.results, decisions: topics.decisions } }));
    const service = spawnOAuthService(broker, topics, groupId, 'at-least-once');
    const runIds = ['oauth-dash-1', 'oauth-dash-2'];
    const dashboard = runCli(['dashboard', '--port', '0', '--since', '1h', '--topic', topics.results, '--decisions-topic', topics.decisions], oauthLogin(broker, 'scorestream-dashboard', dashboardSecret));
    const { lines } = dashboard;
    try {
      await waitForLog(service, /scorestream is consuming/);
      await publishRunsAsProducer(broker, topics.runs, runIds);
      await expect.poll(() => lines.map((line) => /Scorestream dashboard: (http:\/\/\S+)/.exec(line)?.[1]).find(Boolean), { timeout: 30_000 }).toBeDefined();
      const url = lines.map((line) => /Scorestream dashboard: (http:\/\/\S+)/.exec(line)?.[1]).find(Boolean)!;
      const snapshot = async () => (await (await fetch(`${url}api/snapshot`)).json()) as { recent: Array<{ runId: string }> };
      await expect.poll(async () => new Set((await snapshot()).recent.map((summary) => summary.runId)), { timeout: 30_000 }).toEqual(new Set(runIds));
      dashboard.kill();
      expect(await dashboard.exited, lines.join('\n')).toBe(0);
      expect(lines.join('\n')).not.toContain(dashboardSecret);
    } finally {
      service.child.kill('SIGTERM');
      expect((await service.exited).code).toBe(0);
    }
  }, 120_000);

  it('the feedback join, another role, joins a thumbs-down to its score as its own OAuth client with exactly the agreement role\'s ACLs', async () => {
    const broker = secureBroker();
    const runs = uniqueName('runs');
    const topics = { runs, results: uniqueName('scores'), deadLetter: uniqueName('dlq'), rescore: `${runs}-rescore` };
    const feedbackTopic = uniqueName('feedback');
    const feedbackTopics = { feedbackTopic, agreementsTopic: uniqueName('agreements'), deadLetterTopic: `${feedbackTopic}-dlq` };
    await createTopicsAsAdmin(broker, [...Object.values(topics), ...Object.values(feedbackTopics)]);
    const topology = { topics: { ...topics, feedback: feedbackTopics.feedbackTopic, agreements: feedbackTopics.agreementsTopic }, rescore: true };
    await grantAcls(broker, 'User:agreement-oauth', testRoleGrants('agreement', topology));
    const sasl = { mechanism: 'oauthbearer' as const, tokenEndpointUrl: oidc.tokenEndpointUrl, clientId: 'scorestream-agreement', clientSecret: agreementSecret };
    const edge = createKafkaEdge({ clientId: 'scorestream-test-agreement', brokers: broker.brokers, ssl: { ca: [broker.caPem] }, sasl });
    onTestFinished(() => edge.close());
    const join = await startAgreementJoin({ edge, ...feedbackTopics, resultsTopic: topics.results, rescoreTopic: null, windowMs: 3_600_000, ttlMs: 600_000, flushIntervalMs: 100 });
    onTestFinished(() => join.stop());
    const admin = adminKafka(broker).producer();
    await admin.connect();
    try {
      await admin.send({ topic: topics.results, acks: -1, messages: [{ key: 'run-o', value: JSON.stringify(scoreRecord({ status: 'scored', score: 0.9, verdict: 'pass' }, { scoreId: 'oauth-judged', runId: 'run-o', scorerId: 'judged', at: Date.now() })) }] });
      const feedback = { schemaVersion: 1, feedbackId: 'fb-oauth', target: { type: 'run', runId: 'run-o' }, source: 'end_user', name: 'thumbs', value: false, submittedAt: new Date().toISOString() };
      await admin.send({ topic: feedbackTopics.feedbackTopic, acks: -1, messages: [{ key: 'run-o', value: JSON.stringify(feedback) }] });
    } finally {
      await admin.disconnect();
    }
    await expect.poll(() => join.counters.pairsPublished, { timeout: 30_000 }).toBe(1);
    const pairs = await waitForRecords(broker, feedbackTopics.agreementsTopic, 1, 'read_uncommitted');
    expect(pairs.some((record) => record.feedbackId === 'fb-oauth' && record.scoreId === 'oauth-judged')).toBe(true);
  }, 90_000);

  it('scorestream monitor, another role, turns low scores into a breach as its own OAuth client with exactly the monitor role\'s ACLs', async () => {
    const broker = secureBroker();
    const runs = uniqueName('runs');
    const topics = { runs, results: uniqueName('scores'), alerts: uniqueName('alerts'), deadLetter: uniqueName('dlq') };
    await createTopicsAsAdmin(broker, Object.values(topics));
    await grantAcls(broker, 'User:monitor-oauth', testRoleGrants('monitor', { topics }));
    const scorer = createScorer({ id: 'completeness', description: 'd' }).generateScore(() => 1);
    const config = resolveConfig({
      kafka: { brokers: broker.brokers, ssl: { ca: broker.caPem }, sasl: { mechanism: 'oauthbearer', tokenEndpointUrl: oidc.tokenEndpointUrl, clientId: 'scorestream-monitor', clientSecret: monitorSecret } },
      topics,
      scorers: [{ scorer }],
      monitors: [{ name: 'oauth-completeness', scorer: 'completeness', aggregation: 'mean', window: '5m', threshold: { below: 0.5 } }],
      alerts: { evaluateEvery: '500ms' },
    } as ScorestreamConfigInput);
    const monitor = await startMonitor({ config, logger: pino({ level: 'silent' }) });
    onTestFinished(() => monitor.stop());
    await monitor.ready;
    const admin = adminKafka(broker).producer();
    await admin.connect();
    try {
      const low = [0.1, 0.2, 0.3].map((score, index) => scoreRecord({ status: 'scored', score, verdict: 'fail' }, { scoreId: `oauth-monitor-${index}`, runId: `run-m-${index}`, scorerId: 'completeness', at: Date.now() }));
      await admin.send({ topic: topics.results, acks: -1, messages: low.map((record) => ({ key: record.runId, value: JSON.stringify(record) })) });
    } finally {
      await admin.disconnect();
    }
    const notices = await waitForRecords(broker, topics.alerts, 1, 'read_uncommitted');
    expect(notices[0]).toMatchObject({ kind: 'breach', samples: 3, monitor: { name: 'oauth-completeness' } });
  }, 90_000);

  it('the token endpoint out for longer than a token lives: a warning, the service stays up, and every run is scored once it is back', async () => {
    const broker = secureBroker();
    const topics = await useTopics(broker);
    const groupId = uniqueName('svc-oauth');
    await grantAcls(broker, 'User:svc-oauth', testRoleGrants('service', { topics, retries: true }, { groupId, delivery: 'at-least-once' }));
    await grantAcls(broker, 'User:producer', testRoleGrants('producer', { topics: { runs: topics.runs } }));
    const service = spawnOAuthService(broker, topics, groupId, 'at-least-once');
    try {
      await waitForLog(service, /scorestream is consuming/);
      const before = ['oauth-outage-a-1', 'oauth-outage-a-2'];
      await publishRunsAsProducer(broker, topics.runs, before);
      await waitForRecords(broker, topics.results, before.length * scorersPerRun, 'read_uncommitted');
      // Out for two token lifetimes and more: the token in hand expires and no new one can be had.
      const unavailableBefore = oidc.unavailable;
      oidc.down = true;
      const during = ['oauth-outage-b-1', 'oauth-outage-b-2'];
      await publishRunsAsProducer(broker, topics.runs, during);
      await new Promise((resolve) => setTimeout(resolve, 14_000));
      // Asked again with a backoff (1, 2, 4, 8 s), not at each of the clients' reconnects.
      expect(oidc.unavailable - unavailableBefore).toBeGreaterThan(0);
      expect(oidc.unavailable - unavailableBefore).toBeLessThanOrEqual(8);
      expect(service.child.exitCode).toBeNull();
      oidc.down = false;
      const after = ['oauth-outage-c-1', 'oauth-outage-c-2'];
      await publishRunsAsProducer(broker, topics.runs, after);
      const all = [...before, ...during, ...after];
      const records = await waitForRecords(broker, topics.results, all.length * scorersPerRun, 'read_uncommitted');
      expect(new Set(records.map((record) => record.runId))).toEqual(new Set(all));
      const output = service.output.join('\n');
      // Tokens of 6 s and re-logins every 5 s: the expiry is what the service sees first.
      expect(output).toMatch(/the OAUTHBEARER token could not be renewed and the last one has expired \(the OIDC token endpoint refused client 'scorestream-service' at \S+ \(HTTP 503 temporarily_unavailable/);
      expect(output).toMatch(/the OAUTHBEARER token was renewed again after \d+ failed attempts? over \d+ s/);
      expect(service.output.join('\n')).not.toContain(secret);
    } catch (error) {
      console.error(service.output.slice(-25).join('\n'));
      throw error;
    } finally {
      oidc.down = false;
      service.child.kill('SIGTERM');
      expect((await service.exited).code).toBe(0);
    }
  }, 120_000);

  it('a wrong client secret: exit 2, named, and not printed', async () => {
    const broker = secureBroker();
    const topics = await useTopics(broker);
    const wrong = `wrong-${randomBytes(9).toString('base64url')}`;
    const refusedBefore = oidc.refused;
    const started = Date.now();
    const service = spawnOAuthService(broker, topics, uniqueName('svc-oauth'), 'at-least-once', wrong);
    const { code } = await service.exited;
    const elapsed = Date.now() - started;
    const output = service.output.join('\n');
    expect(code, output).toBe(2);
    expect(output).toContain("OAuth client 'scorestream-service' (OAUTHBEARER)");
    expect(output).toMatch(/the OIDC token endpoint refused client 'scorestream-service' at http:\/\/127\.0\.0\.1:\d+\/oauth2\/token \(HTTP 401 invalid_client: client authentication failed\): check KAFKA_SASL_OAUTHBEARER_CLIENT_ID and KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET/);
    expect(output).not.toContain(wrong);
    expect(output).not.toContain(secret);
    expect(oidc.refused).toBeGreaterThan(refusedBefore);
    console.error(`[oauth] wrong client secret refused after ${elapsed} ms (process start included)`);
  }, 60_000);
});
