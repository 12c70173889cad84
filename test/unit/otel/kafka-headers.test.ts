import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { IHeaders } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { kafkaHeaderGetter, kafkaHeaderSetter } from '../../../otel/kafka-headers.ts';

const w3c = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });
const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('kafkaHeaderGetter', () => {
  it('reads Buffer and string values', () => {
    expect(kafkaHeaderGetter.get({ traceparent: Buffer.from(traceparent) }, 'traceparent')).toBe(traceparent);
    expect(kafkaHeaderGetter.get({ traceparent }, 'traceparent')).toBe(traceparent);
  });

  it('takes the first value of a repeated key', () => {
    expect(kafkaHeaderGetter.get({ traceparent: [Buffer.from('first'), 'second'] }, 'traceparent')).toBe('first');
  });

  it('returns every value of the list-valued tracestate and baggage headers', () => {
    expect(kafkaHeaderGetter.get({ baggage: [Buffer.from('a=1'), 'b=2'] }, 'baggage')).toEqual(['a=1', 'b=2']);
    expect(kafkaHeaderGetter.get({ tracestate: [Buffer.from('x=1')] }, 'tracestate')).toEqual(['x=1']);
  });

  it('finds keys case-insensitively when there is no exact match', () => {
    expect(kafkaHeaderGetter.get({ TraceParent: Buffer.from(traceparent) }, 'traceparent')).toBe(traceparent);
    expect(kafkaHeaderGetter.get({ traceparent: 'exact', TRACEPARENT: 'upper' }, 'traceparent')).toBe('exact');
  });

  it('returns undefined for missing keys, undefined values, empty arrays and missing carriers', () => {
    expect(kafkaHeaderGetter.get({}, 'traceparent')).toBeUndefined();
    expect(kafkaHeaderGetter.get({ traceparent: undefined }, 'traceparent')).toBeUndefined();
    expect(kafkaHeaderGetter.get({ traceparent: [] }, 'traceparent')).toBeUndefined();
    expect(kafkaHeaderGetter.get(undefined, 'traceparent')).toBeUndefined();
    expect(kafkaHeaderGetter.get(null, 'traceparent')).toBeUndefined();
  });

  it('never throws, even on a carrier whose properties throw', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom'); }, ownKeys: () => { throw new Error('boom'); } }) as IHeaders;
    expect(kafkaHeaderGetter.get(hostile, 'traceparent')).toBeUndefined();
    expect(kafkaHeaderGetter.keys(hostile)).toEqual([]);
  });

  it('lists the carrier keys', () => {
    expect(kafkaHeaderGetter.keys({ traceparent: 'x', baggage: 'y' })).toEqual(['traceparent', 'baggage']);
    expect(kafkaHeaderGetter.keys(undefined)).toEqual([]);
  });

  it('lets the W3C propagators extract a remote parent from consumed (Buffer) headers', () => {
    const headers: IHeaders = { traceparent: Buffer.from(traceparent), tracestate: Buffer.from('vendor=1'), baggage: [Buffer.from('tenant=acme'), Buffer.from('plan=pro')] };
    const extracted = w3c.extract(ROOT_CONTEXT, headers, kafkaHeaderGetter);
    const spanContext = trace.getSpanContext(extracted);
    expect(spanContext).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', isRemote: true, traceFlags: TraceFlags.SAMPLED });
    expect(spanContext?.traceState?.get('vendor')).toBe('1');
    expect(propagation.getBaggage(extracted)?.getEntry('plan')?.value).toBe('pro');
    expect(propagation.getBaggage(extracted)?.getEntry('tenant')?.value).toBe('acme');
  });

  it('gives no parent for a malformed traceparent', () => {
    const extracted = w3c.extract(ROOT_CONTEXT, { traceparent: Buffer.from('garbage') }, kafkaHeaderGetter);
    expect(trace.getSpanContext(extracted)).toBeUndefined();
  });
});

describe('kafkaHeaderSetter', () => {
  it('writes string headers that round-trip through the getter', () => {
    const active = trace.setSpanContext(context.active(), { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED });
    const headers: IHeaders = {};
    w3c.inject(active, headers, kafkaHeaderSetter);
    expect(headers).toEqual({ traceparent });
    expect(trace.getSpanContext(w3c.extract(ROOT_CONTEXT, headers, kafkaHeaderGetter))?.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
  });

  it('does not throw on a frozen carrier', () => {
    expect(() => kafkaHeaderSetter.set(Object.freeze({}) as IHeaders, 'traceparent', traceparent)).not.toThrow();
  });
});
