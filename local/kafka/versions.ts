// The Kafka build every local broker runs, in one place: the JVM jars from Maven Central and
// the Docker image are the same release, so tests, benchmarks and the demo see one broker.

/** Apache Kafka release (Scala 2.13 build) for the JVM broker and the Docker image. */
export const KAFKA_VERSION = '4.1.1';

/**
 * log4j2 release of the logging backend. Kafka 4.1 brings log4j-core itself but logs through
 * slf4j 1.7, so the binding we add is `log4j-slf4j-impl` (the slf4j 1.x one), at the same
 * version as the log4j-core Kafka depends on.
 */
export const LOG4J_VERSION = '2.24.3';

/** maven-dependency-plugin pinned so `copy-dependencies` behaves the same on every Maven. */
export const MAVEN_DEPENDENCY_PLUGIN_VERSION = '3.8.1';

export const KAFKA_DOCKER_IMAGE = `apache/kafka:${KAFKA_VERSION}`;
