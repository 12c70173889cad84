// The dashboard and replay roles against a secured broker of this file's own (TLS with a private
// CA, SCRAM users, the StandardAuthorizer denying whatever no ACL allows), each as the real CLI in
// a child process holding exactly its ACLs from kafka/acl-roles.ts (docs/security.md): the
// dashboard serves the score records over its HTTP API, group-less, and without READ on the results
// topic it exits 2 naming that ACL; a replay scores the runs of its range, without READ on its
// group prefix it exits 2 naming that ACL, and its dry run estimates the range group-less. No
// password in any output.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { DeliveryMode } from '../../../src/engine/config/config-types.ts';
import type { SecureBrokerHandle } from '../../../local/kafka/secure-broker.ts';
import { decisionRecord, scoreRecord } from '../../helpers/dashboard-records.ts';
import { uniqueName } from '../../helpers/kafka.ts';
import { readAll } from '../../helpers/read-all.ts';
import { testRun } from '../../helpers/runs.ts';
import { adminKafka, createTopicsAsAdmin, grantAcls, testRoleGrants, useSecureBroker } from '../../helpers/secure-broker.ts';
import type { ServiceTopics } from '../../helpers/service.ts';

const users = ['dashboard', 'dashboard-no-group', 'replay', 'replay-eos', 'replay-dry', 'replay-no-group'] as const;
const secureBroker = useSecureBroker(users);
const cli = fileURLToPath(new URL('../../../cli/main.ts', import.meta.url));
const fixtureConfig = fileURLToPath(new URL('../../fixtures/service.config.ts', import.meta.url));
/** The fixture config's two scorers: one record each per run. */
const scorersPerRun = 2;
const base = Date.parse('2026-11-30T08:00:00.000Z');

type Topics = ServiceTopics & { decisions: string; replays: string };

/** The service's topics, and the replays topic where a replay fixes its range (`{runs}-replays`, the default). */
async function useSecureTopics(broker: SecureBrokerHandle, runsPartitions = 1): Promise<Topics> {
  const runs = uniqueName('runs');
  const topics = { runs, results: uniqueName('scores'), deadLetter: uniqueName('dlq'), decisions: uniqueName('decisions'), replays: `${runs}-replays` };
  await createTopicsAsAdmin(broker, [topics.runs], runsPartitions);
  await createTopicsAsAdmin(broker, [topics.results, topics.deadLetter, topics.decisions, topics.replays]);
  return topics;
}

/** The dashboard's grants for these topics (results and decisions; no thread view, feedback view or alerts here). */
const dashboardGrants = (topics: Topics) => testRoleGrants('dashboard', { topics: { runs: topics.runs, results: topics.results, decisions: topics.decisions } });
/** A replay's grants: its topics (runs, the outputs, the replays topic) and its `<group>.` groups. */
const replayGrants = (topics: Topics, groupId: string, delivery: DeliveryMode) => testRoleGrants('replay', { topics }, { groupId, delivery });

/** Connection settings of `user` over SASL_SSL (SCRAM-SHA-512), the CA from a file. */
function secureEnvironment(broker: SecureBrokerHandle, user: string): Record<string, string> {
  const sasl = broker.sasl(user);
  return {
    KAFKA_BROKERS: broker.brokers.join(','),
    KAFKA_SASL_MECHANISM: sasl.mechanism,
    KAFKA_SASL_USERNAME: sasl.username,
    KAFKA_SASL_PASSWORD: sasl.password,
    KAFKA_SSL_CA_FILE: broker.materials.caCertificate,
  };
}

type CliProcess = { output: string[]; exited: Promise<number | null>; signal: (name: NodeJS.Signals) => void };

