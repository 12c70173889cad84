// Global setup of the `integration` project: one real Kafka broker for the whole run. It is the
// broker named by KAFKA_BROKERS when set; else, where a Docker engine answers, a Testcontainers
// Kafka container; else an ephemeral Apache Kafka on the local JVM. The returned teardown stops
// it. Tests reach it through `inject('kafkaBrokers')`, wrapped by test/helpers/kafka.ts. If the
// runner is killed outright, the JVM broker's watchdog (or Testcontainers' reaper) cleans up.
import type { TestProject } from 'vitest/node';
import { brokersFromEnvironment, ensureLocalBroker } from '../../local/kafka/index.ts';
import { chooseEngine } from '../../local/kafka/broker-handle.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Bootstrap addresses of the integration tests' broker, e.g. ['127.0.0.1:40123']. */
    kafkaBrokers: string[];
  }
}

/** The image Testcontainers' Kafka module drives (it configures Confluent's entrypoint). */
const TESTCONTAINERS_KAFKA_IMAGE = 'confluentinc/cp-kafka:7.9.2';

type Broker = { brokers: string[]; mode: string; stop(): Promise<void> };

async function startTestcontainersBroker(): Promise<Broker> {
  // Loaded only here: machines without Docker never pay for (or need) Testcontainers.
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const container = await new KafkaContainer(TESTCONTAINERS_KAFKA_IMAGE).withKraft().start();
  return {
    brokers: [`${container.getHost()}:${container.getMappedPort(9093)}`],
    mode: 'testcontainers',
    stop: async () => {
      await container.stop();
    },
  };
}

async function startBroker(): Promise<Broker> {
  if (brokersFromEnvironment() === undefined && (await chooseEngine()) === 'docker') return startTestcontainersBroker();
  return ensureLocalBroker({ ephemeral: true, onProgress: (line) => console.error(`[kafka] ${line}`) });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const broker = await startBroker();
  console.error(`[kafka] integration broker ${broker.brokers.join(',')} (${broker.mode}) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('kafkaBrokers', broker.brokers);
  return async () => {
    await broker.stop();
  };
}
