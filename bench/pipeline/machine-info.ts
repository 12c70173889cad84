// One line saying what the numbers were measured on: CPU, memory, Node, and the Kafka broker
// (version and how it runs) — a rate means little without them.
import { availableParallelism, cpus, totalmem } from 'node:os';
import { KAFKA_VERSION } from '../../local/kafka/index.ts';
import type { BrokerHandle } from '../../local/kafka/index.ts';

function kafkaDescription(broker: BrokerHandle): string {
  if (broker.mode === 'env') return `Kafka at KAFKA_BROKERS=${broker.brokers.join(',')} (version not known to the benchmark)`;
  const how = broker.mode === 'jvm' ? 'single-node KRaft on the local JVM (-Xmx512m, serial GC, C1)' : 'single-node KRaft in Docker';
  return `Apache Kafka ${KAFKA_VERSION}, ${how}, on this machine`;
}

export function describeMachine(broker: BrokerHandle): string[] {
  const cpuList = cpus();
  return [
    `machine: ${availableParallelism()} cores (${cpuList[0]?.model.trim() ?? 'unknown CPU'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, ${process.platform}/${process.arch}`,
    `node:    ${process.version}`,
    `kafka:   ${kafkaDescription(broker)}, kafkajs 2.2.4`,
  ];
}
