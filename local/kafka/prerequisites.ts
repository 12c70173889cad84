// Finds the programs a local broker needs and says exactly what is missing when one is absent:
// Java 17+ to run Kafka's jars, Maven once to download them, and Docker when it is the engine.
import { join } from 'node:path';
import { localBrokerError } from './errors.ts';
import { runCommand } from './run-command.ts';

const installHint =
  'install it (Debian/Ubuntu: `apt-get install -y openjdk-17-jre-headless maven`; macOS: `brew install openjdk@17 maven`), ' +
  'or start Docker, or point KAFKA_BROKERS at a running Kafka broker';

export type Java = { command: string; major: number };

/** Parses the major version out of `java -version` output ("17.0.15", "1.8.0_392", "21"). */
export function parseJavaMajorVersion(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?[^"]*"/.exec(versionOutput);
  if (match === null) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] !== undefined ? Number(match[2]) : first;
}

/** The `java` of JAVA_HOME when set, else the one on PATH; throws unless it is Java 17 or newer. */
export async function findJava(environment: NodeJS.ProcessEnv = process.env): Promise<Java> {
  const javaHome = environment.JAVA_HOME;
  const command = javaHome !== undefined && javaHome !== '' ? join(javaHome, 'bin', 'java') : 'java';
  const result = await runCommand(command, ['-version'], { timeoutMs: 30_000 });
  if (result.missing || result.code !== 0) {
    const where = command === 'java' ? 'no `java` on PATH' : `JAVA_HOME points at ${javaHome}, which has no working bin/java`;
    throw localBrokerError(
      'KAFKA_PREREQUISITE_MISSING',
      `Java 17 or newer is needed to run the local Kafka broker without Docker, but ${where}: ${installHint}.`,
    );
  }
  const major = parseJavaMajorVersion(result.stderr + result.stdout);
  if (major === undefined || major < 17) {
    throw localBrokerError(
      'KAFKA_PREREQUISITE_MISSING',
      `Kafka needs Java 17 or newer, but ${command} is ${major === undefined ? 'of unknown version' : `Java ${major}`}: ${installHint}.`,
    );
  }
  return { command, major };
}

/** Throws a how-to-fix error unless `mvn` runs; Maven is only needed for the one-time download. */
export async function requireMaven(): Promise<void> {
  const result = await runCommand('mvn', ['--version'], { timeoutMs: 60_000 });
  if (result.missing || result.code !== 0) {
    throw localBrokerError(
      'KAFKA_PREREQUISITE_MISSING',
      `Maven (mvn) is needed once to download Apache Kafka's jars from Maven Central, but it ${result.missing ? 'is not on PATH' : 'does not run'}: ${installHint}.`,
    );
  }
}

/** True when a Docker engine answers (`docker info`), not merely when the client is installed. */
export async function dockerEngineAnswers(): Promise<boolean> {
  const result = await runCommand('docker', ['info', '--format', '{{.ServerVersion}}'], { timeoutMs: 15_000 });
  return result.code === 0 && result.stdout.trim() !== '';
}
