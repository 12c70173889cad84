// Global setup of the `integration` project: one real Kafka broker for the whole run. It is the
// broker named by KAFKA_BROKERS when set, else an ephemeral one (Docker or the local JVM) that the
// returned teardown stops and removes. Tests reach it through `inject('kafkaBrokers')`, wrapped by
// test/helpers/kafka.ts. If the runner is killed outright, the broker's watchdog cleans up.
import type { TestProject } from 'vitest/node';
import { ensureLocalBroker } from '../../scripts/kafka/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Bootstrap addresses of the integration tests' broker, e.g. ['127.0.0.1:40123']. */
    kafkaBrokers: string[];
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const broker = await ensureLocalBroker({ ephemeral: true, onProgress: (line) => console.error(`[kafka] ${line}`) });
  console.error(`[kafka] integration broker ${broker.brokers.join(',')} (${broker.mode}) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('kafkaBrokers', broker.brokers);
  return async () => {
    await broker.stop();
  };
}
