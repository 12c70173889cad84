// Runs the broker as an apache/kafka container when a Docker engine answers. The container listens
// on 9092 inside, is published on a free 127.0.0.1 port and advertises that address, so host
// clients connect directly. Readiness is the same admin-API check as for the JVM broker.
import { dockerBrokerEnvironment } from './broker-config.ts';
import { localBrokerError } from './errors.ts';
import { waitForBroker } from './readiness.ts';
import { warmUpCoordinators } from './warm-up.ts';
import { lastLines, runCommand } from './run-command.ts';
import { KAFKA_DOCKER_IMAGE } from './versions.ts';

export function brokerContainerName(name: string): string {
  return `scorestream-kafka-${name}`;
}

/**
 * Arguments of `docker run` for a broker container (pure, so it can be checked without Docker).
 * No `--rm`: a container that dies during start-up must keep its logs for the error message;
 * stop() and the owner watchdog remove containers.
 */
export function dockerRunArguments(options: { container: string; hostPort: number; clusterId: string }): string[] {
  const environment = {
    ...dockerBrokerEnvironment({ hostPort: options.hostPort, clusterId: options.clusterId }),
    // The image passes KAFKA_HEAP_OPTS to the JVM (its default heap is 1 GiB).
    KAFKA_HEAP_OPTS: '-Xms256m -Xmx512m',
  };
  const variables = Object.entries(environment).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
  return [
    'run',
    '--detach',
    '--name',
    options.container,
    '--label',
    'dev.scorestream.broker=true',
    '--publish',
    `127.0.0.1:${options.hostPort}:9092`,
    ...variables,
    KAFKA_DOCKER_IMAGE,
  ];
}

export async function containerRunning(container: string): Promise<boolean> {
  const result = await runCommand('docker', ['inspect', '--format', '{{.State.Running}}', container], { timeoutMs: 15_000 });
  return result.code === 0 && result.stdout.trim() === 'true';
}

export async function removeContainer(container: string, graceSeconds = 15): Promise<boolean> {
  const stopped = await runCommand('docker', ['stop', '--time', String(graceSeconds), container], { timeoutMs: (graceSeconds + 30) * 1000 });
  const removed = await runCommand('docker', ['rm', '--force', container], { timeoutMs: 30_000 });
  return stopped.code === 0 || removed.code === 0;
}

async function ensureImage(onProgress?: (line: string) => void): Promise<void> {
  const present = await runCommand('docker', ['image', 'inspect', KAFKA_DOCKER_IMAGE], { timeoutMs: 30_000 });
  if (present.code === 0) return;
  onProgress?.(`pulling ${KAFKA_DOCKER_IMAGE} (once)`);
  const pulled = await runCommand('docker', ['pull', KAFKA_DOCKER_IMAGE], { timeoutMs: 15 * 60_000 });
  if (pulled.code !== 0) {
    throw localBrokerError(
      'KAFKA_BROKER_START_FAILED',
      `docker pull ${KAFKA_DOCKER_IMAGE} failed; check the engine's network access, or set SCORESTREAM_KAFKA_MODE=jvm to run Kafka on the local JVM instead:\n${lastLines(pulled.stderr, 10)}`,
    );
  }
}

export type StartedDockerBroker = { container: string; brokers: string[]; readyAfterMs: number };

export async function startDockerBroker(options: {
  container: string;
  hostPort: number;
  clusterId: string;
  readyTimeoutMs?: number;
  onProgress?: (line: string) => void;
}): Promise<StartedDockerBroker> {
  await ensureImage(options.onProgress);
  // A stopped leftover with the same name would make `docker run` fail.
  await runCommand('docker', ['rm', '--force', options.container], { timeoutMs: 30_000 });
  const brokers = [`127.0.0.1:${options.hostPort}`];
  options.onProgress?.(`starting ${KAFKA_DOCKER_IMAGE} as container ${options.container} at ${brokers[0]}`);
  const run = await runCommand('docker', dockerRunArguments(options), { timeoutMs: 120_000 });
  if (run.code !== 0) {
    throw localBrokerError('KAFKA_BROKER_START_FAILED', `docker run ${KAFKA_DOCKER_IMAGE} failed:\n${lastLines(run.stderr, 10)}`);
  }
  let checks = 0;
  const readiness = await waitForBroker(brokers, {
    timeoutMs: options.readyTimeoutMs ?? 120_000,
    intervalMs: 250,
    // docker inspect costs a process spawn: check the container every few attempts only.
    isAlive: async () => (checks++ % 4 === 0 ? containerRunning(options.container) : true),
  });
  if (!readiness.ready) {
    const logs = await runCommand('docker', ['logs', '--tail', '40', options.container], { timeoutMs: 30_000 });
    await runCommand('docker', ['rm', '--force', options.container], { timeoutMs: 30_000 });
    throw localBrokerError(
      'KAFKA_BROKER_START_FAILED',
      `The Kafka container ${options.container} did not become ready: ${readiness.reason}.\n--- docker logs (last lines) ---\n${lastLines(logs.stdout + '\n' + logs.stderr, 40)}`,
    );
  }
  // A failed warm-up is not a failed start: clients retry the same way, only noisier.
  await warmUpCoordinators(brokers).catch(() => undefined);
  options.onProgress?.(`Kafka ${brokers[0]} ready after ${(readiness.elapsedMs / 1000).toFixed(1)} s (container ${options.container})`);
  return { container: options.container, brokers, readyAfterMs: readiness.elapsedMs };
}
