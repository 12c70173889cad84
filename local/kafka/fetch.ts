// `node local/kafka/fetch.ts`: downloads Apache Kafka's jars into the user cache ahead of time
// (CI runs it before the tests so the first broker start is not also a download) and checks Java.
// Prints the jar directory on stdout; exits 1 with the reason when Java or Maven is missing.
import { fetchKafkaJars } from './kafka-jars.ts';
import { findJava } from './prerequisites.ts';
import { KAFKA_VERSION } from './versions.ts';

try {
  const java = await findJava();
  const started = Date.now();
  const jars = await fetchKafkaJars((line) => console.error(`kafka: ${line}`));
  console.error(`kafka: Apache Kafka ${KAFKA_VERSION} jars ready for Java ${java.major} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(jars);
} catch (error) {
  console.error(`kafka: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
