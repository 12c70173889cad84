// A cross-process lock on a directory path, so two commands starting the same named broker (or
// downloading the same jars) at once take turns instead of racing. The lock is a directory made
// with an atomic mkdir holding the owner's pid; a lock whose owner died is taken over.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { localBrokerError } from './errors.ts';
import { isProcessAlive } from './processes.ts';

export type DirectoryLockOptions = { timeoutMs?: number; onWait?: (ownerPid: number | undefined) => void };

async function lockOwner(lockPath: string): Promise<number | undefined> {
  try {
    const pid = Number((await readFile(join(lockPath, 'pid'), 'utf8')).trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function tryAcquire(lockPath: string): Promise<boolean> {
  try {
    await mkdir(lockPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  await writeFile(join(lockPath, 'pid'), String(process.pid));
  return true;
}

export async function withDirectoryLock<T>(lockPath: string, work: () => Promise<T>, options: DirectoryLockOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 300_000);
  let announced = false;
  let ownerlessSince: number | undefined;
  while (!(await tryAcquire(lockPath))) {
    const owner = await lockOwner(lockPath);
    // A lock without a pid file is either being created right now or was abandoned mid-way.
    if (owner === undefined) ownerlessSince ??= Date.now();
    const abandoned = owner === undefined ? Date.now() - (ownerlessSince ?? Date.now()) > 2_000 : !isProcessAlive(owner);
    if (abandoned) {
      await rm(lockPath, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw localBrokerError(
        'KAFKA_BROKER_BUSY',
        `Timed out waiting for ${lockPath}, held by process ${owner ?? '(unknown)'}: wait for it to finish, or remove the directory if no such process runs.`,
      );
    }
    if (!announced) options.onWait?.(owner);
    announced = true;
    await sleep(200);
  }
  try {
    return await work();
  } finally {
    await rm(lockPath, { recursive: true, force: true });
  }
}
