// The single-node KRaft broker's configuration, as pure functions: the server.properties for the
// JVM broker, the environment for the apache/kafka image, the log4j2 file and a cluster id.
// With one node every internal topic must have replication factor 1 (and min ISR 1), or the
// group and transaction coordinators never come up.
import { randomBytes } from 'node:crypto';

export type BrokerPorts = { broker: number; controller: number };

/** Broker settings shared by the JVM broker and the Docker image, as Kafka property names. */
export const singleNodeSettings: Readonly<Record<string, string>> = {
  'num.partitions': '1',
  'offsets.topic.replication.factor': '1',
  'offsets.topic.num.partitions': '1',
  'transaction.state.log.replication.factor': '1',
  'transaction.state.log.min.isr': '1',
  'transaction.state.log.num.partitions': '1',
  'share.coordinator.state.topic.replication.factor': '1',
  'share.coordinator.state.topic.min.isr': '1',
  'group.initial.rebalance.delay.ms': '0',
};

/** server.properties for a combined broker+controller listening on 127.0.0.1 only. */
export function renderServerProperties(options: { ports: BrokerPorts; dataDirectory: string }): string {
  const { ports } = options;
  const settings: Record<string, string> = {
    'process.roles': 'broker,controller',
    'node.id': '1',
    'controller.quorum.voters': `1@127.0.0.1:${ports.controller}`,
    listeners: `PLAINTEXT://127.0.0.1:${ports.broker},CONTROLLER://127.0.0.1:${ports.controller}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${ports.broker}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': options.dataDirectory,
    ...singleNodeSettings,
  };
  return renderProperties(settings);
}

/** A properties file of the given settings (the plain broker's above, or the secured one's). */
export function renderProperties(settings: Readonly<Record<string, string>>): string {
  const lines = Object.entries(settings).map(([key, value]) => `${key}=${escapePropertyValue(value)}`);
  return `# Written by scorestream (local/kafka): a single-node KRaft broker for local use.\n${lines.join('\n')}\n`;
}

// Java properties treat backslashes as escapes (Windows paths) and a leading space as nothing.
function escapePropertyValue(value: string): string {
  return value.replaceAll('\\', '\\\\');
}

/** log4j2 properties sending everything to one rolling file; Kafka's chatty request log stays at WARN. */
export function renderLog4j2Properties(logFile: string): string {
  return [
    'status = warn',
    'appender.file.type = RollingFile',
    'appender.file.name = file',
    `appender.file.fileName = ${escapePropertyValue(logFile)}`,
    `appender.file.filePattern = ${escapePropertyValue(logFile)}.%i`,
    'appender.file.layout.type = PatternLayout',
    'appender.file.layout.pattern = [%d] %p %m (%c)%n',
    'appender.file.policies.type = Policies',
    'appender.file.policies.size.type = SizeBasedTriggeringPolicy',
    'appender.file.policies.size.size = 10MB',
    'appender.file.strategy.type = DefaultRolloverStrategy',
    'appender.file.strategy.max = 2',
    'rootLogger.level = INFO',
    'rootLogger.appenderRef.file.ref = file',
    'logger.request.name = kafka.request.logger',
    'logger.request.level = WARN',
    '',
  ].join('\n');
}

/**
 * A KRaft cluster id: 16 random bytes in URL-safe base64 without padding (22 characters). Like
 * Kafka's own Uuid.randomUuid it never starts with '-', which command lines read as an option.
 */
export function newClusterId(random: (size: number) => Buffer = randomBytes): string {
  for (;;) {
    const id = random(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/** Kafka property name → apache/kafka image variable (`.` → `_`, `_` → `__`, `-` → `___`, upper case, `KAFKA_` prefix). */
export function dockerVariableName(property: string): string {
  const encoded = property.replaceAll('_', '__').replaceAll('-', '___').replaceAll('.', '_');
  return `KAFKA_${encoded.toUpperCase()}`;
}

/**
 * Environment for the apache/kafka image. Setting any KAFKA_* variable replaces the image's whole
 * default server.properties, so this is the complete configuration, not a delta. Inside the
 * container the broker listens on 9092 and advertises the host port it is published on.
 */
export function dockerBrokerEnvironment(options: { hostPort: number; clusterId: string }): Record<string, string> {
  const settings: Record<string, string> = {
    'node.id': '1',
    'process.roles': 'broker,controller',
    'controller.quorum.voters': '1@localhost:9093',
    listeners: 'PLAINTEXT://:9092,CONTROLLER://:9093',
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${options.hostPort}`,
    'controller.listener.names': 'CONTROLLER',
    'inter.broker.listener.name': 'PLAINTEXT',
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'log.dirs': '/var/lib/kafka/data',
    ...singleNodeSettings,
  };
  const environment: Record<string, string> = { CLUSTER_ID: options.clusterId };
  for (const [property, value] of Object.entries(settings)) environment[dockerVariableName(property)] = value;
  return environment;
}
