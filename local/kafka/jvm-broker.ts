// Runs Apache Kafka's own broker (kafka.Kafka) on the local JVM from the cached Maven jars: writes
// server.properties and a log4j2 file into the broker's directory, formats the KRaft storage the
// first time, starts the JVM with a small heap and its output in files, and waits until the admin
// API answers. A failed start kills the JVM and reports the tail of the broker's own log.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderLog4j2Properties, renderProperties, renderServerProperties } from './broker-config.ts';
import type { BrokerPorts } from './broker-config.ts';
import { localBrokerError } from './errors.ts';
import { fetchKafkaJars } from './kafka-jars.ts';
import { tailFile } from './log-tail.ts';
import { findJava } from './prerequisites.ts';
import { isProcessAlive, terminateProcess } from './processes.ts';
import { waitForBroker } from './readiness.ts';
import type { ClientSecurity } from './readiness.ts';
import { oauthJvmOptions, scramFormatArguments, secureServerSettings } from './secure-config.ts';
import type { BrokerOAuth } from './secure-config.ts';
import { ADMIN_USER } from './secure-materials.ts';
import type { SecurityMaterials } from './secure-materials.ts';
import { warmUpCoordinators } from './warm-up.ts';
import { lastLines, runCommand } from './run-command.ts';

export type JvmBrokerFiles = {
  directory: string;
  dataDirectory: string;
  serverProperties: string;
  log4jProperties: string;
  logFile: string;
  jvmOutput: string;
};

export function jvmBrokerFiles(directory: string): JvmBrokerFiles {
  return {
    directory,
    dataDirectory: join(directory, 'data'),
    serverProperties: join(directory, 'server.properties'),
    log4jProperties: join(directory, 'log4j2.properties'),
    logFile: join(directory, 'broker.log'),
    jvmOutput: join(directory, 'jvm.out'),
  };
}

/**
 * JVM options: a 512 MiB heap is plenty for a local broker; the serial collector and C1-only
 * compilation cut start-up time and memory, at a cost in peak throughput nobody measures locally.
 * SCORESTREAM_KAFKA_JVM_OPTIONS (space-separated) replaces them, e.g. for benchmarks.
 */
export function brokerJvmOptions(environment: NodeJS.ProcessEnv = process.env): string[] {
  const configured = environment.SCORESTREAM_KAFKA_JVM_OPTIONS;
  if (configured !== undefined && configured.trim() !== '') return configured.trim().split(/\s+/);
  return ['-Xms128m', '-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:+ExitOnOutOfMemoryError', '-Djava.awt.headless=true'];
}

export type StartJvmBrokerOptions = {
  directory: string;
  ports: BrokerPorts;
  clusterId: string;
  /** Named brokers outlive the command that started them: a new session, no ties to our terminal. */
  detached: boolean;
  readyTimeoutMs?: number;
  onProgress?: (line: string) => void;
  /** Called as soon as the JVM runs, before it is ready: lets a named broker record its pid early. */
  onSpawned?: (pid: number) => Promise<void>;
  /** A secured broker (secure-config.ts): its certificates and users, and the mutual-TLS port. */
  security?: { materials: SecurityMaterials; mtlsPort: number; oauth?: BrokerOAuth };
};

export type StartedJvmBroker = {
  pid: number;
  /** Bootstrap addresses; for a secured broker, its SASL_SSL listener. */
  brokers: string[];
  /** A secured broker's mutual-TLS listener. */
  mtlsBrokers?: string[];
  child: ChildProcess;
  files: JvmBrokerFiles;
  readyAfterMs: number;
};

/** How the admin user of a secured broker connects: SCRAM-SHA-512 over TLS with the broker's CA. */
export function adminSecurity(materials: SecurityMaterials): ClientSecurity {
  return {
    ssl: { ca: [readFileSync(materials.caCertificate, 'utf8')] },
    sasl: { mechanism: 'scram-sha-512', username: ADMIN_USER, password: materials.users[ADMIN_USER] ?? '' },
  };
}

async function brokerLogTail(files: JvmBrokerFiles): Promise<string> {
  const log = await tailFile(files.logFile, 40);
  const jvm = await tailFile(files.jvmOutput, 15);
  const parts = [];
  if (log !== '') parts.push(`--- ${files.logFile} (last lines) ---\n${log}`);
  if (jvm !== '') parts.push(`--- ${files.jvmOutput} (last lines) ---\n${jvm}`);
  return parts.length === 0 ? '(the broker wrote no log)' : parts.join('\n');
}

