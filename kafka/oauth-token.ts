// OAUTHBEARER tokens for every Kafka client of a process (docs/security.md, OAuth): from an OIDC
// provider's token endpoint with the client credentials grant (RFC 6749 §4.4: the client id and
// secret in HTTP Basic, `scope` when set), or from a custom provider. One source per SASL
// settings object, so every client of the process shares its token. A token is reused until 80%
// of its lifetime has passed (a broker with connections.max.reauth.ms asks each connection to log
// in again before its token expires, and the clients do); concurrent logins share one request. A
// renewal that fails while the token still holds keeps the token and tries again soon; once it has
// expired, the provider is asked again with a backoff, not at every reconnect; each change is told
// to watchers (oauth-token-log.ts).
// A refused request throws an OAuthTokenError naming the endpoint, the client id and what the
// provider said — never the secret — which the edge reports like a refused SASL login (exit 2 at
// start).
import { readFileSync } from 'node:fs';
import type { OAuthTokenProvider } from '../src/engine/config/sasl-schema.ts';
import { ConfigError } from '../src/engine/config/config-error.ts';
import { backoffDelayMs } from '../src/kit/backoff.ts';
import type { Backoff } from '../src/kit/backoff.ts';
import { hasErrorMarker, ScorestreamError } from '../src/kit/errors.ts';
import { mskIamTokenProvider } from './msk-iam-token.ts';

/** The settings of a token-based login: OIDC client credentials, a custom provider, or MSK IAM (`region`). */
export type OAuthSaslSettings = {
  mechanism: 'oauthbearer' | 'aws-msk-iam';
  region?: string | undefined;
  tokenEndpointUrl?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  clientSecretFile?: string | undefined;
  scope?: string | undefined;
  extensions?: Record<string, string> | undefined;
  tokenProvider?: OAuthTokenProvider | undefined;
};

export type OAuthToken = { value: string; lifetimeMs: number; extensions?: Record<string, string> };

/**
 * A change in the source's health, told once per change rather than per attempt: the first renewal
 * that failed while the token still held, the token expiring with no new one to be had (logins fail
 * from then on), and the first token after either.
 */
export type OAuthTokenEvent =
  | { kind: 'renewal_failed'; reason: string; expiresInMs: number }
  | { kind: 'expired'; reason: string }
  | { kind: 'recovered'; failures: number; sinceMs: number };

export type OAuthTokenSource = {
  /** A token good for at least a fifth of its lifetime. */
  token(): Promise<OAuthToken>;
  /** The SASL extensions of every login: the settings', and the provider's last. */
  extensions(): Record<string, string>;
  /** Tells `listener` every OAuthTokenEvent from now on; returns the way to stop. */
  watch(listener: (event: OAuthTokenEvent) => void): () => void;
};

const marker = Symbol.for('scorestream.error.OAuthTokenError');

export class OAuthTokenError extends ScorestreamError {
  readonly [marker] = true;
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'OAUTH_TOKEN', ...options });
    this.name = 'OAuthTokenError';
  }

  /** True for an OAuthTokenError from any copy of this library. */
  static override isInstance(value: unknown): value is OAuthTokenError {
    return hasErrorMarker(value, marker);
  }
}

export type OAuthTokenOptions = { fetch?: typeof fetch; now?: () => number; timeoutMs?: number };

function clientSecretOf(settings: OAuthSaslSettings): string {
  if (settings.clientSecret !== undefined) return settings.clientSecret;
  try {
    return readFileSync(settings.clientSecretFile!, 'utf8').trim();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new ConfigError([{ path: 'kafka.sasl.clientSecretFile', message: `cannot read '${settings.clientSecretFile}' (${reason}); give the path of a file holding the client secret (env KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET_FILE)` }]);
  }
}

