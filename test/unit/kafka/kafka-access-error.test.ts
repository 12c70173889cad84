// kafkaAccessError: what kafkajs, @platformatic/kafka and Node's TLS report when a secured cluster
// refuses a client, recognised by name, type (platformatic: apiId) and code (never by class:
// kafkajs may be installed twice), turned into a message naming what to fix — and never carrying
// a secret.
import { describe, expect, it } from 'vitest';
import { describePrincipal, isKafkaAccessRefusal, KafkaAccessError, kafkaAccessError, settingSecrets } from '../../../kafka/kafka-access-error.ts';
import type { AccessContext } from '../../../kafka/kafka-access-error.ts';
import { ScorestreamError } from '../../../src/kit/errors.ts';

const password = 'pa55-w0rd-that-must-not-leak';
const context: AccessContext = {
  brokers: ['kafka-1:9093'],
  principal: "user 'svc' (SCRAM-SHA-512)",
  secrets: [password],
  topics: [
    { topic: 'agent-runs', operations: 'READ' },
    { topic: 'agent-scores', operations: 'WRITE' },
  ],
  group: 'scorestream',
  transactionalIdPrefix: 'scorestream-',
};

// Shapes as kafkajs builds them: its own classes, by name, with `type` and `cause`.
function kafkajsError(name: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { name, ...extra });
}
const retriesExceeded = (cause: Error) => kafkajsError('KafkaJSNumberOfRetriesExceeded', cause.message, { cause });
const tlsError = (code: string, message: string) => retriesExceeded(kafkajsError('KafkaJSConnectionError', `Connection error: ${message}`, { code, broker: 'kafka-1:9093' }));
const protocolError = (type: string) => kafkajsError('KafkaJSProtocolError', type.toLowerCase(), { type });

