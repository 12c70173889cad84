// A throwaway secured broker (secure-config.ts) for tests: TLS with a private CA, SASL users
// (SCRAM-SHA-512/256 and PLAIN) with random passwords, mutual TLS, and the StandardAuthorizer
// denying whatever no ACL allows. Always on the local JVM (the certificates need openssl, the
// broker Java anyway), always its own broker: KAFKA_BROKERS is ignored, since a secured test
// needs a broker whose users and ACLs it controls. stop() ends it and removes every secret.
import { readFileSync } from 'node:fs';
import type { KafkaConfig, SASLOptions } from 'kafkajs';
import type { BrokerHandle } from './broker-handle.ts';
import { startEphemeralJvmBroker } from './ephemeral-broker.ts';
import { adminSecurity } from './jvm-broker.ts';
import { freePort } from './ports.ts';
import type { ClientSecurity } from './readiness.ts';
import { ensureSecurityMaterials } from './secure-materials.ts';
import type { SecurityMaterials } from './secure-materials.ts';
import type { BrokerOAuth } from './secure-config.ts';

export type SaslMechanismName = 'plain' | 'scram-sha-256' | 'scram-sha-512';

/** SASL settings as both kafkajs and the scorestream config take them. */
export type UserSasl = { mechanism: SaslMechanismName; username: string; password: string };

export type SecureBrokerHandle = BrokerHandle & {
  /** The mutual-TLS listener (client certificate required); `brokers` is the SASL_SSL one. */
  mtlsBrokers: string[];
  materials: SecurityMaterials;
  /** The private CA's certificate (PEM), which clients must trust. */
  caPem: string;
  /** The client certificate and key (PEM) for the mutual-TLS listener; principal `User:scorestream-client`. */
  clientCertificatePem: string;
  clientKeyPem: string;
  /** The super user's client settings, for setup (topics, ACLs) only. */
  adminSecurity: ClientSecurity;
  /** A user's SASL settings; throws for a user the broker was not started with. */
  sasl(user: string, mechanism?: SaslMechanismName): UserSasl;
  /** kafkajs client settings for `user` over SASL_SSL (default SCRAM-SHA-512). */
  clientConfig(user: string, mechanism?: SaslMechanismName): Pick<KafkaConfig, 'brokers' | 'ssl' | 'sasl'>;
};

export type StartSecureBrokerOptions = {
  /** SASL users besides `admin` (each gets SCRAM-SHA-512, SCRAM-SHA-256 and PLAIN credentials). */
  users?: readonly string[];
  /** OAUTHBEARER on the SASL listener too, validating tokens against this JWKS (secure-config.ts). */
  oauth?: BrokerOAuth;
  onProgress?: (line: string) => void;
};


export async function startSecureEphemeralBroker(options: StartSecureBrokerOptions = {}): Promise<SecureBrokerHandle> {
  let materials: SecurityMaterials | undefined;
  const handle = await startEphemeralJvmBroker(options.onProgress, async (directory) => {
    materials = await ensureSecurityMaterials(directory, options.users ?? []);
    return { materials, mtlsPort: await freePort(), ...(options.oauth === undefined ? {} : { oauth: options.oauth }) };
  });
  if (materials === undefined || handle.mtlsBrokers === undefined) throw new Error('the secured broker started without its security materials');
  const ready = materials;
  const caPem = readFileSync(ready.caCertificate, 'utf8');
  const sasl = (user: string, mechanism: SaslMechanismName = 'scram-sha-512'): UserSasl => {
    const password = ready.users[user];
    if (password === undefined) throw new Error(`the secured broker has no user '${user}'; start it with users: ['${user}', …]`);
    return { mechanism, username: user, password };
  };
  return {
    ...handle,
    mtlsBrokers: handle.mtlsBrokers,
    materials: ready,
    caPem,
    clientCertificatePem: readFileSync(ready.clientCertificate, 'utf8'),
    clientKeyPem: readFileSync(ready.clientKey, 'utf8'),
    adminSecurity: adminSecurity(ready),
    sasl,
    clientConfig: (user, mechanism) => ({ brokers: handle.brokers, ssl: { ca: [caPem] }, sasl: sasl(user, mechanism) as SASLOptions }),
  };
}
