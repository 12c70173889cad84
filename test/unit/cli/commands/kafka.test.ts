import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { run } from '../../../../cli/commands/kafka.ts';

let stateHome: string;

beforeEach(async () => {
  stateHome = await mkdtemp(join(tmpdir(), 'scorestream-state-'));
  vi.stubEnv('XDG_STATE_HOME', stateHome);
  vi.stubEnv('KAFKA_BROKERS', '');
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await rm(stateHome, { recursive: true, force: true });
});

describe('scorestream kafka', () => {
  it.each([[[]], [['restart']], [['start', 'extra']], [['status', '--bogus']]])('exits 2 with the usage for %j', async (argv) => {
    expect(await run(argv)).toBe(2);
    expect(vi.mocked(console.error).mock.calls.join('\n')).toContain('usage: scorestream kafka');
  });

  it('exits 3 from status when the broker is not running', async () => {
    expect(await run(['status', '--name', 'never-started'])).toBe(3);
    expect(vi.mocked(console.log).mock.calls.join('\n')).toContain("'never-started' broker not running (never started)");
  });

  it('exits 0 from stop when there was nothing to stop, and says so', async () => {
    expect(await run(['stop', '--name', 'never-started'])).toBe(0);
    expect(vi.mocked(console.error).mock.calls.join('\n')).toContain('was not running');
  });

  it('prints the KAFKA_BROKERS addresses as the last stdout line of start without starting anything', async () => {
    vi.stubEnv('KAFKA_BROKERS', 'kafka-a:9092,kafka-b:9092');
    expect(await run(['start'])).toBe(0);
    expect(vi.mocked(console.log).mock.calls.at(-1)).toEqual(['kafka-a:9092,kafka-b:9092']);
  });

  it('rejects an unsafe broker name', async () => {
    await expect(run(['status', '--name', '../etc'])).rejects.toMatchObject({ code: 'KAFKA_INVALID_BROKER_NAME' });
  });
});
