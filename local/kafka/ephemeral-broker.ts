// A throwaway broker for tests and benchmarks: a temporary directory, free ports, a fresh cluster.
// stop() ends it and removes the directory. If the owning Node process ends without calling
// stop(), an exit hook signals the JVM and a detached watchdog finishes the cleanup (also after a
// SIGKILL of the owner, which runs no hooks at all).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { newClusterId } from './broker-config.ts';
import { isAddressInUse } from './broker-handle.ts';
import type { BrokerEngine, BrokerHandle } from './broker-handle.ts';
import { removeContainer, startDockerBroker } from './docker-broker.ts';
import { startJvmBroker } from './jvm-broker.ts';
import type { StartedJvmBroker, StartJvmBrokerOptions } from './jvm-broker.ts';
import { startOwnerWatchdog } from './owner-watchdog.ts';
import { freePort, pickBrokerPorts } from './ports.ts';
import { terminateProcess } from './processes.ts';

function once(action: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= action());
}

/** Makes a secured broker's certificates and users in its directory (secure-broker.ts). */
export type PrepareSecurity = (directory: string) => Promise<StartJvmBrokerOptions['security']>;

async function startJvmInTemporaryDirectory(onProgress?: (line: string) => void, prepareSecurity?: PrepareSecurity): Promise<{ started: StartedJvmBroker; directory: string }> {
  for (let attempt = 1; ; attempt++) {
    const directory = await mkdtemp(join(tmpdir(), 'scorestream-kafka-'));
    try {
      const security = await prepareSecurity?.(directory);
      const started = await startJvmBroker({
        directory,
        ports: await pickBrokerPorts(),
        clusterId: newClusterId(),
        detached: false,
        onProgress,
        ...(security === undefined ? {} : { security }),
      });
      return { started, directory };
    } catch (error) {
      await rm(directory, { recursive: true, force: true });
      if (attempt >= 2 || !isAddressInUse(error)) throw error;
      onProgress?.('a picked port was taken meanwhile; retrying with new ports');
    }
  }
}

/** An ephemeral broker on the local JVM, plain or (with `prepareSecurity`) secured. */
export async function startEphemeralJvmBroker(onProgress?: (line: string) => void, prepareSecurity?: PrepareSecurity): Promise<BrokerHandle> {
  const { started, directory } = await startJvmInTemporaryDirectory(onProgress, prepareSecurity);
  const watchdog = startOwnerWatchdog({ brokerPid: started.pid, directory });
  const onExit = () => {
    try {
      process.kill(started.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  process.on('exit', onExit);
  return {
    brokers: started.brokers,
    ...(started.mtlsBrokers === undefined ? {} : { mtlsBrokers: started.mtlsBrokers }),
    mode: 'jvm',
    reused: false,
    pid: started.pid,
    directory,
    stop: once(async () => {
      process.off('exit', onExit);
      watchdog.cancel();
      await terminateProcess(started.pid);
      await rm(directory, { recursive: true, force: true });
    }),
  };
}

async function startEphemeralDockerBroker(onProgress?: (line: string) => void): Promise<BrokerHandle> {
  const container = `scorestream-kafka-ephemeral-${randomBytes(4).toString('hex')}`;
  const started = await startDockerBroker({ container, hostPort: await freePort(), clusterId: newClusterId(), onProgress });
  const watchdog = startOwnerWatchdog({ container });
  return {
    brokers: started.brokers,
    mode: 'docker',
    reused: false,
    stop: once(async () => {
      watchdog.cancel();
      await removeContainer(container, 5);
    }),
  };
}

export function startEphemeralBroker(engine: BrokerEngine, onProgress?: (line: string) => void): Promise<BrokerHandle> {
  return engine === 'docker' ? startEphemeralDockerBroker(onProgress) : startEphemeralJvmBroker(onProgress);
}
