// The producer SDK's SASL option (producers/run-publisher.ts): kafkajs' own `sasl` as it is, or
// the service's token-based settings (src/engine/config/sasl-schema.ts) — OAUTHBEARER with OIDC
// client credentials or a custom `tokenProvider`, or Amazon MSK IAM — so an agent's process logs in
// as the service does, with the same token source (kafka/oauth-token.ts) turned into kafkajs'
// `oauthBearerProvider`. A session's end closes the connection and the publisher logs in afresh
// (KAFKA_DEFAULTS.kafkajs says why it does not log in again on the live connection).
import type { KafkaConfig } from 'kafkajs';
import { saslSchema } from '../src/engine/config/sasl-schema.ts';
import type { SaslConfig } from '../src/engine/config/config-types.ts';
import { ScorestreamError } from '../src/kit/errors.ts';
import { kafkajsOAuthBearer } from './oauth-token.ts';

/** What the publisher's `sasl` option takes. */
export type PublisherSasl = KafkaConfig['sasl'] | Extract<SaslConfig, { mechanism: 'oauthbearer' | 'aws-msk-iam' }>;

/** The settings as the access errors name them: a user, an OAuth client, or MSK IAM's region. */
export type NamedLogin = { mechanism: string; username?: string; password?: string; clientId?: string; clientSecret?: string; region?: string };

function isTokenSettings(sasl: NonNullable<PublisherSasl>): boolean {
  return sasl.mechanism === 'aws-msk-iam' || (sasl.mechanism === 'oauthbearer' && !('oauthBearerProvider' in sasl));
}

/** kafkajs' `sasl` for the publisher's client and the settings its access errors name; throws on token settings that cannot log in. */
export type PublisherLogin = { kafkajs: KafkaConfig['sasl'] | undefined; named: NamedLogin | undefined };

export function publisherLogin(sasl: PublisherSasl | undefined, environment: Record<string, string | undefined> = process.env): PublisherLogin {
  if (sasl === undefined) return { kafkajs: undefined, named: undefined };
  if (!isTokenSettings(sasl)) {
    const { mechanism, username, password } = sasl as { mechanism: string; username?: string; password?: string };
    return { kafkajs: sasl as KafkaConfig['sasl'], named: username === undefined ? undefined : { mechanism, username, ...(password === undefined ? {} : { password }) } };
  }
  const withRegion = sasl.mechanism === 'aws-msk-iam' ? { ...sasl, region: (sasl as { region?: string }).region ?? environment.AWS_REGION ?? environment.AWS_DEFAULT_REGION } : sasl;
  const parsed = saslSchema.safeParse(withRegion);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `sasl.${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ScorestreamError(`createRunPublisher cannot log in with these SASL settings: ${problems}`, { code: 'invalid_options' });
  }
  const settings = parsed.data;
  // isTokenSettings said which; the narrowing is for the types.
  if (settings.mechanism !== 'oauthbearer' && settings.mechanism !== 'aws-msk-iam') return { kafkajs: sasl as KafkaConfig['sasl'], named: settings };
  if (settings.mechanism === 'aws-msk-iam' && settings.region === undefined) {
    throw new ScorestreamError("createRunPublisher with MSK IAM signs for a region: give sasl.region or set AWS_REGION, e.g. 'us-east-1'", { code: 'invalid_options' });
  }
  // One settings object, so one token source: the publisher's logins share its token.
  return { kafkajs: kafkajsOAuthBearer(settings), named: settings };
}