/** The client credentials grant against the token endpoint. */
function clientCredentials(settings: OAuthSaslSettings, options: OAuthTokenOptions): OAuthTokenProvider {
  const secret = clientSecretOf(settings);
  const doFetch = options.fetch ?? fetch;
  const endpoint = settings.tokenEndpointUrl!;
  const clientId = settings.clientId!;
  // RFC 6749 §2.3.1: id and secret form-encoded, then Basic.
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64');
  const body = new URLSearchParams({ grant_type: 'client_credentials', ...(settings.scope === undefined ? {} : { scope: settings.scope }) }).toString();
  const who = `client '${clientId}' at ${endpoint}`;
  return async () => {
    let response: Response;
    try {
      response = await doFetch(endpoint, { method: 'POST', headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
    } catch (error) {
      throw new OAuthTokenError(`the OIDC token endpoint could not be reached for ${who}: ${(error as Error).message}; check KAFKA_SASL_OAUTHBEARER_TOKEN_ENDPOINT_URL`, { cause: error });
    }
    const text = await response.text();
    let answer: { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } = {};
    try {
      answer = JSON.parse(text) as typeof answer;
    } catch {
      // Said below with the status.
    }
    if (!response.ok || typeof answer.access_token !== 'string') {
      const said = typeof answer.error === 'string' ? `${answer.error}${typeof answer.error_description === 'string' ? `: ${answer.error_description}` : ''}` : text.slice(0, 200);
      const hint = response.status === 400 || response.status === 401 ? 'check KAFKA_SASL_OAUTHBEARER_CLIENT_ID and KAFKA_SASL_OAUTHBEARER_CLIENT_SECRET (or its _FILE), and the scope' : 'check the token endpoint';
      throw new OAuthTokenError(`the OIDC token endpoint refused ${who} (HTTP ${response.status} ${said.replaceAll(secret, '[redacted]')}): ${hint}`);
    }
    const expiresIn = typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in : 3600;
    return { value: answer.access_token, lifetimeMs: expiresIn * 1000 };
  };
}

/** kafkajs' `sasl` for a token-based login: the process's token source as its oauthBearerProvider. */
export function kafkajsOAuthBearer(settings: OAuthSaslSettings): { mechanism: 'oauthbearer'; oauthBearerProvider: () => Promise<{ value: string }> } {
  const source = oauthTokenSource(settings);
  return { mechanism: 'oauthbearer', oauthBearerProvider: async () => ({ value: (await source.token()).value }) };
}

/** How often an expired source asks the provider again. */
const expiredBackoff: Backoff = { firstDelayMs: 1_000, maxDelayMs: 15_000 };

const sources = new WeakMap<object, OAuthTokenSource>();

/** The process's token source for these settings (one per settings object). */
export function oauthTokenSource(settings: OAuthSaslSettings, options: OAuthTokenOptions = {}): OAuthTokenSource {
  const known = sources.get(settings);
  if (known !== undefined) return known;
  const now = options.now ?? Date.now;
  const provide = settings.mechanism === 'aws-msk-iam' ? mskIamTokenProvider(settings.region!) : (settings.tokenProvider ?? clientCredentials(settings, options));
  let current: { token: OAuthToken; refreshAt: number; expiresAt: number } | undefined;
  let pending: Promise<OAuthToken> | undefined;
  const listeners = new Set<(event: OAuthTokenEvent) => void>();
  const tell = (event: OAuthTokenEvent) => listeners.forEach((listener) => listener(event));
  // The outage under way, if any: since when, how many attempts failed, and — once the token has
  // expired — the last failure and when the provider is asked again.
  let trouble: { since: number; failures: number; expired?: { error: OAuthTokenError; failures: number; retryAt: number } } | undefined;
  const source: OAuthTokenSource = {
    token() {
      if (current !== undefined && now() < current.refreshAt) return Promise.resolve(current.token);
      // Expired: the clients reconnect several times a second, and each would ask the identity
      // provider; between attempts (backing off to 15 s) they get the last failure at once.
      if (trouble?.expired !== undefined && now() < trouble.expired.retryAt) return Promise.reject(trouble.expired.error);
      pending ??= (async () => {
        try {
          const token = await provide();
          if (typeof token?.value !== 'string' || token.value === '') throw new OAuthTokenError('the OAUTHBEARER token provider returned no token: return { value, lifetimeMs, extensions? }');
          const lifetime = Math.max(0, token.lifetimeMs);
          current = { token, refreshAt: now() + lifetime * 0.8, expiresAt: now() + lifetime };
          if (trouble !== undefined) tell({ kind: 'recovered', failures: trouble.failures, sinceMs: now() - trouble.since });
          trouble = undefined;
          return token;
        } catch (error) {
          const failure = OAuthTokenError.isInstance(error) ? error : new OAuthTokenError(`the ${settings.mechanism === 'aws-msk-iam' ? 'MSK IAM' : 'OAUTHBEARER'} token provider failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
          // The first token of the process has no outage to report: its refusal is the start's error.
          if (current === undefined) throw failure;
          const first = trouble === undefined;
          trouble ??= { since: now(), failures: 0 };
          trouble.failures += 1;
          // A renewal that failed while the token still holds: keep using it, and try again after a
          // tenth of what is left (at least a second), so an identity provider's blip is no outage.
          if (now() < current.expiresAt - 1_000) {
            current = { ...current, refreshAt: now() + Math.max(1_000, (current.expiresAt - now()) / 10) };
            if (first) tell({ kind: 'renewal_failed', reason: failure.message, expiresInMs: current.expiresAt - now() });
            return current.token;
          }
          if (trouble.expired === undefined) tell({ kind: 'expired', reason: failure.message });
          const failures = (trouble.expired?.failures ?? 0) + 1;
          trouble.expired = { error: failure, failures, retryAt: now() + backoffDelayMs(expiredBackoff, failures) };
          throw failure;
        } finally {
          pending = undefined;
        }
      })();
      return pending;
    },
    extensions: () => ({ ...settings.extensions, ...current?.token.extensions }),
    watch(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  sources.set(settings, source);
  return source;
}
