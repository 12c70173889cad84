// The shape every way of getting a broker hands back, and the choice of engine.
import { localBrokerError } from './errors.ts';
import { dockerEngineAnswers } from './prerequisites.ts';

export type BrokerMode = 'env' | 'docker' | 'jvm';

export type BrokerHandle = {
  /** Bootstrap addresses for clients, e.g. ['127.0.0.1:39092']; a secured broker's SASL_SSL listener. */
  brokers: string[];
  /** A secured broker's mutual-TLS listener. */
  mtlsBrokers?: string[];
  mode: BrokerMode;
  /** True when the broker was already running (or given by KAFKA_BROKERS) rather than started by this call. */
  reused: boolean;
  /** The JVM broker's process id (mode 'jvm' only). */
  pid?: number;
  /** The directory holding the broker's config, data and log (modes 'jvm' and named 'docker'). */
  directory?: string;
  /**
   * Stops the broker: an ephemeral one is stopped and its directory removed; a named one is stopped
   * even when this call reused it (check `reused` to leave a broker you found running alone);
   * a KAFKA_BROKERS one is left alone. Safe to call more than once.
   */
  stop(): Promise<void>;
};

export type BrokerEngine = 'docker' | 'jvm';

/** KAFKA_BROKERS split on commas, or undefined when unset or blank. */
export function brokersFromEnvironment(environment: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const brokers = (environment.KAFKA_BROKERS ?? '')
    .split(',')
    .map((broker) => broker.trim())
    .filter((broker) => broker !== '');
  return brokers.length > 0 ? brokers : undefined;
}

/**
 * Docker when an engine answers, else the local JVM. SCORESTREAM_KAFKA_MODE=docker|jvm forces one
 * (e.g. jvm on a machine whose Docker should not be used).
 */
export async function chooseEngine(
  environment: NodeJS.ProcessEnv = process.env,
  dockerAnswers: () => Promise<boolean> = dockerEngineAnswers,
): Promise<BrokerEngine> {
  const forced = environment.SCORESTREAM_KAFKA_MODE?.trim().toLowerCase();
  if (forced === 'jvm') return 'jvm';
  if (forced === 'docker') {
    if (await dockerAnswers()) return 'docker';
    throw localBrokerError(
      'KAFKA_PREREQUISITE_MISSING',
      'SCORESTREAM_KAFKA_MODE=docker but no Docker engine answers `docker info`: start Docker, or unset SCORESTREAM_KAFKA_MODE to run Kafka on the local JVM.',
    );
  }
  if (forced !== undefined && forced !== '') {
    throw localBrokerError('KAFKA_PREREQUISITE_MISSING', `SCORESTREAM_KAFKA_MODE must be 'docker' or 'jvm', not '${forced}'.`);
  }
  return (await dockerAnswers()) ? 'docker' : 'jvm';
}

/** A port taken between picking and binding shows as a BindException in the broker's log. */
export function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && /Address already in use|BindException|port is already allocated/.test(error.message);
}
