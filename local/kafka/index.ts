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
export { startSecureEphemeralBroker } from './secure-broker.ts';
export type { SecureBrokerHandle, StartSecureBrokerOptions } from './secure-broker.ts';
export { secureBrokerUsers } from './named-broker.ts';
export { adminSecurity } from './jvm-broker.ts';
export { ADMIN_USER, CLIENT_CERTIFICATE_NAME, readSecurityMaterials, securityMaterialsFile } from './secure-materials.ts';
export type { SecurityMaterials } from './secure-materials.ts';
