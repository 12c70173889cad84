// Amazon MSK IAM tokens through AWS's own signer (kafka/msk-iam-token.ts), with credentials from
// the default provider chain's environment step (no AWS here): the token is MSK's documented
// format — a base64url SigV4-presigned GET https://kafka.<region>.amazonaws.com/ with
// Action=kafka-cluster:Connect, 900 s, host the only signed header — and its signature is
// recomputed here by hand from the secret, so a token the broker would refuse fails this test.
// A chain without credentials is said with what to set; the config takes the region from
// AWS_REGION and refuses a login without one.
import { createHash, createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describePrincipal } from '../../../kafka/kafka-access-error.ts';
import { oauthTokenSource } from '../../../kafka/oauth-token.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';

const saved = { ...process.env };
const accessKeyId = 'AKIDEXAMPLE';
const secretAccessKey = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
beforeEach(() => {
  for (const name of Object.keys(process.env)) if (name.startsWith('AWS_')) delete process.env[name];
  // No profile file, no instance metadata: only the environment step of the chain can answer.
  process.env.AWS_SHARED_CREDENTIALS_FILE = '/nonexistent/credentials';
  process.env.AWS_CONFIG_FILE = '/nonexistent/config';
  process.env.AWS_EC2_METADATA_DISABLED = 'true';
});
afterEach(() => {
  process.env = { ...saved };
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
const encode = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

describe('MSK IAM tokens', () => {
  it('are SigV4-presigned kafka-cluster:Connect URLs for the region, signed with the chain\'s credentials', async () => {
    process.env.AWS_ACCESS_KEY_ID = accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = secretAccessKey;
    const before = Date.now();
    const token = await oauthTokenSource({ mechanism: 'aws-msk-iam', region: 'eu-west-1' }).token();
    expect(token.value).toMatch(/^[A-Za-z0-9_-]+$/);
    const url = new URL(Buffer.from(token.value, 'base64url').toString('utf8'));
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('https://kafka.eu-west-1.amazonaws.com/');
    const query = Object.fromEntries(url.searchParams);
    const amzDate = query['X-Amz-Date']!;
    const day = amzDate.slice(0, 8);
    expect(query).toMatchObject({
      Action: 'kafka-cluster:Connect',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': `${accessKeyId}/${day}/eu-west-1/kafka-cluster/aws4_request`,
      'X-Amz-Expires': '900',
      'X-Amz-SignedHeaders': 'host',
    });
    expect(query['User-Agent']).toMatch(/^aws-msk-iam-sasl-signer-js\//);
    expect(token.lifetimeMs).toBeGreaterThan(890_000 - (Date.now() - before));
    expect(token.lifetimeMs).toBeLessThanOrEqual(900_000);

    // SigV4 by hand: the canonical request over every parameter but the signature and the user agent (added after signing).
    const signed = Object.entries(query).filter(([key]) => key !== 'X-Amz-Signature' && key !== 'User-Agent').sort(([a], [b]) => (a < b ? -1 : 1));
    const canonicalQuery = signed.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
    const canonicalRequest = ['GET', '/', canonicalQuery, 'host:kafka.eu-west-1.amazonaws.com', '', 'host', sha256('')].join('\n');
    const scope = `${day}/eu-west-1/kafka-cluster/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
    const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), 'eu-west-1'), 'kafka-cluster'), 'aws4_request');
    expect(query['X-Amz-Signature']).toBe(createHmac('sha256', key).update(stringToSign).digest('hex'));
  });

  it('say a chain without credentials with what to set', async () => {
    const failure = (await oauthTokenSource({ mechanism: 'aws-msk-iam', region: 'us-east-1' }).token().catch((error: unknown) => error)) as Error;
    expect(failure.name).toBe('OAuthTokenError');
    expect(failure.message).toMatch(/^the MSK IAM token provider failed: the MSK IAM signer found no AWS credentials for region us-east-1 \(.*\): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or run with a role/);
    expect(describePrincipal({ sasl: { mechanism: 'aws-msk-iam', region: 'us-east-1' } })).toBe('the AWS IAM identity of the credential chain (MSK IAM, OAUTHBEARER, us-east-1)');
  });

  it('take the region from the config or AWS_REGION, and refuse a login without one', () => {
    const scorers = [{ scorer: createScorer({ id: 's', description: 'd' }).generateScore(() => 1) }];
    const resolve = (environment: Record<string, string>, sasl?: object) => resolveConfig({ scorers, ...(sasl === undefined ? {} : { kafka: { sasl } }) } as never, { environment: { KAFKA_BROKERS: 'b-1.msk.example.com:9098', ...environment } });
    expect(resolve({ KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: 'aws-msk-iam', AWS_REGION: 'us-east-1' }).kafka.sasl).toEqual({ mechanism: 'aws-msk-iam', region: 'us-east-1' });
    expect(resolve({ AWS_REGION: 'us-east-1' }, { mechanism: 'aws-msk-iam', region: 'eu-central-1' }).kafka.sasl).toEqual({ mechanism: 'aws-msk-iam', region: 'eu-central-1' });
    expect(() => resolve({ KAFKA_SASL_MECHANISM: 'aws-msk-iam' })).toThrow(/kafka\.sasl\.region: MSK IAM signs for a region: set AWS_REGION/);
  });
});
