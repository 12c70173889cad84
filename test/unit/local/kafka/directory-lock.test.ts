import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withDirectoryLock } from '../../../../local/kafka/directory-lock.ts';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'scorestream-lock-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('withDirectoryLock', () => {
  it('lets one holder in at a time', async () => {
    const lock = join(directory, '.lock');
    const events: string[] = [];
    const holder = (label: string) =>
      withDirectoryLock(lock, async () => {
        events.push(`${label} in`);
        await sleep(50);
        events.push(`${label} out`);
      });
    await Promise.all([holder('a'), holder('b')]);
    // Either may win the race for the lock; what matters is that they never overlap.
    expect([['a in', 'a out', 'b in', 'b out'], ['b in', 'b out', 'a in', 'a out']]).toContainEqual(events);
  });

  it('takes over a lock whose owner process is gone', async () => {
    const lock = join(directory, '.lock');
    const finished = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    await mkdir(lock);
    await writeFile(join(lock, 'pid'), finished.stdout.trim());
    expect(await withDirectoryLock(lock, async () => 'taken', { timeoutMs: 2_000 })).toBe('taken');
  });

  it('gives up after the timeout when a live process holds the lock', async () => {
    const lock = join(directory, '.lock');
    await mkdir(lock);
    await writeFile(join(lock, 'pid'), String(process.pid));
    const waits: Array<number | undefined> = [];
    await expect(withDirectoryLock(lock, async () => 'never', { timeoutMs: 300, onWait: (owner) => waits.push(owner) })).rejects.toMatchObject({
      code: 'KAFKA_BROKER_BUSY',
      message: expect.stringContaining(`held by process ${process.pid}`),
    });
    expect(waits).toEqual([process.pid]);
  });

  it('releases the lock when the work fails', async () => {
    const lock = join(directory, '.lock');
    await expect(withDirectoryLock(lock, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await withDirectoryLock(lock, async () => 'again', { timeoutMs: 500 })).toBe('again');
  });
});
