// The TLS settings a deployment passes through its environment: the CA, the client certificate
// and key (as PEM text or as the path of a PEM file) and the name expected in the brokers'
// certificates. Any of them turns TLS on; each overrides its own field of the config's
// `kafka.ssl` (docs/configuration.md). PEM text may carry its line breaks as literal `\n`, as
// many secret stores and CI systems hand multi-line values over.
import type { ScorestreamConfigInput } from './config-types.ts';

type KafkaSection = NonNullable<ScorestreamConfigInput<unknown>['kafka']>;
type TlsSettings = Exclude<NonNullable<KafkaSection['ssl']>, boolean>;

export const tlsEnvironmentVariables = {
  KAFKA_SSL_CA: 'ca',
  KAFKA_SSL_CA_FILE: 'caFile',
  KAFKA_SSL_CERT: 'cert',
  KAFKA_SSL_CERT_FILE: 'certFile',
  KAFKA_SSL_KEY: 'key',
  KAFKA_SSL_KEY_FILE: 'keyFile',
  KAFKA_SSL_SERVERNAME: 'servername',
} as const satisfies Record<string, keyof TlsSettings>;

const pemFields = new Set<keyof TlsSettings>(['ca', 'cert', 'key']);

/** Lays the KAFKA_SSL_* variables (but KAFKA_SSL itself) over `kafka.ssl`, in place. */
export function applyTlsEnvironment(kafka: KafkaSection, environment: Record<string, string | undefined>): void {
  const settings: TlsSettings = {};
  for (const [variable, field] of Object.entries(tlsEnvironmentVariables)) {
    const raw = environment[variable];
    if (raw === undefined || raw.trim() === '') continue;
    const text = pemFields.has(field) ? raw.replaceAll('\\n', '\n').trim() + '\n' : raw.trim();
    (settings as Record<string, string>)[field] = text;
  }
  if (Object.keys(settings).length === 0) return;
  kafka.ssl = { ...(typeof kafka.ssl === 'object' ? kafka.ssl : {}), ...settings };
}
