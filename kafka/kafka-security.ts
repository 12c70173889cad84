// The TLS and SASL settings of a kafkajs client, from the resolved config's `kafka` section: the
// PEM files it names are read here, at the edge, and an unreadable one is a configuration error
// (exit 2) naming the field and the path, never the file's content.
import { readFileSync } from 'node:fs';
import type { KafkaConfig, SASLOptions } from 'kafkajs';
import { ConfigError } from '../src/engine/config/config-error.ts';
import type { ConfigProblem } from '../src/engine/config/config-error.ts';
import { tlsSchema } from '../src/engine/config/config-schema.ts';
import { saslSchema } from '../src/engine/config/sasl-schema.ts';
import type { ScorestreamConfigInput } from '../src/engine/config/config-types.ts';
import { applyEnvironmentOverrides } from '../src/engine/config/env-overrides.ts';
import type { ResolvedConfig } from '../src/engine/config/resolve-config.ts';
import { aclPrincipalOf, describePrincipal, settingSecrets } from './kafka-access-error.ts';
import { kafkajsOAuthBearer } from './oauth-token.ts';

export type KafkaSecuritySettings = Pick<ResolvedConfig['kafka'], 'ssl' | 'sasl'>;
export type ClientSecurity = Pick<KafkaConfig, 'ssl' | 'sasl'>;

const fileFields = [
  ['caFile', 'ca', 'KAFKA_SSL_CA_FILE'],
  ['certFile', 'cert', 'KAFKA_SSL_CERT_FILE'],
  ['keyFile', 'key', 'KAFKA_SSL_KEY_FILE'],
] as const;

/** kafkajs `sasl`: a user and password as they are; OAUTHBEARER through the process's token source (oauth-token.ts). */
function kafkajsSasl(sasl: NonNullable<KafkaSecuritySettings['sasl']>): SASLOptions {
  if (sasl.mechanism !== 'oauthbearer' && sasl.mechanism !== 'aws-msk-iam') return { ...sasl } as SASLOptions;
  return kafkajsOAuthBearer(sasl);
}

/** kafkajs `ssl` and `sasl` options; throws a ConfigError when a named PEM file cannot be read. */
export function kafkaClientSecurity(settings: KafkaSecuritySettings): ClientSecurity {
  const security: ClientSecurity = {};
  if (settings.sasl !== undefined) security.sasl = kafkajsSasl(settings.sasl);
  const ssl = settings.ssl;
  if (ssl === undefined) return security;
  if (typeof ssl === 'boolean') return { ...security, ssl };
  const problems: ConfigProblem[] = [];
  const { caFile, certFile, keyFile, ...tls } = ssl;
  const files = { caFile, certFile, keyFile };
  const options: Record<string, unknown> = { ...tls };
  for (const [fileField, field, variable] of fileFields) {
    const path = files[fileField];
    if (path === undefined) continue;
    try {
      options[field] = readFileSync(path, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      problems.push({ path: `kafka.ssl.${fileField}`, message: `cannot read '${path}' (${reason}); give the path of a PEM file (env ${variable})` });
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  if ((options.cert === undefined) !== (options.key === undefined)) {
    throw new ConfigError([{ path: 'kafka.ssl', message: 'a client certificate needs both `cert` and `key` (KAFKA_SSL_CERT[_FILE] and KAFKA_SSL_KEY[_FILE])' }]);
  }
  return { ...security, ssl: options };
}

/**
 * TLS and SASL for the CLI's own clients (tail, produce, demo), which have no config file: the
 * same KAFKA_SSL* and KAFKA_SASL_* variables the service reads, checked by the same schemas.
 * Throws a ConfigError (exit 2) for a bad value. Also says who connects, for error messages.
 */
export function kafkaSecurityFromEnvironment(environment: Record<string, string | undefined>): { settings: KafkaSecuritySettings; security: ClientSecurity; principal: string; aclPrincipal?: string; secrets: string[] } {
  const problems: ConfigProblem[] = [];
  const overridden = applyEnvironmentOverrides({ scorers: [] } as ScorestreamConfigInput<unknown>, environment, problems);
  const settings: KafkaSecuritySettings = {};
  if (overridden.kafka?.ssl !== undefined) {
    const ssl = tlsSchema.safeParse(overridden.kafka.ssl);
    if (ssl.success) settings.ssl = ssl.data;
    else problems.push(...ssl.error.issues.map((issue) => ({ path: `env KAFKA_SSL* (${issue.path.join('.') || 'ssl'})`, message: issue.message })));
  }
  if (overridden.kafka?.sasl !== undefined) {
    const sasl = saslSchema.safeParse(overridden.kafka.sasl);
    if (sasl.success) settings.sasl = sasl.data;
    // Only the field names: a message quoting the input could quote the password.
    else {
      // Only the field names (and the schema's own words, which quote no value): a message quoting the input could quote a secret.
      const oauth = (overridden.kafka.sasl as { mechanism?: unknown }).mechanism === 'oauthbearer';
      problems.push(
        ...sasl.error.issues.map((issue) =>
          oauth
            ? { path: `env KAFKA_SASL_OAUTHBEARER_* (${issue.path.join('.') || 'sasl'})`, message: issue.message }
            : { path: `env KAFKA_SASL_${String(issue.path[0] ?? 'MECHANISM').toUpperCase()}`, message: issue.code === 'invalid_union' || issue.code === 'invalid_value' ? "expected 'plain', 'scram-sha-256', 'scram-sha-512' or 'oauthbearer'" : 'missing or empty (KAFKA_SASL_MECHANISM, KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD go together)' },
        ),
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems, 'the environment');
  const aclPrincipal = aclPrincipalOf(settings);
  return { settings, security: kafkaClientSecurity(settings), principal: describePrincipal(settings), ...(aclPrincipal === undefined ? {} : { aclPrincipal }), secrets: settingSecrets(settings) };
}
