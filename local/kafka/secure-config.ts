// The configuration of a secured single-node broker, as pure functions: what a managed Kafka
// looks like to a client. Two client listeners — SASL_SSL (SCRAM-SHA-512, SCRAM-SHA-256 and PLAIN
// over TLS) and SSL with a client certificate required (mutual TLS) — plus the KRaft controller
// listener, itself on mutual TLS so no principal gets in unauthenticated. The StandardAuthorizer
// denies whatever no ACL allows; the admin user and the broker's own certificate are super users.
import { singleNodeSettings } from './broker-config.ts';
import type { BrokerPorts } from './broker-config.ts';
import { ADMIN_USER, BROKER_CERTIFICATE_NAME } from './secure-materials.ts';
import type { SecurityMaterials } from './secure-materials.ts';

export type SecureBrokerPorts = BrokerPorts & {
  /** The mutual-TLS listener (client certificate required). `broker` is the SASL_SSL one. */
  mtls: number;
};

export const saslMechanisms = ['SCRAM-SHA-512', 'SCRAM-SHA-256', 'PLAIN'] as const;

// JAAS values are double-quoted strings: keep passwords to characters that need no escaping.
function jaasString(value: string): string {
  if (!/^[A-Za-z0-9._~-]+$/.test(value)) throw new Error('SASL user names and passwords of the local broker must be URL-safe characters');
  return `"${value}"`;
}

/**
 * OAUTHBEARER on the SASL_SSL listener, validated as an OIDC provider's tokens are (Kafka's
 * OAuthBearerValidatorCallbackHandler): signed by a key of the JWKS at `jwksUrl` (a file: URL),
 * for `audience`; the principal is the token's `sub`. `maxReauthMs` makes every connection log in
 * again within that time (connections.max.reauth.ms), as a token's expiry does.
 */
export type BrokerOAuth = { jwksUrl: string; audience: string; maxReauthMs?: number };

/** The JVM's list of URLs the OAuth validator may read (Kafka 4 allows none by default). */
export function oauthJvmOptions(oauth: BrokerOAuth | undefined): string[] {
  return oauth === undefined ? [] : [`-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=${oauth.jwksUrl}`];
}

function oauthSettings(oauth: BrokerOAuth | undefined): Record<string, string> {
  if (oauth === undefined) return {};
  return {
    'listener.name.sasl_ssl.oauthbearer.sasl.jaas.config': 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;',
    'listener.name.sasl_ssl.oauthbearer.sasl.server.callback.handler.class': 'org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler',
    'sasl.oauthbearer.jwks.endpoint.url': oauth.jwksUrl,
    'sasl.oauthbearer.expected.audience': oauth.audience,
    // For OAUTHBEARER logins only: kafkajs (the admin, the producer SDK) does not log in again, so other mechanisms keep sessions that never expire.
    ...(oauth.maxReauthMs === undefined ? {} : { 'listener.name.sasl_ssl.oauthbearer.connections.max.reauth.ms': String(oauth.maxReauthMs) }),
  };
}

/** server.properties of a secured combined broker+controller listening on 127.0.0.1 only. */
export function secureServerSettings(options: { ports: SecureBrokerPorts; dataDirectory: string; materials: SecurityMaterials; oauth?: BrokerOAuth }): Record<string, string> {
  const { ports, materials } = options;
  const plainUsers = Object.entries(materials.users)
    .map(([user, password]) => `user_${user}=${jaasString(password)}`)
    .join(' ');
  return {
    'process.roles': 'broker,controller',
    'node.id': '1',
    'controller.quorum.voters': `1@127.0.0.1:${ports.controller}`,
    listeners: `SASL_SSL://127.0.0.1:${ports.broker},SSL://127.0.0.1:${ports.mtls},CONTROLLER://127.0.0.1:${ports.controller}`,
    'advertised.listeners': `SASL_SSL://127.0.0.1:${ports.broker},SSL://127.0.0.1:${ports.mtls}`,
    'controller.listener.names': 'CONTROLLER',
    // The broker talks to itself and to its controller with its own certificate (a super user).
    'inter.broker.listener.name': 'SSL',
    'listener.security.protocol.map': 'SASL_SSL:SASL_SSL,SSL:SSL,CONTROLLER:SSL',
    'log.dirs': options.dataDirectory,
    'ssl.keystore.type': 'PEM',
    'ssl.keystore.location': materials.brokerKeystore,
    'ssl.truststore.type': 'PEM',
    'ssl.truststore.location': materials.caCertificate,
    'ssl.client.auth': 'required',
    'listener.name.sasl_ssl.ssl.client.auth': 'none',
    // Certificate principals by their CN ("User:scorestream-client"), as ACLs name them.
    'ssl.principal.mapping.rules': 'RULE:^CN=([^,]+)$/$1/,DEFAULT',
    'sasl.enabled.mechanisms': [...saslMechanisms, ...(options.oauth === undefined ? [] : ['OAUTHBEARER'])].join(','),
    ...oauthSettings(options.oauth),
    'listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config': 'org.apache.kafka.common.security.scram.ScramLoginModule required;',
    'listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config': 'org.apache.kafka.common.security.scram.ScramLoginModule required;',
    // PLAIN's users live in the JAAS line (SCRAM's in the cluster metadata, added at format time).
    'listener.name.sasl_ssl.plain.sasl.jaas.config': `org.apache.kafka.common.security.plain.PlainLoginModule required ${plainUsers};`,
    'authorizer.class.name': 'org.apache.kafka.metadata.authorizer.StandardAuthorizer',
    'allow.everyone.if.no.acl.found': 'false',
    'super.users': `User:${ADMIN_USER};User:${BROKER_CERTIFICATE_NAME}`,
    ...singleNodeSettings,
  };
}

/** `kafka-storage format` arguments that create every user's SCRAM credentials (both hashes). */
export function scramFormatArguments(materials: SecurityMaterials): string[] {
  return Object.entries(materials.users).flatMap(([user, password]) =>
    ['SCRAM-SHA-512', 'SCRAM-SHA-256'].flatMap((mechanism) => ['--add-scram', `${mechanism}=[name=${user},password=${password}]`]),
  );
}
