import { KafkaJSConnectionError, KafkaJSNumberOfRetriesExceeded, KafkaJSRequestTimeoutError } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { kafkaUnreachableHint } from '../../../cli/kafka-error-hint.ts';

describe('kafkaUnreachableHint', () => {
  it('explains a broker that could not be reached, naming it when kafkajs did', () => {
    const hint = kafkaUnreachableHint(new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9', { broker: '127.0.0.1:9' }));
    expect(hint).toContain('Kafka did not answer (broker 127.0.0.1:9)');
    expect(hint).toContain('--brokers, KAFKA_BROKERS or the config');
    expect(hint).toContain('scorestream kafka status');
  });

  it("recognises kafkajs' bare 'Broker not connected' and timeouts, also as the cause of a retry error", () => {
    expect(kafkaUnreachableHint(new Error('Broker not connected'))).toContain('Kafka did not answer:');
    expect(kafkaUnreachableHint(new KafkaJSRequestTimeoutError('Request ApiVersions(key: 18, version: 2) timed out'))).toContain('Kafka did not answer');
    const retries = new KafkaJSNumberOfRetriesExceeded(new KafkaJSConnectionError('Connection timeout', { broker: 'kafka-1:9092' }), { retryCount: 5, retryTime: 3000 });
    expect(kafkaUnreachableHint(retries)).toContain('(broker kafka-1:9092)');
  });

  it("recognises @platformatic/kafka's request timeouts nested in the AggregateErrors of its retries", () => {
    const timeout = Object.assign(new Error('Request timed out'), { code: 'PLT_KFK_NETWORK' });
    const retries = new AggregateError([new AggregateError([timeout, timeout], 'listApis failed 2 times.')], 'metadata failed 2 times.');
    expect(kafkaUnreachableHint(retries)).toMatch(/^Kafka did not answer: check that the brokers/);
    expect(kafkaUnreachableHint(new AggregateError([new Error('UNKNOWN_TOPIC_OR_PARTITION')], 'metadata failed 1 times.'))).toBeUndefined();
  });

  it('says nothing for errors that are not about reaching Kafka', () => {
    expect(kafkaUnreachableHint(new Error('the config file exports no default'))).toBeUndefined();
    expect(kafkaUnreachableHint('a string')).toBeUndefined();
    expect(kafkaUnreachableHint(undefined)).toBeUndefined();
  });
});
