// OAUTHBEARER tokens (kafka/oauth-token.ts) against the test's OIDC token endpoint (a real HTTP
// server): the client credentials grant, one token per settings object shared by every client and
// by concurrent logins, renewed once 80% of its lifetime has passed (an injected clock), a refused
// client or an unreachable endpoint said in words that name the client and what to check, never
// the secret; a custom provider's token and extensions; a secret read from a file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describePrincipal, kafkaAccessError, settingSecrets } from '../../../kafka/kafka-access-error.ts';
import { OAuthTokenError, oauthTokenSource } from '../../../kafka/oauth-token.ts';
import type { OAuthSaslSettings } from '../../../kafka/oauth-token.ts';
import { describeTokenEvent, watchTokenHealth } from '../../../kafka/oauth-token-log.ts';
import { createOidcProvider } from '../../helpers/oidc-provider.ts';

const oidc = createOidcProvider({ svc: { secret: 'the-secret-1', subject: 'svc-oauth' } }, { lifetimeSeconds: 100 });
beforeAll(async () => {
  await oidc.start();
});
afterAll(async () => {
  await oidc.stop();
});

const settings = (fields: Partial<OAuthSaslSettings> = {}): OAuthSaslSettings => ({ mechanism: 'oauthbearer', tokenEndpointUrl: oidc.tokenEndpointUrl, clientId: 'svc', clientSecret: 'the-secret-1', scope: 'kafka', ...fields });
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('oauthTokenSource', () => {
  it('gets a token by the client credentials grant, shares it, and renews it after 80% of its lifetime', async () => {
    let now = 1_000_000;
    const sasl = settings();
    const source = oauthTokenSource(sasl, { now: () => now });
    expect(oauthTokenSource(sasl)).toBe(source);
    const before = oidc.issued;
    const [first, again] = await Promise.all([source.token(), source.token()]);
    expect(again).toBe(first);
    expect(oidc.issued - before).toBe(1);
    expect(first.lifetimeMs).toBe(100_000);
    expect(claimsOf(first.value)).toMatchObject({ sub: 'svc-oauth', aud: 'kafka', scope: 'kafka' });
    now += 79_000;
    expect(await source.token()).toBe(first);
    now += 2_000;
    const renewed = await source.token();
    expect(renewed).not.toBe(first);
    expect(oidc.issued - before).toBe(2);
  });

  it('keeps a token that still holds when its renewal fails, tries again soon, and fails only once it has expired', async () => {
    let now = 0;
    let calls = 0;
    let down = false;
    const source = oauthTokenSource({ mechanism: 'oauthbearer', tokenProvider: async () => {
      calls += 1;
      if (down) throw new Error('identity provider unavailable');
      return { value: `token-${calls}`, lifetimeMs: 100_000 };
    } }, { now: () => now });
    expect((await source.token()).value).toBe('token-1');
    down = true;
    now = 85_000;
    expect((await source.token()).value).toBe('token-1');
    // Tried again after a tenth of the 15 s left, not on every login.
    now = 85_500;
    expect((await source.token()).value).toBe('token-1');
    expect(calls).toBe(2);
    now = 87_000;
    await source.token();
    expect(calls).toBe(3);
    down = false;
    now = 89_000;
    expect((await source.token()).value).toBe('token-4');
    down = true;
    now = 89_000 + 100_000;
    await expect(source.token()).rejects.toThrow(/^the OAUTHBEARER token provider failed: identity provider unavailable$/);
  });

  it('tells a watcher each change once — a renewal failing, the token expiring, a token had again — and the lines say so in words', async () => {
    let now = 0;
    let down = false;
    let calls = 0;
    const sasl: OAuthSaslSettings = { mechanism: 'oauthbearer', tokenProvider: async () => {
      calls += 1;
      if (down) throw new Error('identity provider unavailable');
      return { value: 'token', lifetimeMs: 100_000 };
    } };
    const source = oauthTokenSource(sasl, { now: () => now });
    const lines: string[] = [];
    const stop = watchTokenHealth({ sasl }, { warn: (text) => lines.push(`warn ${text}`), info: (text) => lines.push(`info ${text}`) });
    await source.token();
    down = true;
    for (const at of [85_000, 87_000, 90_000, 95_000]) {
      now = at;
      await source.token();
    }
    for (const at of [100_000, 101_000, 110_000]) {
      now = at;
      await expect(source.token()).rejects.toThrow(OAuthTokenError);
    }
    expect(calls).toBe(8);
    // Expired, the provider is asked again only after a backoff (1 s, 2 s, 4 s …), not at every reconnect.
    down = false;
    now = 113_000;
    await expect(source.token()).rejects.toThrow(/identity provider unavailable/);
    expect(calls).toBe(8);
    now = 114_000;
    await source.token();
    expect(calls).toBe(9);
    expect(lines).toEqual([
      'warn the OAUTHBEARER token could not be renewed (the OAUTHBEARER token provider failed: identity provider unavailable); the current one is used until it expires in 15 s, and renewal is retried meanwhile',
      'warn the OAUTHBEARER token could not be renewed and the last one has expired (the OAUTHBEARER token provider failed: identity provider unavailable): Kafka logins fail until a token is had again; the clients keep reconnecting and the work resumes where it stopped',
      'info the OAUTHBEARER token was renewed again after 7 failed attempts over 29 s',
    ]);
    // Stopped watching: the next outage is not told.
    stop();
    down = true;
    for (const at of [200_000, 320_000]) {
      now = at;
      await source.token().catch(() => undefined);
    }
    expect(lines).toHaveLength(3);
    expect(describeTokenEvent('aws-msk-iam', { kind: 'recovered', failures: 1, sinceMs: 1_400 }).text).toBe('the MSK IAM token was renewed again after 1 failed attempt over 1 s');
  });

  it('says a refused client and an unreachable endpoint in words, without the secret', async () => {
    const refused = await oauthTokenSource(settings({ clientSecret: 'wrong-secret-42' })).token().catch((error: unknown) => error);
    expect(OAuthTokenError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toMatch(/^the OIDC token endpoint refused client 'svc' at http:\/\/127\.0\.0\.1:\d+\/oauth2\/token \(HTTP 401 invalid_client: client authentication failed\): check KAFKA_SASL_OAUTHBEARER_CLIENT_ID and KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET/);
    expect((refused as Error).message).not.toContain('wrong-secret-42');
    const unreachable = await oauthTokenSource(settings({ tokenEndpointUrl: 'http://127.0.0.1:9/token' })).token().catch((error: unknown) => error);
    expect((unreachable as Error).message).toMatch(/^the OIDC token endpoint could not be reached for client 'svc' at http:\/\/127\.0\.0\.1:9\/token: .*check KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL/);
    // At the edge, a refused token is a refused login: exit 2 with the client named.
    const access = kafkaAccessError(Object.assign(new Error('The SASL/OAUTHBEARER token provider threw an error.'), { cause: refused }), { brokers: ['b:9093'], principal: describePrincipal({ sasl: settings() }), secrets: settingSecrets({ sasl: settings() }) });
    expect(access?.reason).toBe('sasl_authentication');
    expect(access?.message).toMatch(/^Kafka login \(OAUTHBEARER\) of OAuth client 'svc' \(OAUTHBEARER\) failed before reaching b:9093: the OIDC token endpoint refused client 'svc'/);
  });

  it("takes a custom provider's token and extensions, a secret from a file, and says a provider that failed", async () => {
    const custom = oauthTokenSource({ mechanism: 'oauthbearer', extensions: { logicalCluster: 'lkc-1' }, tokenProvider: async () => ({ value: 'opaque', lifetimeMs: 60_000, extensions: { identityPoolId: 'pool-9' } }) });
    expect((await custom.token()).value).toBe('opaque');
    expect(custom.extensions()).toEqual({ logicalCluster: 'lkc-1', identityPoolId: 'pool-9' });
    const failing = oauthTokenSource({ mechanism: 'oauthbearer', tokenProvider: async () => Promise.reject(new Error('no credentials in the chain')) });
    await expect(failing.token()).rejects.toThrow(/^the OAUTHBEARER token provider failed: no credentials in the chain$/);
    const empty = oauthTokenSource({ mechanism: 'oauthbearer', tokenProvider: async () => ({ value: '', lifetimeMs: 1 }) });
    await expect(empty.token()).rejects.toThrow(/returned no token: return \{ value, lifetimeMs, extensions\? \}/);
    const directory = mkdtempSync(join(tmpdir(), 'scorestream-secret-'));
    writeFileSync(join(directory, 'secret'), 'the-secret-1\n');
    expect(claimsOf((await oauthTokenSource(settings({ clientSecret: undefined, clientSecretFile: join(directory, 'secret') })).token()).value).sub).toBe('svc-oauth');
    expect(() => oauthTokenSource(settings({ clientSecret: undefined, clientSecretFile: join(directory, 'missing') }))).toThrow(/kafka\.sasl\.clientSecretFile: cannot read '.*missing' \(ENOENT\)/);
  });
});
