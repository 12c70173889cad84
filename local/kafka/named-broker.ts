// A named broker that outlives the command that started it (`scorestream kafka start`, the demo):
// its state lives in ${XDG_STATE_HOME:-~/.local/state}/scorestream/brokers/<name>/ (broker.json,
// server.properties, data/, broker.log). Starting reuses it when its process is alive AND its
// admin API answers; a live but unresponsive one is stopped and started afresh. Data is kept
// between stop and start (JVM mode); `purge` removes it. A secured one (`kafka start --secure`,
// secure-config.ts) keeps its certificates and users' passwords in tls/ beside its data.
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { newClusterId } from './broker-config.ts';
import { chooseEngine, isAddressInUse } from './broker-handle.ts';
import type { BrokerHandle } from './broker-handle.ts';
import { readBrokerState, writeBrokerState } from './broker-state.ts';
import type { BrokerState } from './broker-state.ts';
import { withDirectoryLock } from './directory-lock.ts';
import { brokerContainerName, containerRunning, removeContainer, startDockerBroker } from './docker-broker.ts';
import { localBrokerError } from './errors.ts';
import { jvmBrokerFiles, startJvmBroker } from './jvm-broker.ts';
import { brokerStateDirectory, isValidBrokerName } from './paths.ts';
import { freePort, pickBrokerPorts } from './ports.ts';
import { isBrokerProcess, terminateProcess } from './processes.ts';
import { brokerAnswers, waitForBroker } from './readiness.ts';
import type { ClientSecurity } from './readiness.ts';
import { adminSecurity } from './jvm-broker.ts';
import { ensureSecurityMaterials, readSecurityMaterials } from './secure-materials.ts';
import { KAFKA_VERSION } from './versions.ts';

export const defaultBrokerName = 'default';
/** The default broker prefers these ports so its address stays the same from run to run. */
const defaultBrokerPorts = { broker: 39092, controller: 39093 };

type Liveness = 'running' | 'unresponsive' | 'stopped';

function stateDirectory(name: string): string {
  if (!isValidBrokerName(name)) {
    throw localBrokerError('KAFKA_INVALID_BROKER_NAME', `Broker name '${name}' is not valid: use letters, digits, '.', '_' and '-' (at most 64).`);
  }
  return brokerStateDirectory(name);
}

async function processRuns(directory: string, state: BrokerState): Promise<boolean> {
  if (state.mode === 'jvm') return state.pid !== undefined && (await isBrokerProcess(state.pid, jvmBrokerFiles(directory).serverProperties));
  return state.container !== undefined && (await containerRunning(state.container));
}

/** How setup and probes connect: as the admin user of a secured broker; plainly otherwise. */
async function probeSecurity(directory: string, state: BrokerState): Promise<ClientSecurity> {
  if (state.secure !== true) return {};
  const materials = await readSecurityMaterials(directory);
  return materials === undefined ? {} : adminSecurity(materials);
}

async function liveness(directory: string, state: BrokerState): Promise<Liveness> {
  if (!(await processRuns(directory, state))) return 'stopped';
  return (await brokerAnswers(state.brokers, 5_000, await probeSecurity(directory, state))) ? 'running' : 'unresponsive';
}

async function stopByState(directory: string, state: BrokerState): Promise<void> {
  if (state.mode === 'jvm') {
    if (state.pid !== undefined && (await isBrokerProcess(state.pid, jvmBrokerFiles(directory).serverProperties))) await terminateProcess(state.pid);
  } else if (state.container !== undefined) {
    await removeContainer(state.container);
  }
}

/** The SASL users of a secured named broker besides `admin`: one per role (docs/security.md). */
export const secureBrokerUsers = ['scorestream', 'producer', 'tail', 'dashboard', 'agreement', 'monitor', 'replay'] as const;

async function startFresh(name: string, directory: string, previous: BrokerState | undefined, secure: boolean, onProgress?: (line: string) => void): Promise<BrokerState> {
  // A secured broker runs on the JVM: its certificates need openssl and its setup Java's tools.
  const engine = secure ? 'jvm' : await chooseEngine();
  const clusterId = previous?.clusterId ?? newClusterId();
  const preferredPorts = previous?.ports ?? (name === defaultBrokerName ? defaultBrokerPorts : undefined);
  for (let attempt = 1; ; attempt++) {
    const ports = await pickBrokerPorts(attempt === 1 ? preferredPorts : undefined);
    const base = { kafkaVersion: KAFKA_VERSION, clusterId, ports, startedAt: new Date().toISOString() };
    try {
      if (engine === 'docker') {
        const container = brokerContainerName(name);
        const started = await startDockerBroker({ container, hostPort: ports.broker, clusterId, onProgress });
        return { ...base, mode: 'docker', brokers: started.brokers, container };
      }
      const brokers = [`127.0.0.1:${ports.broker}`];
      const security = secure ? { materials: await ensureSecurityMaterials(directory, secureBrokerUsers), mtlsPort: previous?.ports.mtls ?? (await freePort()) } : undefined;
      const secured = security === undefined ? {} : { secure: true, ports: { ...ports, mtls: security.mtlsPort }, mtlsBrokers: [`127.0.0.1:${security.mtlsPort}`] };
      // Recorded before readiness: if this command is interrupted, the next one finds the JVM.
      const onSpawned = (pid: number) => writeBrokerState(directory, { ...base, ...secured, mode: 'jvm', brokers, pid });
      const started = await startJvmBroker({ directory, ports, clusterId, detached: true, onProgress, onSpawned, ...(security === undefined ? {} : { security }) });
      return { ...base, ...secured, mode: 'jvm', brokers: started.brokers, pid: started.pid };
    } catch (error) {
      if (attempt >= 2 || !isAddressInUse(error)) throw error;
      onProgress?.('a picked port was taken meanwhile; retrying with new ports');
    }
  }
}

