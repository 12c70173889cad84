// A named, non-default local broker through its whole life: start, status, reuse on a second
// start, stop leaving no process behind, status not running. Its state goes to a temporary
// XDG_STATE_HOME so the user's own brokers are never touched.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { brokerAnswers, ensureLocalBroker, localBrokerStatus, stopLocalBroker } from '../../../local/kafka/index.ts';
import type { BrokerHandle } from '../../../local/kafka/index.ts';
import { containerRunning, brokerContainerName } from '../../../local/kafka/docker-broker.ts';
import { isProcessAlive, processCommandLine } from '../../../local/kafka/processes.ts';
import { runCommand } from '../../../local/kafka/run-command.ts';

const name = `it-${randomBytes(3).toString('hex')}`;
let stateHome: string;
let first: BrokerHandle | undefined;

/** Processes whose command line mentions this broker's state directory. */
async function processesOf(directory: string): Promise<string[]> {
  const result = await runCommand('ps', ['-eo', 'pid=,args='], { timeoutMs: 10_000 });
  return result.stdout.split('\n').filter((line) => line.includes(directory) && line.includes('kafka.Kafka'));
}

describe('named local broker', () => {
  beforeAll(async () => {
    stateHome = await mkdtemp(join(tmpdir(), 'scorestream-state-'));
    vi.stubEnv('XDG_STATE_HOME', stateHome);
    vi.stubEnv('KAFKA_BROKERS', '');
  });

  afterAll(async () => {
    await stopLocalBroker(name, { purge: true }).catch(() => undefined);
    vi.unstubAllEnvs();
    await rm(stateHome, { recursive: true, force: true });
  });

  it('is not running before it was ever started', async () => {
    expect(await localBrokerStatus(name)).toMatchObject({ running: false, detail: 'never started' });
    expect(await stopLocalBroker(name)).toBe(false);
  });

  it('starts, answers and reports itself running', async () => {
    const progress: string[] = [];
    first = await ensureLocalBroker({ name, onProgress: (line) => progress.push(line) });
    expect(first.reused).toBe(false);
    expect(['jvm', 'docker']).toContain(first.mode);
    expect(first.directory).toBe(join(stateHome, 'scorestream', 'brokers', name));
    expect(progress.some((line) => line.includes('ready after'))).toBe(true);
    expect(await brokerAnswers(first.brokers)).toBe(true);

    const status = await localBrokerStatus(name);
    expect(status).toMatchObject({ running: true, mode: first.mode, brokers: first.brokers });
    if (first.mode === 'jvm') {
      expect(status.pid).toBe(first.pid);
      expect(await processCommandLine(first.pid ?? -1)).toContain('kafka.Kafka');
    }
  });

  it('reuses the running broker on a second start', async () => {
    const second = await ensureLocalBroker({ name });
    expect(second).toMatchObject({ reused: true, mode: first?.mode, brokers: first?.brokers });
    if (second.mode === 'jvm') expect(second.pid).toBe(first?.pid);
  });

  it('stops, leaving no broker process behind', async () => {
    expect(await stopLocalBroker(name)).toBe(true);
    if (first?.mode === 'jvm') {
      expect(isProcessAlive(first.pid ?? -1)).toBe(false);
      expect(await processesOf(first.directory ?? 'unknown')).toEqual([]);
    } else {
      expect(await containerRunning(brokerContainerName(name))).toBe(false);
    }
    expect(await brokerAnswers(first?.brokers ?? [], 2_000)).toBe(false);
  });

  it('reports itself not running after the stop, and a second stop finds nothing to stop', async () => {
    expect(await localBrokerStatus(name)).toMatchObject({ running: false, detail: 'stopped' });
    expect(await stopLocalBroker(name)).toBe(false);
  });

  it('starts again on the same address, keeping its data', async () => {
    const again = await ensureLocalBroker({ name });
    expect(again).toMatchObject({ reused: false, brokers: first?.brokers });
    await again.stop();
    expect(await localBrokerStatus(name)).toMatchObject({ running: false });
  });
});
