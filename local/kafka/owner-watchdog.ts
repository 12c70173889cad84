// Keeps an ephemeral broker from outliving the Node process that started it. Tests and benchmarks
// stop their broker in teardown, but a process killed outright (SIGKILL, a crashed runner) runs no
// teardown, so a tiny detached shell watches the owner's pid and, once it is gone, stops the
// broker (JVM pid or Docker container) and removes its temporary directory.
import { spawn } from 'node:child_process';

const watchdogScript = `
owner="$1"; broker="$2"; container="$3"; directory="$4"
while kill -0 "$owner" 2>/dev/null; do sleep 1; done
if [ -n "$broker" ] && kill -0 "$broker" 2>/dev/null; then
  kill -TERM "$broker" 2>/dev/null
  i=0; while [ $i -lt 150 ] && kill -0 "$broker" 2>/dev/null; do sleep 0.1; i=$((i+1)); done
  kill -KILL "$broker" 2>/dev/null
fi
if [ -n "$container" ]; then docker rm -f "$container" >/dev/null 2>&1; fi
if [ -n "$directory" ]; then rm -rf -- "$directory"; fi
`;

export type OwnerWatchdog = { pid: number | undefined; cancel(): void };

export function startOwnerWatchdog(target: { brokerPid?: number; container?: string; directory?: string }, ownerPid = process.pid): OwnerWatchdog {
  const child = spawn(
    'sh',
    ['-c', watchdogScript, 'scorestream-broker-watchdog', String(ownerPid), String(target.brokerPid ?? ''), target.container ?? '', target.directory ?? ''],
    // Its own session: a Ctrl+C aimed at the owner must not take the watchdog down with it.
    { detached: true, stdio: 'ignore' },
  );
  child.on('error', () => undefined);
  child.unref();
  return {
    pid: child.pid,
    cancel() {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
}
