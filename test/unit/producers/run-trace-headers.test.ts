import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import type { TextMapPropagator } from '@opentelemetry/api';
import { StackContextManager } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseRunContext, traceHeaders } from '../../../producers/run-trace-headers.ts';

const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: TraceFlags.SAMPLED };
const other = { traceId: '11111111111111111111111111111111', spanId: '2222222222222222', traceFlags: TraceFlags.NONE };
const withSpan = (value: typeof spanContext) => trace.setSpanContext(ROOT_CONTEXT, value);

describe('traceHeaders', () => {
  afterEach(() => propagation.disable());

  it('writes traceparent without any global propagator (no SDK)', () => {
    expect(traceHeaders(withSpan(spanContext))).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
  });

  it('writes tracestate and baggage when the context has them', () => {
    const state = trace.setSpanContext(ROOT_CONTEXT, { ...spanContext, traceState: { serialize: () => 'vendor=1', get: () => undefined, set: () => { throw new Error(); }, unset: () => { throw new Error(); } } });
    const withBaggage = propagation.setBaggage(state, propagation.createBaggage({ tenant: { value: 'acme' } }));
    expect(traceHeaders(withBaggage)).toMatchObject({ traceparent: expect.any(String), tracestate: 'vendor=1', baggage: 'tenant=acme' });
  });

  it('writes nothing for a context without a span', () => {
    expect(traceHeaders(ROOT_CONTEXT)).toEqual({});
  });

  it('also lets a globally registered propagator write its headers', () => {
    const custom: TextMapPropagator = { inject: (_context, carrier, setter) => setter.set(carrier, 'x-custom', 'yes'), extract: (value) => value, fields: () => ['x-custom'] };
    propagation.setGlobalPropagator(custom);
    expect(traceHeaders(withSpan(spanContext))).toEqual({ 'x-custom': 'yes', traceparent: expect.any(String) });
  });

  it('survives a propagator that throws', () => {
    const broken: TextMapPropagator = { inject: () => { throw new Error('boom'); }, extract: (value) => value, fields: () => [] };
    expect(() => traceHeaders(withSpan(spanContext), broken)).not.toThrow();
  });
});

describe('chooseRunContext', () => {
  const bodyTrace = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'vendor=1' };

  it('prefers the caller context', () => {
    const chosen = chooseRunContext({ trace: bodyTrace }, { fromCaller: withSpan(other), publishWide: ROOT_CONTEXT });
    expect(trace.getSpanContext(chosen)?.traceId).toBe(other.traceId);
  });

  it('uses the run trace field next, with its tracestate', () => {
    const chosen = chooseRunContext({ trace: bodyTrace }, { publishWide: withSpan(other) });
    expect(trace.getSpanContext(chosen)).toMatchObject({ traceId: spanContext.traceId, spanId: spanContext.spanId });
    expect(trace.getSpanContext(chosen)?.traceState?.serialize()).toBe('vendor=1');
  });

  it('skips a malformed run trace field', () => {
    const chosen = chooseRunContext({ trace: { traceparent: 'garbage' } }, { publishWide: withSpan(other) });
    expect(trace.getSpanContext(chosen)?.traceId).toBe(other.traceId);
  });

  it('falls back to the active context', () => {
    context.setGlobalContextManager(new StackContextManager().enable());
    try {
      const chosen = context.with(withSpan(other), () => chooseRunContext({}, {}));
      expect(trace.getSpanContext(chosen)?.traceId).toBe(other.traceId);
    } finally {
      context.disable();
    }
  });
});
