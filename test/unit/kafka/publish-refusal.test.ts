// publishRefusalOf: a publish error is the record's own fault only when the broker refused it for
// what it is — a non-retriable protocol error of RECORD_REFUSALS — however kafkajs wrapped it;
// everything else (connection, leaders, a missing ACL, a fenced producer) is retried as before.
import { describe, expect, it } from 'vitest';
import { publishRefusalOf } from '../../../kafka/publish-refusal.ts';

/** kafkajs' shapes, by name (the classes cannot be imported by name from its CommonJS build). */
const protocolError = (type: string, retriable: boolean) => Object.assign(new Error(`broker says ${type}`), { name: 'KafkaJSProtocolError', type, retriable });
const nonRetriable = (cause: Error) => Object.assign(new Error(cause.message), { name: 'KafkaJSNonRetriableError', retriable: false, cause });

describe('publishRefusalOf', () => {
  it.each(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE', 'INVALID_RECORD', 'INVALID_TIMESTAMP'])('names a %s refusal, bare or wrapped by kafkajs', (type) => {
    expect(publishRefusalOf(protocolError(type, false))).toEqual({ type, message: `broker says ${type}` });
    expect(publishRefusalOf(nonRetriable(protocolError(type, false)))).toMatchObject({ type });
  });

  it('leaves transient and configuration errors to be retried', () => {
    expect(publishRefusalOf(protocolError('NOT_LEADER_FOR_PARTITION', true))).toBeUndefined();
    expect(publishRefusalOf(nonRetriable(protocolError('TOPIC_AUTHORIZATION_FAILED', false)))).toBeUndefined();
    expect(publishRefusalOf(protocolError('INVALID_PRODUCER_EPOCH', false))).toBeUndefined();
    expect(publishRefusalOf(Object.assign(new Error('Connection closed'), { name: 'KafkaJSConnectionError', retriable: true }))).toBeUndefined();
    // Retried until kafkajs gave up: still transient, a later attempt may succeed.
    expect(publishRefusalOf(Object.assign(new Error('retries exceeded'), { name: 'KafkaJSNumberOfRetriesExceeded', retriable: false, cause: protocolError('REQUEST_TIMED_OUT', true) }))).toBeUndefined();
    expect(publishRefusalOf('a string')).toBeUndefined();
  });
  it("recognises @platformatic/kafka's refusal: a protocol error with apiId and canRetry false inside aggregateErrors, but not a retriable one", () => {
    const refused = Object.assign(new Error('Produce failed'), { aggregateErrors: [{ apiId: 'MESSAGE_TOO_LARGE', canRetry: false, code: 'PLT_KFK_PROTOCOL', message: 'The request included a message larger than the max message size the server will accept.' }] });
    expect(publishRefusalOf(refused)).toEqual({ type: 'MESSAGE_TOO_LARGE', message: 'The request included a message larger than the max message size the server will accept.' });
    expect(publishRefusalOf(Object.assign(new Error('x'), { aggregateErrors: [{ apiId: 'NOT_LEADER_OR_FOLLOWER', canRetry: true }] }))).toBeUndefined();
    // As thrown by a produce: MultipleErrors ⊃ ResponseError ⊃ the protocol error, in AggregateError's `errors`.
    const nested = new AggregateError([new AggregateError([Object.assign(new Error('too large'), { apiId: 'MESSAGE_TOO_LARGE', canRetry: false })], 'Received response with error')], 'Producing messages failed.');
    expect(publishRefusalOf(nested)).toEqual({ type: 'MESSAGE_TOO_LARGE', message: 'too large' });
  });
});