describe('kafkaAccessError', () => {
  it.each([
    ['a failed SASL login', kafkajsError('KafkaJSSASLAuthenticationError', 'SASL SCRAM SHA512 authentication failed: invalid credentials'), 'sasl_authentication', ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD', "user 'svc'"]],
    ['an unsupported SASL mechanism', protocolError('UNSUPPORTED_SASL_MECHANISM'), 'sasl_mechanism', ['KAFKA_SASL_MECHANISM']],
    ['a mechanism the listener does not enable', kafkajsError('KafkaJSSASLAuthenticationError', 'SASL SCRAM-SHA-256 mechanism is not supported by the server'), 'sasl_mechanism', ['KAFKA_SASL_MECHANISM']],
    ['an unknown CA (leaf)', tlsError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'), 'tls_unknown_ca', ['KAFKA_SSL_CA_FILE', 'kafka-1:9093']],
    ['an unknown CA (chain)', tlsError('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'), 'tls_unknown_ca', ['KAFKA_SSL_CA_FILE']],
    ['a hostname mismatch', tlsError('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"), 'tls_hostname', ['KAFKA_SSL_SERVERNAME', 'altnames']],
    ['an expired certificate', tlsError('CERT_HAS_EXPIRED', 'certificate has expired'), 'tls_expired', ['renew']],
    ['no client certificate', tlsError('ERR_SSL_SSL/TLS_ALERT_BAD_CERTIFICATE', 'alert bad certificate'), 'tls_client_certificate', ['KAFKA_SSL_CERT_FILE']],
    ['a missing topic ACL', protocolError('TOPIC_AUTHORIZATION_FAILED'), 'topic_authorization', ["READ on topic 'agent-runs'", "WRITE on topic 'agent-scores'"]],
    ['a missing group ACL', protocolError('GROUP_AUTHORIZATION_FAILED'), 'group_authorization', ["group 'scorestream'", '--operation Read --group scorestream']],
    ['a missing transactional-id ACL', protocolError('TRANSACTIONAL_ID_AUTHORIZATION_FAILED'), 'transactional_id_authorization', ["--transactional-id 'scorestream-' --resource-pattern-type prefixed"]],
    ['a missing cluster ACL', protocolError('CLUSTER_AUTHORIZATION_FAILED'), 'cluster_authorization', ['IDEMPOTENT_WRITE', "WRITE on topic 'agent-scores'"]],
  ] as const)('names %s and what to fix', (_name, error, reason, fragments) => {
    const mapped = kafkaAccessError(error, context);
    expect(mapped?.reason).toBe(reason);
    for (const fragment of fragments) expect(mapped?.message).toContain(fragment);
    expect(KafkaAccessError.isInstance(mapped)).toBe(true);
    expect(ScorestreamError.isInstance(mapped)).toBe(true);
    expect(mapped?.code).toBe('kafka_access');
  });

  it('finds the refusal among the members of an aggregate error (createTopics)', () => {
    const aggregate = Object.assign(new Error('Topic creation errors'), { name: 'KafkaJSAggregateError', errors: [kafkajsError('KafkaJSCreateTopicError', 'Not authorized', { type: 'TOPIC_AUTHORIZATION_FAILED' })] });
    expect(kafkaAccessError(aggregate, context)?.reason).toBe('topic_authorization');
  });

  it('recognises @platformatic/kafka’s refusals: the broker’s code as `apiId`, nested in the AggregateError it throws', () => {
    const protocol = (apiId: string) => Object.assign(new Error('refused'), { code: 'PLT_KFK_PROTOCOL', apiId, canRetry: false });
    const response = (apiId: string) => Object.assign(new AggregateError([protocol(apiId)], 'Received response with error while executing API Metadata(v12)'), { code: 'PLT_KFK_RESPONSE' });
    const afterRetries = Object.assign(new AggregateError([response('TOPIC_AUTHORIZATION_FAILED')], 'Metadata failed 3 times.'), { code: 'PLT_KFK_MULTIPLE' });
    const topic = kafkaAccessError(afterRetries, context);
    expect(topic?.reason).toBe('topic_authorization');
    expect(topic?.message).toContain("READ on topic 'agent-runs'");
    expect(topic?.cause).toEqual({ name: 'Error', type: 'TOPIC_AUTHORIZATION_FAILED', code: 'PLT_KFK_PROTOCOL' });
    expect(kafkaAccessError(response('GROUP_AUTHORIZATION_FAILED'), context)?.reason).toBe('group_authorization');
    expect(kafkaAccessError(response('TRANSACTIONAL_ID_AUTHORIZATION_FAILED'), context)?.reason).toBe('transactional_id_authorization');
    const login = Object.assign(new Error('SASL authentication failed.', { cause: protocol('SASL_AUTHENTICATION_FAILED') }), { code: 'PLT_KFK_AUTHENTICATION' });
    expect(kafkaAccessError(login, context)?.reason).toBe('sasl_authentication');
  });

  it('isKafkaAccessRefusal: a refusal on either client, never a passing failure', () => {
    expect(isKafkaAccessRefusal(protocolError('TOPIC_AUTHORIZATION_FAILED'))).toBe(true);
    expect(isKafkaAccessRefusal(new AggregateError([Object.assign(new Error('x'), { apiId: 'TOPIC_AUTHORIZATION_FAILED' })], 'response'))).toBe(true);
    expect(isKafkaAccessRefusal(Object.assign(new Error('Connection closed'), { code: 'PLT_KFK_NETWORK', canRetry: true }))).toBe(false);
    expect(isKafkaAccessRefusal(new AggregateError([Object.assign(new Error('x'), { apiId: 'REBALANCE_IN_PROGRESS', canRetry: false })], 'response'))).toBe(false);
  });

  it('leaves every other error alone', () => {
    expect(kafkaAccessError(kafkajsError('KafkaJSConnectionError', 'Connection timeout'), context)).toBeUndefined();
    expect(kafkaAccessError(new Error('boom'), context)).toBeUndefined();
    expect(kafkaAccessError(undefined, context)).toBeUndefined();
  });

  it('masks a secret a broker might echo, and keeps only the name and type of the cause', () => {
    const mapped = kafkaAccessError(kafkajsError('KafkaJSSASLAuthenticationError', `bad password ${password}`), context)!;
    expect(mapped.message).not.toContain(password);
    expect(mapped.message).toContain('[redacted]');
    expect(JSON.stringify(mapped.cause)).not.toContain(password);
    expect(mapped.cause).toEqual({ name: 'KafkaJSSASLAuthenticationError' });
  });

  it('describes the principal without its password', () => {
    const settings = { sasl: { mechanism: 'scram-sha-256', username: 'svc', password } };
    expect(describePrincipal(settings)).toBe("user 'svc' (SCRAM-SHA-256)");
    expect(describePrincipal({ ssl: { cert: 'PEM', key: 'KEY' } })).toBe('the client certificate (mutual TLS)');
    expect(describePrincipal({})).toContain('no SASL user');
    expect(settingSecrets({ ...settings, ssl: { key: 'PRIVATE KEY PEM' } })).toEqual([password, 'PRIVATE KEY PEM']);
  });
});