async function formatStorage(java: string, classpath: string, files: JvmBrokerFiles, clusterId: string, extraArguments: string[]): Promise<void> {
  if (existsSync(join(files.dataDirectory, 'meta.properties'))) return;
  const result = await runCommand(
    java,
    ['-Xmx256m', '-XX:TieredStopAtLevel=1', `-Dlog4j2.configurationFile=${files.log4jProperties}`, '-cp', classpath, 'kafka.tools.StorageTool', 'format', `--cluster-id=${clusterId}`, '--config', files.serverProperties, ...extraArguments],
    { timeoutMs: 120_000 },
  );
  if (result.code !== 0) {
    throw localBrokerError(
      'KAFKA_BROKER_START_FAILED',
      `Formatting the Kafka storage in ${files.dataDirectory} failed; remove that directory and retry. StorageTool said:\n${redactScram(lastLines(result.stdout + '\n' + result.stderr, 20))}`,
    );
  }
}

// StorageTool may echo its arguments, SCRAM passwords included.
function redactScram(text: string): string {
  return text.replace(/password=[^\]\s]*/g, 'password=[redacted]');
}

export async function startJvmBroker(options: StartJvmBrokerOptions): Promise<StartedJvmBroker> {
  const java = await findJava();
  const jars = await fetchKafkaJars(options.onProgress);
  const classpath = join(jars, '*');
  const files = jvmBrokerFiles(options.directory);
  await mkdir(files.dataDirectory, { recursive: true });
  const { security } = options;
  await writeFile(
    files.serverProperties,
    security === undefined
      ? renderServerProperties({ ports: options.ports, dataDirectory: files.dataDirectory })
      : renderProperties(secureServerSettings({ ports: { ...options.ports, mtls: security.mtlsPort }, dataDirectory: files.dataDirectory, materials: security.materials, ...(security.oauth === undefined ? {} : { oauth: security.oauth }) })),
    // A secured broker's properties hold its PLAIN users' passwords.
    { mode: 0o600 },
  );
  await writeFile(files.log4jProperties, renderLog4j2Properties(files.logFile));
  await formatStorage(java.command, classpath, files, options.clusterId, security === undefined ? [] : scramFormatArguments(security.materials));
  const clientSecurity = security === undefined ? {} : adminSecurity(security.materials);

  const brokers = [`127.0.0.1:${options.ports.broker}`];
  options.onProgress?.(`starting Kafka on the local JVM (Java ${java.major}) at ${brokers[0]}; log: ${files.logFile}`);
  const spawnedAt = Date.now();
  const output = openSync(files.jvmOutput, 'a');
  let child: ChildProcess;
  try {
    child = spawn(
      java.command,
      [...brokerJvmOptions(), ...oauthJvmOptions(security?.oauth), `-Dlog4j2.configurationFile=${files.log4jProperties}`, '-cp', classpath, 'kafka.Kafka', files.serverProperties],
      { detached: options.detached, stdio: ['ignore', output, output], cwd: options.directory },
    );
  } finally {
    closeSync(output);
  }
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  let exited = false;
  child.once('exit', () => (exited = true));
  // Never keep our event loop alive for the broker: stop() or the exit hooks end it.
  child.unref();
  const pid = child.pid;
  if (pid === undefined) {
    throw localBrokerError('KAFKA_BROKER_START_FAILED', `Could not start ${java.command}: ${(await spawnError).message}`);
  }

  await options.onSpawned?.(pid);
  const readiness = await waitForBroker(brokers, {
    timeoutMs: options.readyTimeoutMs ?? 90_000,
    isAlive: () => !exited && isProcessAlive(pid),
    security: clientSecurity,
  });
  if (!readiness.ready) {
    await terminateProcess(pid, 5_000);
    throw localBrokerError(
      'KAFKA_BROKER_START_FAILED',
      `The Kafka broker in ${options.directory} did not become ready: ${readiness.reason}.\n${await brokerLogTail(files)}`,
    );
  }
  // A failed warm-up is not a failed start: clients retry the same way, only noisier.
  await warmUpCoordinators(brokers, clientSecurity).catch(() => undefined);
  options.onProgress?.(`Kafka ${brokers[0]} ready after ${((Date.now() - spawnedAt) / 1000).toFixed(1)} s (pid ${pid})`);
  const mtlsBrokers = security === undefined ? {} : { mtlsBrokers: [`127.0.0.1:${security.mtlsPort}`] };
  return { pid, brokers, ...mtlsBrokers, child, files, readyAfterMs: Date.now() - spawnedAt };
}
