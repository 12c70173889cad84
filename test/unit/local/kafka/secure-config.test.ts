// The secured broker's server.properties and format arguments: the listeners a managed Kafka
// has (SASL_SSL, mutual TLS), a controller nobody reaches unauthenticated, deny-by-default ACLs,
// and every user's SCRAM credentials — rendered from the materials, as pure functions.
import { describe, expect, it } from 'vitest';
import { scramFormatArguments, secureServerSettings } from '../../../../local/kafka/secure-config.ts';
import { ensureSecurityMaterials } from '../../../../local/kafka/secure-materials.ts';
import type { SecurityMaterials } from '../../../../local/kafka/secure-materials.ts';

const materials: SecurityMaterials = {
  caCertificate: '/state/tls/ca.pem',
  brokerKeystore: '/state/tls/broker-keystore.pem',
  clientCertificate: '/state/tls/client.pem',
  clientKey: '/state/tls/client.key',
  users: { admin: 'admin-pw', svc: 'svc-pw' },
};
const settings = secureServerSettings({ ports: { broker: 41000, mtls: 41001, controller: 41002 }, dataDirectory: '/state/data', materials });

describe('secureServerSettings', () => {
  it('listens on SASL_SSL and mutual-TLS listeners and a mutual-TLS controller, on 127.0.0.1 only', () => {
    expect(settings.listeners).toBe('SASL_SSL://127.0.0.1:41000,SSL://127.0.0.1:41001,CONTROLLER://127.0.0.1:41002');
    expect(settings['advertised.listeners']).toBe('SASL_SSL://127.0.0.1:41000,SSL://127.0.0.1:41001');
    expect(settings['listener.security.protocol.map']).toBe('SASL_SSL:SASL_SSL,SSL:SSL,CONTROLLER:SSL');
    expect(settings['ssl.client.auth']).toBe('required');
    expect(settings['listener.name.sasl_ssl.ssl.client.auth']).toBe('none');
    expect(settings['ssl.keystore.location']).toBe(materials.brokerKeystore);
    expect(settings['ssl.truststore.location']).toBe(materials.caCertificate);
  });

  it('enables SCRAM-SHA-512, SCRAM-SHA-256 and PLAIN, with the PLAIN users in the JAAS line', () => {
    expect(settings['sasl.enabled.mechanisms']).toBe('SCRAM-SHA-512,SCRAM-SHA-256,PLAIN');
    expect(settings['listener.name.sasl_ssl.plain.sasl.jaas.config']).toBe('org.apache.kafka.common.security.plain.PlainLoginModule required user_admin="admin-pw" user_svc="svc-pw";');
  });

  it('denies whatever no ACL allows; only the admin and the broker itself are super users', () => {
    expect(settings['authorizer.class.name']).toBe('org.apache.kafka.metadata.authorizer.StandardAuthorizer');
    expect(settings['allow.everyone.if.no.acl.found']).toBe('false');
    expect(settings['super.users']).toBe('User:admin;User:scorestream-broker');
  });

  it('refuses a password that would need escaping in JAAS', () => {
    expect(() => secureServerSettings({ ports: { broker: 1, mtls: 2, controller: 3 }, dataDirectory: '/d', materials: { ...materials, users: { svc: 'a"b' } } })).toThrow(/URL-safe/);
  });
});

describe('scramFormatArguments', () => {
  it('adds both SCRAM hashes for every user', () => {
    expect(scramFormatArguments(materials)).toEqual([
      '--add-scram', 'SCRAM-SHA-512=[name=admin,password=admin-pw]',
      '--add-scram', 'SCRAM-SHA-256=[name=admin,password=admin-pw]',
      '--add-scram', 'SCRAM-SHA-512=[name=svc,password=svc-pw]',
      '--add-scram', 'SCRAM-SHA-256=[name=svc,password=svc-pw]',
    ]);
  });
});

describe('ensureSecurityMaterials', () => {
  it('refuses user names that are not safe, and the admin name, before making anything', async () => {
    await expect(ensureSecurityMaterials('/nonexistent', ['bad name'])).rejects.toThrow(/cannot be a SASL user/);
    await expect(ensureSecurityMaterials('/nonexistent', ['admin'])).rejects.toThrow(/not 'admin'/);
  });
});
