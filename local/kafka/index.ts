// The local Kafka broker toolkit, for the CLI, tests, benchmarks and the demo.
export { ensureLocalBroker } from './local-broker.ts';
export type { EnsureLocalBrokerOptions } from './local-broker.ts';
export { defaultBrokerName, localBrokerStatus, stopLocalBroker } from './named-broker.ts';
export type { LocalBrokerStatus } from './named-broker.ts';
export type { BrokerHandle, BrokerMode } from './broker-handle.ts';
export { brokersFromEnvironment } from './broker-handle.ts';
export { cachedKafkaJars, fetchKafkaJars } from './kafka-jars.ts';
export { nodeCompileCacheDirectory } from './paths.ts';
export { quietKafka, silenceKafkajsWarnings } from './quiet.ts';
export { brokerAnswers, waitForBroker } from './readiness.ts';
export { KAFKA_DOCKER_IMAGE, KAFKA_VERSION } from './versions.ts';
