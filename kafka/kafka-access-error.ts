// Turns what kafkajs reports when a secured cluster refuses us — a failed SASL handshake, a TLS
// certificate Node cannot verify, an ACL that is missing — into one message that names what to
// fix, as a KafkaAccessError: a configuration problem, so the CLI exits 2 (docs/security.md).
// kafkajs is CommonJS and may be installed twice, so its errors are recognised by `name`, `type`
// and Node's TLS `code`, never by class; @platformatic/kafka (`kafka.client: 'platformatic'`)
// names the broker's error code `apiId` instead of `type`, on a protocol error nested in the
// AggregateError it throws. No message carries a secret: only the user name, the mechanism and
// the broker's own words (with the password masked should a broker ever echo it).
import { ScorestreamError, hasErrorMarker } from '../src/kit/errors.ts';

const accessMarker = Symbol.for('scorestream.error.kafka_access');

/** What the client was doing and as whom: the material for a useful message. */
export type AccessContext = {
  brokers: readonly string[];
  /** e.g. "user 'svc' (SCRAM-SHA-512)", "the client certificate", "an unauthenticated client". */
  principal: string;
  /** The principal as ACLs name it ('User:svc'), when known; commands in messages use it. */
  aclPrincipal?: string;
  /** Values never to print (the SASL password, a private key). */
  secrets?: readonly string[];
  /** Topics involved and what the client needs on them, for ACL messages. */
  topics?: ReadonlyArray<{ topic: string; operations: string }>;
  group?: string;
  /** The group is one of many sharing this prefix (a replay's groups, named after the live group): the ACL is prefixed. */
  groupIsPrefix?: boolean;
  transactionalIdPrefix?: string;
};

export class KafkaAccessError extends ScorestreamError {
  readonly [accessMarker] = true;
  /** Which kind of refusal: for tests and for callers that react differently. */
  readonly reason: KafkaAccessReason;

  constructor(message: string, reason: KafkaAccessReason, cause?: unknown) {
    super(message, { code: 'kafka_access', canRetry: false, ...(cause === undefined ? {} : { cause: sanitizedCause(cause) }) });
    this.name = 'KafkaAccessError';
    this.reason = reason;
  }

  static override isInstance(value: unknown): value is KafkaAccessError {
    return hasErrorMarker(value, accessMarker);
  }
}

export type KafkaAccessReason =
  | 'sasl_authentication'
  | 'sasl_mechanism'
  | 'tls_unknown_ca'
  | 'tls_hostname'
  | 'tls_expired'
  | 'tls_client_certificate'
  | 'tls_key'
  | 'topic_authorization'
  | 'group_authorization'
  | 'transactional_id_authorization'
  | 'cluster_authorization'
  | 'topic_missing';

type Cause = { name?: unknown; type?: unknown; apiId?: unknown; code?: unknown; message?: unknown; broker?: unknown };

/** The broker's error code: kafkajs' `type`, platformatic's `apiId`. */
const brokerCodeOf = (cause: Cause): unknown => (typeof cause.type === 'string' ? cause.type : cause.apiId);

// The error, its causes, and the members of aggregate errors (kafkajs' createTopics reports one per topic).
function allCauses(error: unknown): Cause[] {
  const found: Cause[] = [];
  const visit = (value: unknown, depth: number) => {
    if (typeof value !== 'object' || value === null || depth > 8 || found.length > 50) return;
    found.push(value as Cause);
    visit((value as { cause?: unknown }).cause, depth + 1);
    const members = (value as { errors?: unknown }).errors;
    if (Array.isArray(members)) for (const member of members) visit(member, depth + 1);
  };
  visit(error, 0);
  return found;
}

// Only the client's class name and the broker's code travel on as the cause: its message may quote anything.
function sanitizedCause(error: unknown): { name: string; type?: string; code?: string } {
  const cause = error as Cause;
  const type = typeof cause === 'object' && cause !== null ? brokerCodeOf(cause) : undefined;
  return {
    name: typeof cause?.name === 'string' ? cause.name : 'Error',
    ...(typeof type === 'string' ? { type } : {}),
    ...(typeof cause?.code === 'string' ? { code: cause.code } : {}),
  };
}

