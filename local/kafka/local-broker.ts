// Getting a Kafka broker for local use, in order of preference: the brokers named in
// KAFKA_BROKERS (nothing is started), else a broker we start: in Docker when an engine answers,
// else Apache Kafka's jars on the local JVM. `ephemeral` (tests, benchmarks) gets a throwaway
// broker; otherwise the named broker (default 'default') is reused or started.
import type { BrokerHandle } from './broker-handle.ts';
import { brokersFromEnvironment, chooseEngine } from './broker-handle.ts';
import { startEphemeralBroker } from './ephemeral-broker.ts';
import { defaultBrokerName, ensureNamedBroker } from './named-broker.ts';

export type EnsureLocalBrokerOptions = {
  /** Named broker to reuse or start (default 'default'); ignored when ephemeral. */
  name?: string;
  /** A throwaway broker in a temporary directory, removed by stop(). */
  ephemeral?: boolean;
  /** Progress lines for humans (download, start, ready). */
  onProgress?: (line: string) => void;
  /** A secured named broker (TLS, SASL, mTLS, deny-by-default ACLs; docs/security.md); KAFKA_BROKERS is ignored. */
  secure?: boolean;
};

export async function ensureLocalBroker(options: EnsureLocalBrokerOptions = {}): Promise<BrokerHandle> {
  if (options.secure === true) return ensureNamedBroker(options.name ?? 'secure', options.onProgress, { secure: true });
  const configured = brokersFromEnvironment();
  if (configured !== undefined) {
    options.onProgress?.(`using KAFKA_BROKERS=${configured.join(',')}; no local broker started`);
    return { brokers: configured, mode: 'env', reused: true, stop: async () => undefined };
  }
  if (options.ephemeral === true) return startEphemeralBroker(await chooseEngine(), options.onProgress);
  return ensureNamedBroker(options.name ?? defaultBrokerName, options.onProgress);
}

// The whole local-broker API is also reachable from this module (as well as from index.ts).
export { localBrokerStatus, stopLocalBroker } from './named-broker.ts';
export type { LocalBrokerStatus } from './named-broker.ts';
export type { BrokerHandle, BrokerMode } from './broker-handle.ts';
export { fetchKafkaJars } from './kafka-jars.ts';
