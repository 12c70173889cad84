import { defineConfig } from 'vitest/config';

/**
 * Integration files running at once. Their tests mostly wait (on the broker, on mock judges that
 * take seconds, on child processes), so more files than cores fit: on 2 cores with the broker's
 * JVM beside them, 3 finished well ahead of 2, and 4 barely ahead of 3 while crowding the CPU
 * that timing-sensitive tests (heartbeats, shutdown deadlines) share with the broker.
 */
const integrationWorkers = 3;

/** The delivery files the default run repeats on kafkajs, the other client (the integration-kafkajs project). */
const kafkajsDeliveryFiles = [
  'test/integration/service/exactly-once.test.ts',
  'test/integration/service/exactly-once-crash.test.ts',
  'test/integration/service/exactly-once-broker-restart.test.ts',
  'test/integration/service/process-lifecycle.test.ts',
  'test/integration/service/rebalance.test.ts',
  'test/integration/service/broker-restart.test.ts',
  // TLS, SASL, ACLs and transactions on a broker that enforces them.
  'test/integration/security/secured-broker.test.ts',
];

// Two projects: unit tests never touch the network; integration tests get one real Kafka broker
// for the whole run (test/setup/kafka.global.ts) and unique topics and groups per test
// (test/helpers/kafka.ts), so their files run side by side. Tests that stop, restart or kill a
// broker use a broker of their own (test/helpers/restartable-broker.ts, local/kafka), never the
// shared one.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // Every core (vitest's default leaves one free, i.e. a single worker on 2 cores): unit
          // tests keep the CPU busy, and nothing else runs during them but the broker's start.
          maxWorkers: '100%',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/setup/kafka.global.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // A process per file: some tests install OpenTelemetry's process-wide globals or stub
          // environment variables, which must not leak into files running beside them.
          pool: 'forks',
          maxWorkers: integrationWorkers,
          // After the unit tests (vitest runs projects with different worker counts in turn), so
          // CPU-bound unit tests do not slow the broker down.
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          // The core delivery tests once more with the scoring path on kafkajs (`kafka.client:
          // 'kafkajs'`, read by test/helpers/service.ts; the integration project runs everything on
          // the default, @platformatic/kafka): at-least-once and exactly-once across SIGKILL,
          // rebalance, broker restart, a fenced producer and two instances, and the secured
          // broker. The rest of the files run on kafkajs on demand
          // (SCORESTREAM_TEST_KAFKA_CLIENT=kafkajs npx vitest run --project integration <files>;
          // docs/delivery.md lists the results per client).
          name: 'integration-kafkajs',
          include: kafkajsDeliveryFiles,
          environment: 'node',
          env: { SCORESTREAM_TEST_KAFKA_CLIENT: 'kafkajs' },
          globalSetup: ['test/setup/kafka.global.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          pool: 'forks',
          maxWorkers: integrationWorkers,
          // After the integration project: two brokers' JVMs at once crowd 2 cores.
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          // The real local judge (node-llama-cpp on the CPU): last and alone, because it takes
          // every core while it generates, which the integration files' timing-sensitive tests
          // (heartbeats, shutdown deadlines) must not share. Its own broker, like integration's.
          name: 'local-model',
          include: ['test/local-model/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/setup/kafka.global.ts'],
          testTimeout: 600_000,
          hookTimeout: 600_000,
          pool: 'forks',
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
