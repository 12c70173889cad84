// An OIDC provider for the OAUTHBEARER tests, as a platform team's IdP looks to Kafka and to a
// client: an RSA signing key whose JWKS is written to a file the broker validates against
// (file: URL, Kafka's OAuthBearerValidatorCallbackHandler), and a token endpoint (node:http) that
// answers the client credentials grant — HTTP Basic client id and secret — with an RS256 JWT
// whose subject is the client's principal, for the configured audience, expiring after
// `lifetimeSeconds`. It counts the tokens it issued and the requests it refused; `down` takes it out
// (HTTP 503) to test an outage.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBody } from './fault-judge-server.ts';

export type OidcClient = { secret: string; subject: string };

export type OidcProvider = {
  /** For the broker: `file://…/jwks.json`. */
  readonly jwksUrl: string;
  readonly audience: string;
  /** Set by start(): the token endpoint's URL. */
  tokenEndpointUrl: string;
  readonly issued: number;
  /** Tokens issued to one client. */
  issuedTo(clientId: string): number;
  readonly refused: number;
  /** Seconds every token issued from now on lives. */
  lifetimeSeconds: number;
  /** While true the endpoint is out: every request gets HTTP 503 (counted in `unavailable`). */
  down: boolean;
  readonly unavailable: number;
  start(): Promise<void>;
  stop(): Promise<void>;
};

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

function signedJwt(privateKey: KeyObject, kid: string, claims: Record<string, unknown>): string {
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }));
  const payload = base64url(JSON.stringify(claims));
  const signature = sign('sha256', Buffer.from(`${header}.${payload}`), privateKey);
  return `${header}.${payload}.${base64url(signature)}`;
}

/** Made before the broker starts: its JWKS file must exist when the broker configures its validator. */
export function createOidcProvider(clients: Record<string, OidcClient>, options: { audience?: string; lifetimeSeconds?: number } = {}): OidcProvider {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(6).toString('hex');
  const directory = mkdtempSync(join(tmpdir(), 'scorestream-oidc-'));
  const jwksFile = join(directory, 'jwks.json');
  writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] }));
  const audience = options.audience ?? 'kafka';
  let issued = 0;
  let refused = 0;
  let unavailable = 0;
  const issuedByClient = new Map<string, number>();
  const server = createServer((request, response) => {
    void (async () => {
      const body = new URLSearchParams(await readBody(request));
      if (provider.down) {
        unavailable += 1;
        response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'temporarily_unavailable', error_description: 'the identity provider is down' }));
        return;
      }
      const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const [id, secret] = basic === undefined ? [] : Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent);
      const client = id === undefined ? undefined : clients[id];
      if (request.method !== 'POST' || body.get('grant_type') !== 'client_credentials' || client === undefined || client.secret !== secret) {
        refused += 1;
        response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client', error_description: 'client authentication failed' }));
        return;
      }
      issued += 1;
      issuedByClient.set(id!, (issuedByClient.get(id!) ?? 0) + 1);
      const now = Math.floor(Date.now() / 1000);
      const token = signedJwt(privateKey, kid, { sub: client.subject, aud: audience, iss: 'scorestream-test-idp', iat: now, exp: now + provider.lifetimeSeconds, scope: body.get('scope') ?? 'kafka' });
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: provider.lifetimeSeconds }));
    })().catch(() => response.writeHead(500).end());
  });
  const provider: OidcProvider = {
    jwksUrl: `file://${jwksFile}`,
    audience,
    tokenEndpointUrl: '',
    lifetimeSeconds: options.lifetimeSeconds ?? 3600,
    down: false,
    get unavailable() {
      return unavailable;
    },
    get issued() {
      return issued;
    },
    issuedTo: (clientId) => issuedByClient.get(clientId) ?? 0,
    get refused() {
      return refused;
    },
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      provider.tokenEndpointUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/token`;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
  return provider;
}
