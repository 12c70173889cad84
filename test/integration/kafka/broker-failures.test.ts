// How a local broker fails and cleans up: a broker that cannot start reports the tail of its own
// log and leaves no process; an ephemeral broker whose owner dies (killed outright, or exiting
// without stop()) is stopped and its directory removed by the exit hook and the watchdog.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ensureLocalBroker, stopLocalBroker } from '../../../local/kafka/index.ts';
import { isProcessAlive } from '../../../local/kafka/processes.ts';
import { runCommand } from '../../../local/kafka/run-command.ts';

const kafkaModule = resolve(import.meta.dirname, '../../../local/kafka/index.ts');

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await sleep(200);
  }
  return condition();
}

describe('local broker failures and cleanup', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('reports the tail of the broker log when the broker cannot start, and leaves no process', async () => {
    const stateHome = await mkdtemp(join(tmpdir(), 'scorestream-state-'));
    vi.stubEnv('XDG_STATE_HOME', stateHome);
    vi.stubEnv('KAFKA_BROKERS', '');
    vi.stubEnv('SCORESTREAM_KAFKA_MODE', 'jvm');
    const directory = join(stateHome, 'scorestream', 'brokers', 'broken');
    try {
      // Storage that claims another node id: Kafka refuses to start on it.
      await mkdir(join(directory, 'data'), { recursive: true });
      await writeFile(join(directory, 'data', 'meta.properties'), 'version=1\nnode.id=7\ncluster.id=AAAAAAAAAAAAAAAAAAAAAA\ndirectory.id=AAAAAAAAAAAAAAAAAAAAAQ\n');

      const failure = await ensureLocalBroker({ name: 'broken' }).then(
        () => undefined,
        (error: unknown) => error,
      );

      expect(failure).toMatchObject({ code: 'KAFKA_BROKER_START_FAILED' });
      const message = (failure as Error).message;
      expect(message).toContain(`${join(directory, 'broker.log')} (last lines)`);
      expect(message).toContain('Stored node id 7 doesn');
      const processes = await runCommand('ps', ['-eo', 'args='], { timeoutMs: 10_000 });
      expect(processes.stdout.split('\n').filter((line) => line.includes(directory))).toEqual([]);
    } finally {
      await stopLocalBroker('broken', { purge: true }).catch(() => undefined);
      await rm(stateHome, { recursive: true, force: true });
    }
  });

  it('says what is missing and how to install it when there is no Java', async () => {
    vi.stubEnv('KAFKA_BROKERS', '');
    vi.stubEnv('SCORESTREAM_KAFKA_MODE', 'jvm');
    vi.stubEnv('JAVA_HOME', '/nonexistent/java-home');
    await expect(ensureLocalBroker({ ephemeral: true })).rejects.toMatchObject({
      code: 'KAFKA_PREREQUISITE_MISSING',
      message: expect.stringContaining('apt-get install -y openjdk-17-jre-headless maven'),
    });
  });

  it.each([
    ['is killed with SIGKILL', 'setInterval(() => {}, 1000);', 'SIGKILL'],
    ['exits without calling stop()', 'setTimeout(() => process.exit(0), 100);', undefined],
  ] as const)('stops an ephemeral broker and removes its directory when the owner %s', async (_case, ending, signal) => {
    const script = `
      import { ensureLocalBroker } from ${JSON.stringify(kafkaModule)};
      const broker = await ensureLocalBroker({ ephemeral: true });
      console.log(JSON.stringify({ pid: broker.pid, directory: broker.directory }));
      ${ending}`;
    const owner = spawn(process.execPath, ['--input-type=module', '--disable-warning=ExperimentalWarning', '-e', script], {
      env: { ...process.env, KAFKA_BROKERS: '', SCORESTREAM_KAFKA_MODE: 'jvm' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await new Promise<string>((resolveLine, reject) => {
      let output = '';
      owner.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('\n')) resolveLine(output.split('\n')[0] ?? '');
      });
      owner.on('exit', (code) => reject(new Error(`the owner exited (${code}) before reporting its broker: ${output}`)));
    });
    const { pid, directory } = JSON.parse(line) as { pid: number; directory: string };
    expect(isProcessAlive(pid)).toBe(true);
    expect(existsSync(directory)).toBe(true);

    if (signal !== undefined) owner.kill(signal);

    expect(await waitUntil(() => !isProcessAlive(pid), 30_000)).toBe(true);
    expect(await waitUntil(() => !existsSync(directory), 10_000)).toBe(true);
  });
});