const unknownCaCodes = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
]);
const clientCertificateCodes = /ALERT_BAD_CERTIFICATE|CERTIFICATE_REQUIRED|ALERT_UNKNOWN_CA|ALERT_CERTIFICATE_UNKNOWN/;
const keyProblemCodes = /ERR_OSSL_|KEY_VALUES_MISMATCH|ERR_OSSL_PEM/;

function mask(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) if (secret.length >= 3) masked = masked.split(secret).join('[redacted]');
  return masked;
}

function brokerOf(causes: Cause[], context: AccessContext): string {
  const broker = causes.map((cause) => cause.broker).find((value) => typeof value === 'string');
  return typeof broker === 'string' ? broker : context.brokers.join(',');
}

function topicList(context: AccessContext): string {
  const topics = context.topics ?? [];
  return topics.length === 0 ? 'its topics' : topics.map(({ topic, operations }) => `${operations} on topic '${topic}'`).join(', ');
}

/**
 * A KafkaAccessError when `error` (or what caused it) is Kafka or TLS refusing this client; else
 * undefined, and the caller keeps its own error.
 */
export function kafkaAccessError(error: unknown, context: AccessContext): KafkaAccessError | undefined {
  if (KafkaAccessError.isInstance(error)) return error;
  const causes = allCauses(error);
  const secrets = context.secrets ?? [];
  const broker = brokerOf(causes, context);
  const has = (test: (cause: Cause) => boolean) => causes.find(test);
  const ofType = (type: string) => has((cause) => brokerCodeOf(cause) === type);
  const make = (reason: KafkaAccessReason, message: string, cause: Cause) => new KafkaAccessError(mask(message, secrets), reason, cause);
  const said = (cause: Cause) => (typeof cause.message === 'string' ? mask(cause.message, secrets) : '');

  // kafkajs reports a mechanism the listener does not enable as a failed login too: tell them apart.
  const unsupportedMechanism = (cause: Cause) => typeof cause.message === 'string' && /mechanism is not supported by the server/.test(cause.message);
  // OAUTHBEARER: no token to log in with (the token endpoint or the provider said why), or a token the broker refused.
  const token = has((cause) => cause.name === 'OAuthTokenError');
  if (token !== undefined) return make('sasl_authentication', `Kafka login (OAUTHBEARER) of ${context.principal} failed before reaching ${broker}: ${said(token)}`, token);
  const sasl = has((cause) => (cause.name === 'KafkaJSSASLAuthenticationError' || brokerCodeOf(cause) === 'SASL_AUTHENTICATION_FAILED') && !unsupportedMechanism(cause));
  if (sasl !== undefined && context.principal.includes('OAUTHBEARER')) {
    return make(
      'sasl_authentication',
      `Kafka (${broker}) rejected the OAUTHBEARER token of ${context.principal}: check that the broker trusts the token's issuer and signing keys (its JWKS), ` +
        `and the audience and scope it expects (KAFKA_SASL_OAUTHBEARER_SCOPE). The broker said: ${said(sasl)}`,
      sasl,
    );
  }
  if (sasl !== undefined) {
    return make(
      'sasl_authentication',
      `Kafka (${broker}) rejected the SASL login of ${context.principal}: check KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD ` +
        `(or kafka.sasl in the config), and that KAFKA_SASL_MECHANISM is the one this user was created for. The broker said: ${said(sasl)}`,
      sasl,
    );
  }
  const mechanism = ofType('UNSUPPORTED_SASL_MECHANISM') ?? ofType('ILLEGAL_SASL_STATE') ?? has(unsupportedMechanism);
  if (mechanism !== undefined) {
    return make(
      'sasl_mechanism',
      `Kafka (${broker}) does not accept the SASL mechanism of ${context.principal} on this listener: set KAFKA_SASL_MECHANISM to one it enables ` +
        '(plain, scram-sha-256, scram-sha-512 or oauthbearer), and check that this port is the SASL listener.',
      mechanism,
    );
  }
  const unknownCa = has((cause) => typeof cause.code === 'string' && unknownCaCodes.has(cause.code));
  if (unknownCa !== undefined) {
    return make(
      'tls_unknown_ca',
      `The TLS certificate of Kafka (${broker}) is signed by a CA this client does not trust (${String(unknownCa.code)}): ` +
        "set KAFKA_SSL_CA_FILE to the PEM file of the CA that signed the brokers' certificates (or KAFKA_SSL_CA to its PEM text, or kafka.ssl.ca in the config).",
      unknownCa,
    );
  }
  const hostname = has((cause) => cause.code === 'ERR_TLS_CERT_ALTNAME_INVALID');
  if (hostname !== undefined) {
    return make(
      'tls_hostname',
      `The TLS certificate of Kafka (${broker}) is not valid for the name this client connected to: ${said(hostname)}. ` +
        'Connect through a name the certificate lists (KAFKA_BROKERS, and the listeners the broker advertises), or, behind a tunnel or proxy, ' +
        'set KAFKA_SSL_SERVERNAME to the name the certificate carries.',
      hostname,
    );
  }
  const expired = has((cause) => cause.code === 'CERT_HAS_EXPIRED' || cause.code === 'CERT_NOT_YET_VALID');
  if (expired !== undefined) {
    return make('tls_expired', `The TLS certificate of Kafka (${broker}) is not valid now (${String(expired.code)}): renew the broker's certificate, or check this machine's clock.`, expired);
  }
  const clientCertificate = has((cause) => typeof cause.code === 'string' && clientCertificateCodes.test(cause.code));
  if (clientCertificate !== undefined) {
    return make(
      'tls_client_certificate',
      `Kafka (${broker}) refused this client's TLS certificate (${String(clientCertificate.code)}): this listener requires mutual TLS. ` +
        'Set KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE (or kafka.ssl.cert and kafka.ssl.key) to a client certificate signed by a CA the brokers trust.',
      clientCertificate,
    );
  }
  const key = has((cause) => typeof cause.code === 'string' && keyProblemCodes.test(cause.code));
  if (key !== undefined) {
    return make(
      'tls_key',
      `The client certificate or key given for Kafka cannot be used (${String(key.code)}): check that KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE are PEM files of one certificate and its unencrypted private key.`,
      key,
    );
  }
  const topic = ofType('TOPIC_AUTHORIZATION_FAILED');
  if (topic !== undefined) {
    return make(
      'topic_authorization',
      `Kafka (${broker}) denied ${context.principal} access to a topic: it needs ${topicList(context)}. ` +
        'Grant the missing ACLs (docs/security.md lists the exact kafka-acls.sh commands per role) or fix the topic names (SCORESTREAM_TOPIC_*).',
      topic,
    );
  }
  const group = ofType('GROUP_AUTHORIZATION_FAILED');
  if (group !== undefined) {
    return make(
      'group_authorization',
      `Kafka (${broker}) denied ${context.principal} access to the consumer group${context.group === undefined ? '' : ` '${context.group}'${context.groupIsPrefix === true ? ' (a prefix)' : ''}`}: ` +
        `grant READ on that group (kafka-acls.sh --add --allow-principal ${context.aclPrincipal ?? 'User:NAME'} --operation Read --group ${context.group ?? 'GROUP'}` +
        `${context.groupIsPrefix === true ? ' --resource-pattern-type prefixed' : ''}), or use a group it may use${context.groupIsPrefix === true ? '' : ' (SCORESTREAM_GROUP_ID)'}.`,
      group,
    );
  }
  const transactional = ofType('TRANSACTIONAL_ID_AUTHORIZATION_FAILED');
  if (transactional !== undefined) {
    return make(
      'transactional_id_authorization',
      `Kafka (${broker}) denied ${context.principal} the transactional ids exactly-once delivery uses${context.transactionalIdPrefix === undefined ? '' : ` (prefix '${context.transactionalIdPrefix}')`}: ` +
        `grant WRITE and DESCRIBE on them (kafka-acls.sh --add --allow-principal ${context.aclPrincipal ?? 'User:NAME'} --operation Write --operation Describe --transactional-id '${context.transactionalIdPrefix ?? 'PREFIX'}' --resource-pattern-type prefixed), ` +
        'or run with SCORESTREAM_DELIVERY=at-least-once.',
      transactional,
    );
  }
  const cluster = ofType('CLUSTER_AUTHORIZATION_FAILED');
  if (cluster !== undefined) {
    return make(
      'cluster_authorization',
      `Kafka (${broker}) denied ${context.principal} a cluster-level operation (${said(cluster)}). An idempotent producer needs WRITE on at least one topic ` +
        `(Kafka 3.0 and newer) or IDEMPOTENT_WRITE on the cluster on older brokers: grant ${topicList(context)} (docs/security.md lists the kafka-acls.sh commands per role).`,
      cluster,
    );
  }
  return undefined;
}

