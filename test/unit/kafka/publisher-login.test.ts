// The producer SDK's `sasl` option (kafka/publisher-login.ts): kafkajs' own settings pass through
// untouched; the service's token settings become kafkajs' oauthBearerProvider over the process's
// token source; settings that cannot log in are refused before any connection, saying what to give.
import { describe, expect, it } from 'vitest';
import { publisherLogin } from '../../../kafka/publisher-login.ts';

describe('publisherLogin', () => {
  it("passes kafkajs' own settings through, naming a user for the access errors", () => {
    const scram = { mechanism: 'scram-sha-512' as const, username: 'agent', password: 'pw' };
    expect(publisherLogin(scram)).toEqual({ kafkajs: scram, named: scram });
    const own = { mechanism: 'oauthbearer' as const, oauthBearerProvider: async () => ({ value: 't' }) };
    expect(publisherLogin(own).kafkajs).toBe(own);
    expect(publisherLogin(undefined)).toEqual({ kafkajs: undefined, named: undefined });
  });

  it('turns a custom token provider into kafkajs\' oauthBearerProvider', async () => {
    const login = publisherLogin({ mechanism: 'oauthbearer', tokenProvider: async () => ({ value: 'the-token', lifetimeMs: 60_000 }) });
    const sasl = login.kafkajs as { mechanism: string; oauthBearerProvider: () => Promise<{ value: string }> };
    expect(sasl.mechanism).toBe('oauthbearer');
    expect(await sasl.oauthBearerProvider()).toEqual({ value: 'the-token' });
    expect(login.named).toMatchObject({ mechanism: 'oauthbearer' });
  });

  it('refuses token settings that cannot log in, before connecting, saying what to give', () => {
    expect(() => publisherLogin({ mechanism: 'oauthbearer', tokenEndpointUrl: 'https://idp.example/token', clientId: 'agent' })).toThrow(/createRunPublisher cannot log in with these SASL settings: sasl\.clientSecret: give the client secret once/);
    expect(() => publisherLogin({ mechanism: 'aws-msk-iam' }, {})).toThrow(/MSK IAM signs for a region: give sasl\.region or set AWS_REGION/);
    expect(publisherLogin({ mechanism: 'aws-msk-iam' }, { AWS_REGION: 'eu-west-1' }).named).toEqual({ mechanism: 'aws-msk-iam', region: 'eu-west-1' });
  });
});