function runCli(args: string[], env: Record<string, string>): CliProcess {
  const output: string[] = [];
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--disable-warning=TimeoutNegativeWarning', cli, ...args], {
    env: { ...process.env, SCORESTREAM_LOG_LEVEL: 'warn', OTEL_SDK_DISABLED: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => output.push(...chunk.toString('utf8').split(/[\n\r]/).filter(Boolean));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { output, exited, signal: (name) => child.kill(name) };
}

async function waitForLine(process: CliProcess, pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  let ended = false;
  void process.exited.then(() => (ended = true));
  for (;;) {
    for (const line of process.output) {
      const match = pattern.exec(line);
      if (match !== null) return match;
    }
    if (ended || Date.now() > deadline) throw new Error(`no output line matching ${pattern}${ended ? ' before the process ended' : ` within ${timeoutMs} ms`}:\n${process.output.slice(-30).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function expectNoSecret(output: string, broker: SecureBrokerHandle): void {
  for (const password of Object.values(broker.materials.users)) expect(output).not.toContain(password);
}

/** Writes `values` to `topic` as the admin (the producer role is tested in secured-broker.test.ts), each with its timestamp. */
async function publishAsAdmin(broker: SecureBrokerHandle, topic: string, messages: Array<{ key: string; value: unknown; timestamp: number; partition?: number }>): Promise<void> {
  const producer = adminKafka(broker).producer();
  await producer.connect();
  try {
    await producer.send({ topic, acks: -1, messages: messages.map(({ key, value, timestamp, partition }) => ({ key, value: JSON.stringify(value), timestamp: String(timestamp), ...(partition === undefined ? {} : { partition }) })) });
  } finally {
    await producer.disconnect();
  }
}

describe('the dashboard with exactly its ACLs', () => {
  it('serves the score records of the results topic over its HTTP API', { timeout: 60_000 }, async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    await grantAcls(broker, 'User:dashboard', dashboardGrants(topics));
    const now = Date.now();
    await publishAsAdmin(broker, topics.results, [
      { key: 'run-a', value: scoreRecord({ status: 'scored', score: 0.9 }, { scoreId: 'secured-a', runId: 'run-a', at: now - 60_000 }), timestamp: now - 60_000 },
      { key: 'run-b', value: scoreRecord({ status: 'failed' }, { scoreId: 'secured-b', runId: 'run-b', at: now - 30_000 }), timestamp: now - 30_000 },
    ]);
    await publishAsAdmin(broker, topics.decisions, [{ key: 'run-c', value: decisionRecord({ runId: 'run-c', at: now - 30_000 }), timestamp: now - 30_000 }]);

    const dashboard = runCli(['dashboard', '--port', '0', '--since', '1h', '--topic', topics.results, '--decisions-topic', topics.decisions], secureEnvironment(broker, 'dashboard'));
    const [, url] = await waitForLine(dashboard, /Scorestream dashboard: (http:\/\/\S+)/);
    type Snapshot = { recent: Array<{ scoreId: string }>; counts: { invalid: number; decisions: number } };
    const snapshot = async () => (await (await fetch(`${url}api/snapshot`)).json()) as Snapshot;
    await expect.poll(async () => (await snapshot()).recent.map((summary) => summary.scoreId).sort(), { timeout: 20_000 }).toEqual(['secured-a', 'secured-b']);
    // The decision record came through the decisions topic (its READ ACL).
    await expect.poll(async () => (await snapshot()).counts.decisions, { timeout: 10_000 }).toBe(1);
    expect((await snapshot()).counts.invalid).toBe(0);
    const detail = await fetch(`${url}api/records/secured-a`);
    expect(detail.status).toBe(200);
    expect(await detail.json()).toMatchObject({ record: { scoreId: 'secured-a', runId: 'run-a', score: 0.9 } });

    // A record published while it runs arrives too.
    await publishAsAdmin(broker, topics.results, [{ key: 'run-d', value: scoreRecord({ status: 'scored', score: 0.4 }, { scoreId: 'secured-live', runId: 'run-d', at: Date.now() }), timestamp: Date.now() }]);
    await expect.poll(async () => (await snapshot()).recent.map((summary) => summary.scoreId), { timeout: 20_000 }).toContain('secured-live');

    dashboard.signal('SIGTERM');
    expect(await dashboard.exited).toBe(0);
    expectNoSecret(dashboard.output.join('\n'), broker);
  });

  it('needs no group (it reads group-less), and without READ on the results topic it exits 2 naming that ACL', { timeout: 60_000 }, async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker);
    const grants = dashboardGrants(topics);
    expect(grants.filter((grant) => grant.resource === 'group')).toEqual([]);
    await grantAcls(broker, 'User:dashboard-no-group', grants.filter((grant) => grant.name !== topics.results));
    const dashboard = runCli(['dashboard', '--port', '0', '--topic', topics.results, '--decisions-topic', topics.decisions], secureEnvironment(broker, 'dashboard-no-group'));
    expect(await dashboard.exited).toBe(2);
    const output = dashboard.output.join('\n');
    expect(output).toContain(`READ on topic '${topics.results}'`);
    expect(output).not.toContain('Scorestream dashboard: http');
    expectNoSecret(output, broker);
  });
});

describe('a replay with exactly its ACLs', () => {
  /** Eight runs one second apart from `base`, over two partitions; the range from base+3 s holds five. */
  async function publishTimedRuns(broker: SecureBrokerHandle, topic: string, prefix: string): Promise<string[]> {
    const runIds = Array.from({ length: 8 }, (_, index) => `${prefix}-${index}`);
    await publishAsAdmin(broker, topic, runIds.map((runId, index) => ({ key: runId, value: testRun({ runId }), timestamp: base + index * 1000, partition: index % 2 })));
    return runIds;
  }

  function replayEnvironment(broker: SecureBrokerHandle, user: string, topics: Topics, groupId: string): Record<string, string> {
    return {
      ...secureEnvironment(broker, user),
      SCORESTREAM_GROUP_ID: groupId,
      SCORESTREAM_TOPIC_RUNS: topics.runs,
      SCORESTREAM_TOPIC_RESULTS: topics.results,
      SCORESTREAM_TOPIC_DEAD_LETTER: topics.deadLetter,
      SCORESTREAM_TOPIC_DECISIONS: topics.decisions,
      FIXTURE_JUDGE_DELAY_MS: '0',
    };
  }

  it('scores the runs of its range over the secured listener (at-least-once)', { timeout: 90_000 }, async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker, 2);
    const groupId = uniqueName('replay');
    await grantAcls(broker, 'User:replay', replayGrants(topics, groupId, 'at-least-once'));
    const runIds = await publishTimedRuns(broker, topics.runs, 'secured-replay');

    const replay = runCli(['replay', '--config', fixtureConfig, '--from', new Date(base + 3000).toISOString()], replayEnvironment(broker, 'replay', topics, groupId));
    const code = await replay.exited;
    const output = replay.output.join('\n');
    expect(code, output).toBe(0);
    expect(output).toMatch(/finished at 5\/5 runs/);
    const records = await readAll<{ runId: string; scorerId: string; replay?: { id: string } }>(topics.results, { isolation: 'read_uncommitted', kafka: adminKafka(broker) });
    expect(records).toHaveLength(5 * scorersPerRun);
    expect(new Set(records.map((record) => record.runId))).toEqual(new Set(runIds.slice(3)));
    expect(new Set(records.map((record) => record.replay?.id)).size).toBe(1);
    expectNoSecret(output, broker);
  });

  it('exactly-once: scores the range with the transactional ids of its replay groups', { timeout: 90_000 }, async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker, 2);
    const groupId = uniqueName('replay-eos');
    await grantAcls(broker, 'User:replay-eos', replayGrants(topics, groupId, 'exactly-once'));
    const runIds = await publishTimedRuns(broker, topics.runs, 'secured-replay-eos');

    const replay = runCli(['replay', '--config', fixtureConfig, '--from', new Date(base + 3000).toISOString()], { ...replayEnvironment(broker, 'replay-eos', topics, groupId), SCORESTREAM_DELIVERY: 'exactly-once' });
    const code = await replay.exited;
    const output = replay.output.join('\n');
    expect(code, output).toBe(0);
    expect(output).toMatch(/finished at 5\/5 runs/);
    const records = await readAll<{ runId: string }>(topics.results, { isolation: 'read_committed', kafka: adminKafka(broker) });
    expect(records).toHaveLength(5 * scorersPerRun);
    expect(new Set(records.map((record) => record.runId))).toEqual(new Set(runIds.slice(3)));
    expectNoSecret(output, broker);
  });

  it('without READ on its group prefix it exits 2 naming that ACL, the dry run too', { timeout: 60_000 }, async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker, 2);
    const groupId = uniqueName('replay-no-group');
    await grantAcls(broker, 'User:replay-no-group', replayGrants(topics, groupId, 'at-least-once').filter((grant) => grant.resource !== 'group'));
    await publishTimedRuns(broker, topics.runs, 'secured-replay-no-group');
    const replay = runCli(['replay', '--config', fixtureConfig, '--from', new Date(base + 3000).toISOString()], replayEnvironment(broker, 'replay-no-group', topics, groupId));
    const code = await replay.exited;
    const output = replay.output.join('\n');
    expect(code, output).toBe(2);
    expect(output).toContain(`access to the consumer group '${groupId}.' (a prefix)`);
    expect(output).toContain(`--allow-principal User:replay-no-group --operation Read --group ${groupId}. --resource-pattern-type prefixed`);
    expect(output).not.toContain('Failed to find group coordinator');
    expectNoSecret(output, broker);

    const dryRun = runCli(['replay', '--config', fixtureConfig, '--from', new Date(base + 3000).toISOString(), '--dry-run'], replayEnvironment(broker, 'replay-no-group', topics, groupId));
    expect(await dryRun.exited).toBe(2);
    expect(dryRun.output.join('\n')).toContain(`--group ${groupId}. --resource-pattern-type prefixed`);
  });

  it('--dry-run estimates the range with the same ACLs, group-less: no group of its own', { timeout: 90_000 }, async () => {
    const broker = secureBroker();
    const topics = await useSecureTopics(broker, 2);
    const groupId = uniqueName('replay-dry');
    await grantAcls(broker, 'User:replay-dry', replayGrants(topics, groupId, 'at-least-once'));
    await publishTimedRuns(broker, topics.runs, 'secured-dry');

    const dryRun = runCli(['replay', '--config', fixtureConfig, '--from', new Date(base + 3000).toISOString(), '--dry-run'], replayEnvironment(broker, 'replay-dry', topics, groupId));
    const code = await dryRun.exited;
    const output = dryRun.output.join('\n');
    expect(code, output).toBe(0);
    expect(output).toMatch(/5 runs in range/);
    expect(output).toMatch(/slow-judge\s+5\s+0\s+5\s+\d+\s+1280/);
    expect(output).not.toContain('could not delete its throwaway consumer group');
    // Nothing scored, and no group of the dry run left behind.
    expect(await readAll(topics.results, { isolation: 'read_uncommitted', kafka: adminKafka(broker) })).toHaveLength(0);
    const admin = adminKafka(broker).admin();
    await admin.connect();
    try {
      const { groups } = await admin.listGroups();
      expect(groups.map((group) => group.groupId).filter((id) => id.startsWith(`${groupId}.`))).toEqual([]);
    } finally {
      await admin.disconnect();
    }
    expectNoSecret(output, broker);
  });
});