/**
 * Whether `error` is Kafka or TLS refusing this client (what kafkaAccessError names): no retry
 * mends it, someone has to grant an ACL or fix a setting, so a client that would restart on it
 * stops instead (kafkajs does not restart on these either).
 */
export function isKafkaAccessRefusal(error: unknown): boolean {
  return kafkaAccessError(error, { brokers: [], principal: 'this client' }) !== undefined;
}

/** How to name the principal in messages, from the client's settings (never the password). */
/** A client's SASL settings as the messages read them: a user and password, or OAUTHBEARER's client. */
type NamedSasl = { mechanism: string; username?: string | undefined; password?: string | undefined; clientId?: string | undefined; clientSecret?: string | undefined; region?: string | undefined };

export function describePrincipal(settings: { sasl?: NamedSasl | undefined; ssl?: unknown }): string {
  const sasl = settings.sasl;
  if (sasl?.mechanism === 'aws-msk-iam') return `the AWS IAM identity of the credential chain (MSK IAM, OAUTHBEARER, ${sasl.region ?? 'no region'})`;
  if (sasl?.mechanism === 'oauthbearer') return sasl.clientId === undefined ? 'the OAUTHBEARER token provider' : `OAuth client '${sasl.clientId}' (OAUTHBEARER)`;
  if (sasl?.username !== undefined) return `user '${sasl.username}' (${sasl.mechanism.toUpperCase()})`;
  const ssl = settings.ssl;
  if (typeof ssl === 'object' && ssl !== null && (ssl as { cert?: unknown }).cert !== undefined) return 'the client certificate (mutual TLS)';
  return 'this client (no SASL user, no client certificate)';
}

/** The principal as ACLs name it, for SASL users ('User:svc'); undefined when it depends on a certificate. */
export function aclPrincipalOf(settings: { sasl?: NamedSasl | undefined }): string | undefined {
  // An OAUTHBEARER principal is the token's subject claim, which only the broker reads.
  return settings.sasl?.username === undefined ? undefined : `User:${settings.sasl.username}`;
}

/** The secrets of a client's settings, to mask should one ever appear in a broker's message. */
export function settingSecrets(settings: { sasl?: NamedSasl | undefined; ssl?: unknown }): string[] {
  const secrets: string[] = [];
  if (settings.sasl?.password !== undefined) secrets.push(settings.sasl.password);
  if (settings.sasl?.clientSecret !== undefined) secrets.push(settings.sasl.clientSecret);
  const key = typeof settings.ssl === 'object' && settings.ssl !== null ? (settings.ssl as { key?: unknown }).key : undefined;
  if (typeof key === 'string') secrets.push(key);
  return secrets;
}
