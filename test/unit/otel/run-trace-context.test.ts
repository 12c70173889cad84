// Extracting the agent run's trace context from a consumed Kafka message: headers first (as
// kafkajs delivers them: Buffers, arrays for repeated keys), the body's `trace` field as the
// fallback, and "no parent" for anything unreadable, never an exception.
import { propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import type { IHeaders } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { extractHeaderTraceContext, withBodyTraceContext } from '../../../otel/run-trace-context.ts';

/** Both stages, as consumers/message-trace.ts puts them together: the headers, then the body's fallback. */
const extractRunTraceContext = (headers: IHeaders | undefined, bodyTrace?: { traceparent: string; tracestate?: string }) =>
  withBodyTraceContext(extractHeaderTraceContext(headers), bodyTrace);

const traceId = '0af7651916cd43dd8448eb211c80319c';
const spanId = 'b7ad6b7169203331';
const sampled = `00-${traceId}-${spanId}-01`;
const otherTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const otherSpanId = '00f067aa0ba902b7';
const other = `00-${otherTraceId}-${otherSpanId}-01`;

describe('extractHeaderTraceContext, then withBodyTraceContext', () => {
  it('reads a string traceparent header into facts and a remote parent context', () => {
    const { context, facts } = extractRunTraceContext({ traceparent: sampled });
    expect(facts).toEqual({ traceId, spanId, sampled: true });
    const spanContext = trace.getSpanContext(context);
    expect(spanContext).toMatchObject({ traceId, spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true });
  });

  it('reads Buffer header values, as the consumer receives them', () => {
    const { facts, context } = extractRunTraceContext({ traceparent: Buffer.from(sampled), tracestate: Buffer.from('vendor=abc') });
    expect(facts).toEqual({ traceId, spanId, sampled: true });
    expect(trace.getSpanContext(context)?.traceState?.get('vendor')).toBe('abc');
  });

  it('takes the first value of a repeated traceparent header', () => {
    expect(extractRunTraceContext({ traceparent: [Buffer.from(sampled), Buffer.from(other)] }).facts).toEqual({ traceId, spanId, sampled: true });
    expect(extractRunTraceContext({ traceparent: [other, sampled] }).facts).toEqual({ traceId: otherTraceId, spanId: otherSpanId, sampled: true });
  });

  it('keeps baggage from the headers in the returned context', () => {
    const { context } = extractRunTraceContext({ traceparent: sampled, baggage: [Buffer.from('tenant=acme'), Buffer.from('tier=gold')] });
    const baggage = propagation.getBaggage(context);
    expect(baggage?.getEntry('tenant')?.value).toBe('acme');
    expect(baggage?.getEntry('tier')?.value).toBe('gold');
  });

  it('reports sampled: false for a traceparent whose sampled flag is 00', () => {
    const { facts, context } = extractRunTraceContext({ traceparent: `00-${traceId}-${spanId}-00` });
    expect(facts).toEqual({ traceId, spanId, sampled: false });
    expect(trace.getSpanContext(context)?.traceFlags).toBe(TraceFlags.NONE);
  });

  it.each([
    ['garbage', 'not-a-traceparent'],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${spanId}-01`],
    ['an all-zero span id', `00-${traceId}-${'0'.repeat(16)}-01`],
    ['upper-case hex', `00-${traceId.toUpperCase()}-${spanId}-01`],
    ['an empty value', ''],
    ['a truncated value', sampled.slice(0, 40)],
  ])('treats a traceparent with %s as no parent: ROOT_CONTEXT and no facts', (_label, value) => {
    const result = extractRunTraceContext({ traceparent: Buffer.from(value) });
    expect(result.context).toBe(ROOT_CONTEXT);
    expect(result.facts).toEqual({});
  });

  it('returns ROOT_CONTEXT and no facts without headers or a body trace', () => {
    expect(extractRunTraceContext(undefined)).toEqual({ context: ROOT_CONTEXT, facts: {} });
    expect(extractRunTraceContext({})).toEqual({ context: ROOT_CONTEXT, facts: {} });
    expect(extractRunTraceContext({ other: 'header' }).context).toBe(ROOT_CONTEXT);
  });

  describe('the body `trace` fallback', () => {
    it('is used when the message has no headers', () => {
      const { facts, context } = extractRunTraceContext(undefined, { traceparent: sampled, tracestate: 'vendor=xyz' });
      expect(facts).toEqual({ traceId, spanId, sampled: true });
      expect(trace.getSpanContext(context)?.traceState?.get('vendor')).toBe('xyz');
    });

    it('is used when the headers carry no trace context', () => {
      expect(extractRunTraceContext({ 'content-type': 'application/json' }, { traceparent: sampled }).facts).toEqual({ traceId, spanId, sampled: true });
    });

    it('is used when the header traceparent is malformed', () => {
      expect(extractRunTraceContext({ traceparent: 'garbage' }, { traceparent: other }).facts.traceId).toBe(otherTraceId);
    });

    it('loses to a valid header', () => {
      expect(extractRunTraceContext({ traceparent: Buffer.from(sampled) }, { traceparent: other }).facts.traceId).toBe(traceId);
    });

    it('gives no parent when it is malformed too', () => {
      expect(extractRunTraceContext({ traceparent: 'garbage' }, { traceparent: 'also garbage' })).toEqual({ context: ROOT_CONTEXT, facts: {} });
    });
  });

  describe('never throws', () => {
    it('on a carrier whose every property access throws', () => {
      const hostile = new Proxy(
        {},
        {
          get() {
            throw new Error('boom');
          },
          has() {
            throw new Error('boom');
          },
          ownKeys() {
            throw new Error('boom');
          },
          getOwnPropertyDescriptor() {
            throw new Error('boom');
          },
        },
      ) as IHeaders;
      expect(extractRunTraceContext(hostile)).toEqual({ context: ROOT_CONTEXT, facts: {} });
      expect(extractRunTraceContext(hostile, { traceparent: sampled }).facts.traceId).toBe(traceId);
    });

    it('on a header getter that throws', () => {
      const headers = {} as IHeaders;
      Object.defineProperty(headers, 'traceparent', {
        enumerable: true,
        get() {
          throw new Error('cannot read');
        },
      });
      expect(extractRunTraceContext(headers)).toEqual({ context: ROOT_CONTEXT, facts: {} });
    });

    it('on values of the wrong type', () => {
      const weird = [
        null,
        42,
        'traceparent',
        { traceparent: null },
        { traceparent: 42 },
        { traceparent: { nested: true } },
        { traceparent: [] },
        { traceparent: [null, undefined] },
        { traceparent: Buffer.from([0xff, 0xfe, 0x00]) },
      ];
      for (const headers of weird) {
        expect(() => extractRunTraceContext(headers as unknown as IHeaders)).not.toThrow();
        expect(extractRunTraceContext(headers as unknown as IHeaders).facts).toEqual({});
      }
      expect(extractRunTraceContext(undefined, { traceparent: 42 } as unknown as { traceparent: string }).facts).toEqual({});
      expect(extractRunTraceContext(undefined, null as unknown as { traceparent: string }).facts).toEqual({});
    });
  });
});
