// The managed-Kafka recipes of docs/security.md ("Recipes for managed Kafka"): each recipe's
// variables, as a user pastes them, resolve to the login the recipe names — so a recipe cannot
// rot into variables the service no longer reads.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';

const scorers = [{ scorer: createScorer({ id: 's', description: 'd' }).generateScore(() => 1) }];
const kafkaOf = (environment: Record<string, string>, sasl?: object) => resolveConfig({ scorers, ...(sasl === undefined ? {} : { kafka: { sasl } }) } as never, { environment: { KAFKA_BROKERS: 'broker.example.com:9093', ...environment } }).kafka;

describe('managed Kafka recipes', () => {
  it('Confluent Cloud with an API key, and with OAuth and its extensions', () => {
    expect(kafkaOf({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'ABCKEY', KAFKA_SASL_PASSWORD: 'secret' })).toMatchObject({ ssl: true, sasl: { mechanism: 'plain', username: 'ABCKEY', password: 'secret' } });
    const oauth = kafkaOf(
      { KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'oauthbearer', KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL: 'https://idp.example.com/oauth2/token', KAFKA_SASL_OAUTHBEARER_CLIENT_ID: 'scorestream', KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET: 'secret' },
      { mechanism: 'oauthbearer', extensions: { logicalCluster: 'lkc-abc12', identityPoolId: 'pool-XyZ' } },
    );
    expect(oauth.sasl).toMatchObject({ mechanism: 'oauthbearer', clientId: 'scorestream', extensions: { logicalCluster: 'lkc-abc12', identityPoolId: 'pool-XyZ' } });
  });

  it('Azure Event Hubs with a connection string, and with Entra ID', () => {
    const connectionString = 'Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=scorestream;SharedAccessKey=abc=';
    expect(kafkaOf({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: '$ConnectionString', KAFKA_SASL_PASSWORD: connectionString }).sasl).toEqual({ mechanism: 'plain', username: '$ConnectionString', password: connectionString });
    const entra = kafkaOf({
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'oauthbearer',
      KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL: 'https://login.microsoftonline.com/tenant-id/oauth2/v2.0/token',
      KAFKA_SASL_OAUTHBEARER_SCOPE: 'https://ns.servicebus.windows.net/.default',
      KAFKA_SASL_OAUTHBEARER_CLIENT_ID: 'app-id',
      KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET: 'app-secret',
    });
    expect(entra.sasl).toMatchObject({ mechanism: 'oauthbearer', scope: 'https://ns.servicebus.windows.net/.default' });
  });

  it('Amazon MSK with SCRAM, mutual TLS, and IAM through a token provider; Aiven and Redpanda with SCRAM', () => {
    expect(kafkaOf({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'svc', KAFKA_SASL_PASSWORD: 'p' }).sasl).toMatchObject({ mechanism: 'scram-sha-512' });
    expect(kafkaOf({ KAFKA_SSL_CERT_FILE: 'client.pem', KAFKA_SSL_KEY_FILE: 'client.key' }).ssl).toMatchObject({ certFile: 'client.pem', keyFile: 'client.key' });
    const tokenProvider = async () => ({ value: 'signed', lifetimeMs: 900_000 });
    expect(kafkaOf({ KAFKA_SSL: 'true' }, { mechanism: 'oauthbearer', tokenProvider }).sasl).toMatchObject({ mechanism: 'oauthbearer', tokenProvider });
    expect(kafkaOf({ KAFKA_SSL_CA_FILE: 'ca.pem', KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'avnadmin', KAFKA_SASL_PASSWORD: 'p' })).toMatchObject({ ssl: { caFile: 'ca.pem' }, sasl: { mechanism: 'scram-sha-256' } });
  });
});
