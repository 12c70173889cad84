// The run's trace context (headers, then the body's fallback), continued: header baggage survives
// when no span context came along (and when the span context comes from the body), and `source`
// says where the span context came from, so the consumer can link its process span to a context it
// could only find in the body.
import { propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import type { IHeaders } from 'kafkajs';
import { extractHeaderTraceContext, withBodyTraceContext } from '../../../otel/run-trace-context.ts';

/** Both stages, as consumers/message-trace.ts puts them together: the headers, then the body's fallback. */
const extractRunTraceContext = (headers: IHeaders | undefined, bodyTrace?: { traceparent: string; tracestate?: string }) =>
  withBodyTraceContext(extractHeaderTraceContext(headers), bodyTrace);

const traceId = '0af7651916cd43dd8448eb211c80319c';
const spanId = 'b7ad6b7169203331';
const traceparent = `00-${traceId}-${spanId}-01`;

describe('run trace context: baggage and source', () => {
  it('keeps header baggage when there is no traceparent at all', () => {
    const result = extractRunTraceContext({ baggage: Buffer.from('tenant=acme') });
    expect(result.facts).toEqual({});
    expect(result.source).toBeUndefined();
    expect(trace.getSpanContext(result.context)).toBeUndefined();
    expect(propagation.getBaggage(result.context)?.getEntry('tenant')?.value).toBe('acme');
  });

  it('keeps header baggage when the traceparent is garbage', () => {
    const result = extractRunTraceContext({ traceparent: 'garbage', baggage: 'tier=gold' });
    expect(result.facts).toEqual({});
    expect(propagation.getBaggage(result.context)?.getEntry('tier')?.value).toBe('gold');
  });

  it('keeps header baggage under a span context taken from the body', () => {
    const result = extractRunTraceContext({ baggage: 'tenant=acme' }, { traceparent });
    expect(result).toMatchObject({ source: 'body', facts: { traceId, spanId, sampled: true } });
    expect(propagation.getBaggage(result.context)?.getEntry('tenant')?.value).toBe('acme');
  });

  it('says the span context came from the headers', () => {
    expect(extractRunTraceContext({ traceparent }, { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` })).toMatchObject({ source: 'headers', facts: { traceId } });
  });

  it('has no source and ROOT_CONTEXT when nothing usable came along', () => {
    const result = extractRunTraceContext({ traceparent: 'garbage' }, { traceparent: 'also garbage' });
    expect(result.context).toBe(ROOT_CONTEXT);
    expect('source' in result).toBe(false);
  });
});
