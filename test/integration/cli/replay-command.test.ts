// `scorestream replay` as a user runs it (a child process of cli/main.ts with the fixture config):
// --dry-run prints the estimate and exits 0; a replay stopped with SIGINT exits 130 after
// finishing what was in flight, and the same command run again finishes the range, each run
// scored once; the same command with a relative time run twice is the same replay, over the range
// it fixed the first time (the second run scores nothing new), and a new range under the same
// --id is refused.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { ScoreRecord } from '../../../src/kit/contracts/score-record.ts';
import { testBrokers, testKafka, uniqueGroupId } from '../../helpers/kafka.ts';
import { testRun } from '../../helpers/runs.ts';
import { produceRaw, readUntil, useServiceTopics } from '../../helpers/service.ts';
import type { ServiceTopics } from '../../helpers/service.ts';

const cli = fileURLToPath(new URL('../../../cli/main.ts', import.meta.url));
const fixtureConfig = fileURLToPath(new URL('../../fixtures/service.config.ts', import.meta.url));
const base = Date.parse('2026-11-30T08:00:00.000Z');

function replayCommand(args: string[], topics: ServiceTopics, groupId: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', cli, 'replay', '--config', fixtureConfig, ...args], {
    env: {
      ...process.env,
      KAFKA_BROKERS: testBrokers().join(','),
      SCORESTREAM_GROUP_ID: groupId,
      SCORESTREAM_TOPIC_RUNS: topics.runs,
      SCORESTREAM_TOPIC_RESULTS: topics.results,
      SCORESTREAM_TOPIC_DEAD_LETTER: topics.deadLetter,
      SCORESTREAM_LOG_LEVEL: 'warn',
      OTEL_SDK_DISABLED: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

async function produceTimedRuns(topic: string, count: number): Promise<string[]> {
  const producer = testKafka('scorestream-test-producer').producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const runIds = Array.from({ length: count }, (_, index) => `cli-replay-${index}`);
  try {
    await producer.send({ topic, acks: -1, messages: runIds.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId })), partition: index % 2, timestamp: String(base + index * 1000) })) });
  } finally {
    await producer.disconnect();
  }
  return runIds;
}

describe('scorestream replay (the command)', () => {
  it('--dry-run prints per scorer the eligible runs and the estimated calls and tokens, and exits 0', async () => {
    const topics = await useServiceTopics(2);
    await produceTimedRuns(topics.runs, 8);
    const command = replayCommand(['--from', new Date(base + 3000).toISOString(), '--dry-run'], topics, uniqueGroupId('cli-dry'));
    expect(await command.exited).toBe(0);
    expect(command.stdout()).toMatch(/5 runs in range/);
    expect(command.stdout()).toMatch(/answer-length\s+5\s+0\s+0\s+0\s+0/);
    expect(command.stdout()).toMatch(/slow-judge\s+5\s+0\s+5\s+\d+\s+1280/);
  }, 60_000);

  it('stops cleanly on SIGINT and the same command continues, scoring each run once', async () => {
    const topics = await useServiceTopics(2);
    const runIds = await produceTimedRuns(topics.runs, 24);
    const groupId = uniqueGroupId('cli-replay');
    // One run in flight at a time, each judge call 300 ms: the SIGINT lands half-way.
    const env = { FIXTURE_JUDGE_DELAY_MS: '300', FIXTURE_RUNS_IN_FLIGHT: '1' };
    const first = replayCommand(['--from', new Date(base).toISOString()], topics, groupId, env);
    await readUntil<ScoreRecord>(topics.results, (records) => records.length >= 6, 60_000);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(130);
    expect(first.stdout()).toMatch(/stopped at \d+\/24 runs/);

    const second = replayCommand(['--from', new Date(base).toISOString()], topics, groupId, { ...env, FIXTURE_JUDGE_DELAY_MS: '0' });
    expect(await second.exited).toBe(0);
    expect(second.stdout()).toMatch(/finished at 24\/24 runs/);
    expect(second.stderr()).toMatch(/24\/24 runs\s+100%/);
    const records = await readUntil<ScoreRecord>(topics.results, (found) => found.length >= 48, 60_000);
    const pairs = records.map((record) => `${record.runId}/${record.scorerId}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(new Set(records.map((record) => record.runId))).toEqual(new Set(runIds));
    expect(new Set(records.map((record) => record.replay?.id)).size).toBe(1);
  }, 120_000);

  it('the same command with a relative --from run twice is the same replay: the second run scores nothing new; a new range needs a new --id', async () => {
    const topics = await useServiceTopics(2);
    const groupId = uniqueGroupId('cli-replay-relative');
    const produceNow = async (prefix: string, count: number) => {
      const runIds = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
      await produceRaw(topics.runs, runIds.map((runId, index) => ({ key: runId, value: JSON.stringify(testRun({ runId })), partition: index % 2 })));
      return runIds;
    };
    const env = { FIXTURE_JUDGE_DELAY_MS: '0' };
    const firstRuns = await produceNow('relative', 10);
    const first = replayCommand(['--from', '10m'], topics, groupId, env);
    expect(await first.exited, first.stderr()).toBe(0);
    expect(first.stdout()).toMatch(/finished at 10\/10 runs/);
    const records = await readUntil<ScoreRecord>(topics.results, (found) => found.length >= 20, 60_000);
    // Runs that arrive after the replay started are not in its range, however often it runs again.
    await produceNow('later', 5);
    const second = replayCommand(['--from', '10m'], topics, groupId, env);
    expect(await second.exited, second.stderr()).toBe(0);
    expect(second.stdout()).toMatch(/finished at 10\/10 runs \(nothing left to do\)/);
    // The same replay id. Read from the result line: a warning logged on the way (a retried offset
    // read, a group the broker is still rebalancing) may come before it.
    const replayId = (stdout: string) => /^([^:\s]+): finished/m.exec(stdout)?.[1];
    expect(replayId(first.stdout()), first.stdout()).toMatch(/^replay-/);
    expect(replayId(second.stdout()), second.stdout()).toBe(replayId(first.stdout()));
    // Nothing new: the next replay's records (a new range, --from 15m) are the next to arrive.
    const third = replayCommand(['--from', '15m'], topics, groupId, env);
    expect(await third.exited, third.stderr()).toBe(0);
    expect(third.stdout()).toMatch(/finished at 15\/15 runs/);
    const all = await readUntil<ScoreRecord>(topics.results, (found) => found.length >= 20 + 30, 60_000);
    const byReplay = new Map<string, string[]>();
    for (const record of all) byReplay.set(record.replay!.id, [...(byReplay.get(record.replay!.id) ?? []), record.runId]);
    expect([...byReplay.values()].map((runIds) => runIds.length).sort((a, b) => a - b)).toEqual([20, 30]);
    expect(new Set(records.map((record) => record.runId))).toEqual(new Set(firstRuns));

    // --id names a replay; another range under it is refused, naming what it was started with.
    const named = replayCommand(['--from', '10m', '--id', 'nightly'], topics, groupId, env);
    expect(await named.exited, named.stderr()).toBe(0);
    const renamed = replayCommand(['--from', '20m', '--id', 'nightly'], topics, groupId, env);
    expect(await renamed.exited).toBe(2);
    expect(renamed.stderr()).toMatch(/replay 'nightly' was started with --from 10m ago .*a new range is a new replay: give it another --id/);
  }, 180_000);
});
