import { describe, expect, it } from 'vitest';
import { dockerBrokerEnvironment, dockerVariableName, newClusterId, renderLog4j2Properties, renderServerProperties } from '../../../../local/kafka/broker-config.ts';

function parseProperties(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
  return Object.fromEntries(entries);
}

describe('renderServerProperties', () => {
  const properties = parseProperties(renderServerProperties({ ports: { broker: 40001, controller: 40002 }, dataDirectory: '/tmp/broker/data' }));

  it('configures one combined KRaft node listening and advertising on 127.0.0.1', () => {
    expect(properties).toMatchObject({
      'process.roles': 'broker,controller',
      'node.id': '1',
      'controller.quorum.voters': '1@127.0.0.1:40002',
      listeners: 'PLAINTEXT://127.0.0.1:40001,CONTROLLER://127.0.0.1:40002',
      'advertised.listeners': 'PLAINTEXT://127.0.0.1:40001',
      'controller.listener.names': 'CONTROLLER',
      'log.dirs': '/tmp/broker/data',
    });
  });

  it('sets every internal topic to replication factor 1 and rebalances without delay', () => {
    expect(properties).toMatchObject({
      'offsets.topic.replication.factor': '1',
      'offsets.topic.num.partitions': '1',
      'transaction.state.log.replication.factor': '1',
      'transaction.state.log.min.isr': '1',
      'transaction.state.log.num.partitions': '1',
      'share.coordinator.state.topic.replication.factor': '1',
      'group.initial.rebalance.delay.ms': '0',
    });
  });

  it('escapes backslashes in paths, which Java properties read as escapes', () => {
    const text = renderServerProperties({ ports: { broker: 1, controller: 2 }, dataDirectory: 'C:\\kafka\\data' });
    expect(text).toContain('log.dirs=C:\\\\kafka\\\\data');
  });
});

describe('renderLog4j2Properties', () => {
  it('writes everything to the given file', () => {
    const text = renderLog4j2Properties('/tmp/broker/broker.log');
    expect(text).toContain('appender.file.fileName = /tmp/broker/broker.log');
    expect(text).toContain('rootLogger.appenderRef.file.ref = file');
  });
});

describe('newClusterId', () => {
  it('is 22 URL-safe base64 characters from 16 random bytes', () => {
    expect(newClusterId()).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(newClusterId(() => Buffer.alloc(16, 0xff))).toBe('_____________________w');
  });

  it('never starts with a dash, which kafka-storage format read as an option (regression)', () => {
    const draws = [Buffer.alloc(16, 0xf8), Buffer.alloc(16, 0x00)]; // '-Pj4...' first, then 'AAAA...'
    expect(draws[0]?.toString('base64url').startsWith('-')).toBe(true);
    expect(newClusterId(() => draws.shift() ?? Buffer.alloc(16, 1))).toBe('AAAAAAAAAAAAAAAAAAAAAA');
  });
});

describe('dockerVariableName', () => {
  it('follows the apache/kafka image rules', () => {
    expect(dockerVariableName('abc.def')).toBe('KAFKA_ABC_DEF');
    expect(dockerVariableName('abc-def')).toBe('KAFKA_ABC___DEF');
    expect(dockerVariableName('abc_def')).toBe('KAFKA_ABC__DEF');
    expect(dockerVariableName('offsets.topic.replication.factor')).toBe('KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR');
  });
});

describe('dockerBrokerEnvironment', () => {
  it('is the complete single-node configuration, since any KAFKA_* variable replaces the image defaults', () => {
    const environment = dockerBrokerEnvironment({ hostPort: 41000, clusterId: 'MkU3OEVBNTcwNTJENDM2Qk' });
    expect(environment).toMatchObject({
      CLUSTER_ID: 'MkU3OEVBNTcwNTJENDM2Qk',
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://127.0.0.1:41000',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    });
  });
});
