// kafkaClientSecurity and kafkaSecurityFromEnvironment: the TLS and SASL settings kafkajs gets,
// PEM files read at the edge, and unreadable files or bad variables reported as configuration
// problems (exit 2) that name the field and path — never a file's content or a password.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/engine/config/config-error.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { createScorer } from '../../../src/kit/scorer/create-scorer.ts';
import { kafkaClientSecurity, kafkaSecurityFromEnvironment } from '../../../kafka/kafka-security.ts';

const directory = mkdtempSync(join(tmpdir(), 'scorestream-tls-'));
const caPath = join(directory, 'ca.pem');
writeFileSync(caPath, '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n');
const certPath = join(directory, 'client.pem');
writeFileSync(certPath, 'CERT PEM\n');
const keyPath = join(directory, 'client.key');
writeFileSync(keyPath, 'PRIVATE KEY PEM\n');

const scorer = createScorer({ id: 'length', description: 'length' }).generateScore(() => 1);
const resolveWith = (environment: Record<string, string>) => resolveConfig({ kafka: { brokers: ['b:9093'] }, scorers: [{ scorer }] }, { environment });

function configError(action: () => unknown): ConfigError {
  try {
    action();
  } catch (error) {
    expect(ConfigError.isInstance(error)).toBe(true);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('TLS from the environment (resolveConfig)', () => {
  it('KAFKA_SSL_*_FILE and KAFKA_SSL_SERVERNAME turn TLS on, each in its own field', () => {
    const { ssl } = resolveWith({ KAFKA_SSL_CA_FILE: caPath, KAFKA_SSL_CERT_FILE: certPath, KAFKA_SSL_KEY_FILE: keyPath, KAFKA_SSL_SERVERNAME: 'kafka.internal' }).kafka;
    expect(ssl).toEqual({ caFile: caPath, certFile: certPath, keyFile: keyPath, servername: 'kafka.internal' });
  });

  it('KAFKA_SSL_CA takes PEM text, with line breaks as literal \\n', () => {
    expect(resolveWith({ KAFKA_SSL_CA: '-----BEGIN CERTIFICATE-----\\nAAA\\n-----END CERTIFICATE-----' }).kafka.ssl).toEqual({ ca: '-----BEGIN CERTIFICATE-----\nAAA\n-----END CERTIFICATE-----\n' });
  });

  it('KAFKA_SSL=false still turns TLS off', () => {
    expect(resolveWith({ KAFKA_SSL_CA_FILE: caPath, KAFKA_SSL: 'false' }).kafka.ssl).toBe(false);
  });
});

describe('kafkaClientSecurity', () => {
  it('reads the PEM files into kafkajs options and keeps SASL as given', () => {
    const security = kafkaClientSecurity({ ssl: { caFile: caPath, certFile: certPath, keyFile: keyPath, servername: 'kafka.internal' }, sasl: { mechanism: 'plain', username: 'svc', password: 'secret' } });
    expect(security.ssl).toEqual({ ca: '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n', cert: 'CERT PEM\n', key: 'PRIVATE KEY PEM\n', servername: 'kafka.internal' });
    expect(security.sasl).toEqual({ mechanism: 'plain', username: 'svc', password: 'secret' });
  });

  it('passes `true` and no settings through', () => {
    expect(kafkaClientSecurity({ ssl: true })).toEqual({ ssl: true });
    expect(kafkaClientSecurity({})).toEqual({});
  });

  it('reports an unreadable file by field and path', () => {
    const error = configError(() => kafkaClientSecurity({ ssl: { caFile: join(directory, 'missing.pem') } }));
    expect(error.problems).toEqual([{ path: 'kafka.ssl.caFile', message: expect.stringContaining("cannot read '") }]);
    expect(error.message).toContain('ENOENT');
    expect(error.message).toContain('KAFKA_SSL_CA_FILE');
  });

  it('wants a certificate and its key together', () => {
    const error = configError(() => kafkaClientSecurity({ ssl: { certFile: certPath } }));
    expect(error.message).toContain('needs both `cert` and `key`');
    expect(error.message).not.toContain('CERT PEM');
  });
});

describe('kafkaSecurityFromEnvironment (tail, produce, demo)', () => {
  it('reads the same variables as the service', () => {
    const { security, principal, secrets } = kafkaSecurityFromEnvironment({
      KAFKA_SASL_MECHANISM: 'SCRAM-SHA-512',
      KAFKA_SASL_USERNAME: 'tail',
      KAFKA_SASL_PASSWORD: 'tail-secret',
      KAFKA_SSL_CA_FILE: caPath,
    });
    expect(security).toEqual({ sasl: { mechanism: 'scram-sha-512', username: 'tail', password: 'tail-secret' }, ssl: { ca: expect.stringContaining('BEGIN CERTIFICATE') } });
    expect(principal).toBe("user 'tail' (SCRAM-SHA-512)");
    expect(secrets).toEqual(['tail-secret']);
  });

  it('nothing set: a plain client', () => {
    expect(kafkaSecurityFromEnvironment({}).security).toEqual({});
  });

  it('a bad mechanism or a missing username is a config problem that does not quote the password', () => {
    const error = configError(() => kafkaSecurityFromEnvironment({ KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'svc', KAFKA_SASL_PASSWORD: 'hunter2-secret' }));
    expect(error.message).toContain('KAFKA_SASL_MECHANISM');
    expect(error.message).not.toContain('hunter2-secret');
    const missing = configError(() => kafkaSecurityFromEnvironment({ KAFKA_SASL_PASSWORD: 'hunter2-secret' }));
    expect(missing.message).toContain('KAFKA_SASL_');
    expect(missing.message).not.toContain('hunter2-secret');
  });
});