function namedHandle(name: string, directory: string, state: BrokerState, reused: boolean): BrokerHandle {
  let stopping: Promise<void> | undefined;
  return {
    brokers: state.brokers,
    ...(state.mtlsBrokers === undefined ? {} : { mtlsBrokers: state.mtlsBrokers }),
    mode: state.mode,
    reused,
    ...(state.pid === undefined ? {} : { pid: state.pid }),
    directory,
    stop: () => (stopping ??= stopLocalBroker(name).then(() => undefined)),
  };
}

export async function ensureNamedBroker(name: string, onProgress?: (line: string) => void, options: { secure?: boolean } = {}): Promise<BrokerHandle> {
  const secure = options.secure === true;
  const directory = stateDirectory(name);
  await mkdir(directory, { recursive: true });
  return withDirectoryLock(
    join(directory, '.lock'),
    async () => {
      const previous = await readBrokerState(directory);
      if (previous !== undefined && (previous.secure === true) !== secure) {
        throw localBrokerError(
          'KAFKA_INVALID_BROKER_NAME',
          `The '${name}' broker was made ${previous.secure === true ? 'secured' : 'without security'}: use another --name, or remove it first with \`scorestream kafka stop --name ${name} --purge\`.`,
        );
      }
      if (previous !== undefined) {
        const state = await liveness(directory, previous);
        if (state === 'running') {
          onProgress?.(`reusing the running '${name}' broker at ${previous.brokers.join(',')}`);
          return namedHandle(name, directory, previous, true);
        }
        if (state === 'unresponsive') {
          // Perhaps still starting (its starter was interrupted): give it the usual start-up time.
          onProgress?.(`the '${name}' broker runs but does not answer yet; waiting for it`);
          const answer = await waitForBroker(previous.brokers, { timeoutMs: 60_000, isAlive: () => processRuns(directory, previous), security: await probeSecurity(directory, previous) });
          if (answer.ready) return namedHandle(name, directory, previous, true);
          onProgress?.(`the '${name}' broker did not answer (${answer.reason}); restarting it`);
          await stopByState(directory, previous);
        }
      }
      const started = await startFresh(name, directory, previous, secure, onProgress);
      await writeBrokerState(directory, started);
      return namedHandle(name, directory, started, false);
    },
    { onWait: (owner) => onProgress?.(`waiting for process ${owner ?? 'unknown'}, which is starting or stopping the '${name}' broker`) },
  );
}

/** Stops the named broker; true when one was running. `purge` also deletes its data and logs. */
export async function stopLocalBroker(name = defaultBrokerName, options: { purge?: boolean } = {}): Promise<boolean> {
  const directory = stateDirectory(name);
  if (!existsSync(directory)) return false;
  const stopped = await withDirectoryLock(join(directory, '.lock'), async () => {
    const state = await readBrokerState(directory);
    if (state === undefined) return false;
    const wasRunning = (await liveness(directory, state)) !== 'stopped';
    await stopByState(directory, state);
    await writeBrokerState(directory, { ...state, pid: undefined, container: undefined });
    return wasRunning;
  });
  if (options.purge === true) await rm(directory, { recursive: true, force: true });
  return stopped;
}

export type LocalBrokerStatus = {
  running: boolean;
  mode?: string;
  brokers?: string[];
  pid?: number;
  container?: string;
  /** Where its files are, and why it is not running when it is not. */
  directory: string;
  detail?: string;
};

export async function localBrokerStatus(name = defaultBrokerName): Promise<LocalBrokerStatus> {
  const directory = stateDirectory(name);
  const state = existsSync(directory) ? await readBrokerState(directory) : undefined;
  if (state === undefined) return { running: false, directory, detail: 'never started' };
  const current = await liveness(directory, state);
  const where = { mode: state.mode, brokers: state.brokers, pid: state.pid, container: state.container, directory };
  if (current === 'running') return { running: true, ...where };
  if (current === 'unresponsive') return { running: false, ...where, detail: 'its process is alive but the broker does not answer' };
  return { running: false, mode: state.mode, directory, detail: 'stopped' };
}
