// The connection options every @platformatic/kafka client of the service gets from the resolved
// config: brokers, client id, and TLS and SASL from the same settings (and PEM files) as the
// kafkajs client's (kafka-security.ts), in platformatic's spelling.
import type { BaseOptions, SASLMechanismValue } from '@platformatic/kafka';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import { kafkaClientSecurity } from './kafka-security.ts';
import { oauthTokenSource } from './oauth-token.ts';

export type PlatformaticConnection = Pick<BaseOptions, 'clientId' | 'bootstrapBrokers' | 'tls' | 'sasl'>;

const mechanisms: Record<string, SASLMechanismValue> = { plain: 'PLAIN', 'scram-sha-256': 'SCRAM-SHA-256', 'scram-sha-512': 'SCRAM-SHA-512' };

/** Throws a ConfigError, as kafkaClientSecurity does, when a named PEM file cannot be read. */
export function platformaticConnection(kafka: Pick<ResolvedConfig['kafka'], 'clientId' | 'brokers' | 'ssl' | 'sasl'>): PlatformaticConnection {
  const { ssl, sasl } = kafkaClientSecurity(kafka);
  const connection: PlatformaticConnection = { clientId: kafka.clientId, bootstrapBrokers: [...kafka.brokers] };
  if (ssl === true) connection.tls = {};
  else if (typeof ssl === 'object' && ssl !== null) connection.tls = { ...ssl };
  const settings = kafka.sasl;
  if (settings?.mechanism === 'oauthbearer' || settings?.mechanism === 'aws-msk-iam') {
    // The process's token source (oauth-token.ts): a fresh token at every login and re-login.
    const source = oauthTokenSource(settings);
    connection.sasl = { mechanism: 'OAUTHBEARER', token: async () => (await source.token()).value, oauthBearerExtensions: () => source.extensions() };
  } else if (sasl !== undefined && 'username' in sasl) connection.sasl = { mechanism: mechanisms[sasl.mechanism]!, username: sasl.username, password: sasl.password };
  return connection;
}
