// What a long-running role says when its token-based login (OAUTHBEARER, MSK IAM) runs into
// trouble after the start (docs/security.md, OAuth): a warning when a renewal first fails while the
// token still holds, a warning when the token expires with no new one (Kafka logins fail until one
// is had; the clients keep reconnecting and the work resumes where it stopped), and a line when a
// token is had again. Once per change, never per attempt; never the secret (OAuthTokenError's
// messages carry none).
import type { KafkaSettings } from './kafka-settings.ts';
import { oauthTokenSource } from './oauth-token.ts';
import type { OAuthTokenEvent } from './oauth-token.ts';

/** Where the lines go: a pino logger, or a CLI's warning printer for both. */
export type LoginLog = { warn(message: string): void; info(message: string): void };

const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

export function describeTokenEvent(mechanism: 'oauthbearer' | 'aws-msk-iam', event: OAuthTokenEvent): { level: 'warn' | 'info'; text: string } {
  const token = mechanism === 'aws-msk-iam' ? 'MSK IAM token' : 'OAUTHBEARER token';
  if (event.kind === 'renewal_failed') return { level: 'warn', text: `the ${token} could not be renewed (${event.reason}); the current one is used until it expires in ${seconds(event.expiresInMs)}, and renewal is retried meanwhile` };
  if (event.kind === 'expired') return { level: 'warn', text: `the ${token} could not be renewed and the last one has expired (${event.reason}): Kafka logins fail until a token is had again; the clients keep reconnecting and the work resumes where it stopped` };
  return { level: 'info', text: `the ${token} was renewed again after ${event.failures} failed attempt${event.failures === 1 ? '' : 's'} over ${seconds(event.sinceMs)}` };
}

/** Logs the token source's events for these settings until the returned function is called; a no-op without a token-based login. */
export function watchTokenHealth(settings: Pick<KafkaSettings, 'sasl'>, log: LoginLog): () => void {
  const sasl = settings.sasl;
  if (sasl?.mechanism !== 'oauthbearer' && sasl?.mechanism !== 'aws-msk-iam') return () => undefined;
  const mechanism = sasl.mechanism;
  return oauthTokenSource(sasl).watch((event) => {
    const { level, text } = describeTokenEvent(mechanism, event);
    log[level](text);
  });
}
