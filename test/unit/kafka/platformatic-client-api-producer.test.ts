// The transactional producers' API versions (kafka/platformatic-client-api-producer.ts): on a
// cluster enforcing ACLs, exactly-once on @platformatic/kafka never committed, because 2.12.1 sent
// AddPartitionsToTxn at the brokers' own version 5 (CLUSTER_AUTHORIZATION_FAILED). The regression
// test on a real secured broker is test/integration/security/secured-broker.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { Base, kListApis } from '@platformatic/kafka';
import { CLIENT_ADD_PARTITIONS_TO_TXN_MAX_VERSION, ClientApiProducer, clientApiVersions } from '../../../kafka/platformatic-client-api-producer.ts';

// What Kafka 4.1 lists for these (ApiVersions), trimmed.
const brokerApis = [
  { apiKey: 0, name: 'Produce', minVersion: 3, maxVersion: 12 },
  { apiKey: 24, name: 'AddPartitionsToTxn', minVersion: 0, maxVersion: 5 },
  { apiKey: 25, name: 'AddOffsetsToTxn', minVersion: 0, maxVersion: 4 },
  { apiKey: 26, name: 'EndTxn', minVersion: 0, maxVersion: 5 },
];

describe('clientApiVersions', () => {
  it('caps AddPartitionsToTxn at version 3 (4 and up are broker-to-broker) and leaves every other API as the broker lists it', () => {
    expect(CLIENT_ADD_PARTITIONS_TO_TXN_MAX_VERSION).toBe(3);
    expect(clientApiVersions(brokerApis)).toEqual([brokerApis[0], { apiKey: 24, name: 'AddPartitionsToTxn', minVersion: 0, maxVersion: 3 }, brokerApis[2], brokerApis[3]]);
  });

  it('leaves an older broker’s lower versions alone', () => {
    const older = [{ apiKey: 24, name: 'AddPartitionsToTxn', minVersion: 0, maxVersion: 1 }];
    expect(clientApiVersions(older)).toEqual(older);
  });
});

describe('ClientApiProducer', () => {
  const original = Base.prototype[kListApis];
  afterEach(() => {
    Base.prototype[kListApis] = original;
  });

  it('hands the capped list to every API lookup, and an error through as it is', async () => {
    let answer: { error: Error | null; apis?: typeof brokerApis } = { error: null, apis: brokerApis };
    // The library's ApiVersions request, faked where the producer's override calls it.
    Base.prototype[kListApis] = function (callback) {
      callback(answer.error, answer.apis);
    };
    const producer = new ClientApiProducer({ clientId: 'test', bootstrapBrokers: ['127.0.0.1:1'] });
    try {
      const listed = await producer.listApis();
      expect(listed.find((api) => api.name === 'AddPartitionsToTxn')?.maxVersion).toBe(3);
      answer = { error: new Error('no broker') };
      await expect(producer.listApis()).rejects.toThrow('no broker');
    } finally {
      await producer.close();
    }
  });
});
