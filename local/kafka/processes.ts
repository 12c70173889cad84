// Process checks and termination for the JVM broker: is a pid alive, is it really our broker
// (pids get reused), and stop it with SIGTERM, then SIGKILL after a grace period.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCommand } from './run-command.ts';

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a process, or undefined when it is gone or unreadable. */
export async function processCommandLine(pid: number): Promise<string | undefined> {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    // No procfs (macOS): ask ps.
    const result = await runCommand('ps', ['-o', 'command=', '-p', String(pid)], { timeoutMs: 5_000 });
    return result.code === 0 && result.stdout.trim() !== '' ? result.stdout.trim() : undefined;
  }
}

/** True when `pid` is alive and runs the Kafka broker with the given properties file. */
export async function isBrokerProcess(pid: number, serverPropertiesPath: string): Promise<boolean> {
  if (!isProcessAlive(pid)) return false;
  const commandLine = await processCommandLine(pid);
  return commandLine !== undefined && commandLine.includes('kafka.Kafka') && commandLine.includes(serverPropertiesPath);
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
  return true;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/**
 * SIGTERM (Kafka shuts down cleanly, usually in one to two seconds), then SIGKILL when the grace
 * period runs out. Resolves once the process is gone. A zombie child of ours counts as gone only
 * once reaped, so callers that spawned the broker must keep listening for its exit.
 */
export async function terminateProcess(pid: number, graceMs = 15_000): Promise<'terminated' | 'killed' | 'not-running'> {
  if (!isProcessAlive(pid)) return 'not-running';
  signal(pid, 'SIGTERM');
  if (await waitForExit(pid, graceMs)) return 'terminated';
  signal(pid, 'SIGKILL');
  await waitForExit(pid, 10_000);
  return 'killed';
}
