import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeOtlpTraces } from '../../../../../src/engine/otlp/decode-otlp.ts';
import type { OtlpSpan } from '../../../../../src/engine/otlp/otlp-span.ts';
import { encodeSpans, recordPlainTrace, runWeatherAgent, spanRecorder } from '../../../../helpers/otlp-traces.ts';
import type { Recorder } from '../../../../helpers/otlp-traces.ts';

let recorder: Recorder;
beforeAll(() => {
  recorder = spanRecorder({ 'service.name': 'weather-service', 'tenant.id': 'acme' });
});
afterAll(() => recorder.shutdown());
beforeEach(() => recorder.reset());

function decoded(bytes: Buffer, encoding: 'otlp_proto' | 'otlp_json'): OtlpSpan[] {
  const result = decodeOtlpTraces(bytes, encoding);
  if (!result.success) throw new Error(result.message);
  return result.data;
}

describe('decodeOtlpTraces', () => {
  for (const encoding of ['otlp_proto', 'otlp_json'] as const) {
    it(`reads what the OTLP ${encoding} serializer writes: ids, parents, times, attributes, resource, status`, async () => {
      await runWeatherAgent({ telemetry: 'semconv', tracer: recorder.tracer });
      const original = recorder.spans();
      const spans = decoded(encodeSpans(original, encoding), encoding);
      expect(spans).toHaveLength(original.length);
      for (const source of original) {
        const span = spans.find((candidate) => candidate.spanId === source.spanContext().spanId)!;
        expect(span.traceId).toBe(source.spanContext().traceId);
        expect(span.parentSpanId).toBe(source.parentSpanContext?.spanId);
        expect(span.name).toBe(source.name);
        expect(span.resource).toMatchObject({ 'service.name': 'weather-service', 'tenant.id': 'acme' });
        expect(span.endTimeMs).toBeGreaterThanOrEqual(span.startTimeMs);
        expect(Math.abs(span.startTimeMs - (source.startTime[0] * 1000 + source.startTime[1] / 1e6))).toBeLessThan(0.001);
        expect(span.attributes).toEqual(source.attributes);
      }
      const agent = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent')!;
      expect(agent.parentSpanId).toBeUndefined();
      expect(agent.attributes['gen_ai.usage.input_tokens']).toBe(30);
    });
  }

  it('keeps an error status with its message', async () => {
    await runWeatherAgent({ telemetry: 'semconv', tracer: recorder.tracer, toolFails: true }).catch(() => undefined);
    const spans = decoded(encodeSpans(recorder.spans(), 'otlp_proto'), 'otlp_proto');
    const toolSpan = spans.find((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool')!;
    expect(toolSpan.status.code).toBe(2);
    expect(toolSpan.status.message).toContain('weather service down');
  });

  it('decodes several traces of one batch', () => {
    recordPlainTrace(recorder.tracer);
    recordPlainTrace(recorder.tracer);
    const spans = decoded(encodeSpans(recorder.spans(), 'otlp_json'), 'otlp_json');
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(2);
  });

  it('answers invalid_otlp for bytes that are not a request in the configured encoding', () => {
    recordPlainTrace(recorder.tracer);
    const proto = encodeSpans(recorder.spans(), 'otlp_proto');
    const asJson = decodeOtlpTraces(proto, 'otlp_json');
    expect(asJson).toMatchObject({ success: false, code: 'invalid_otlp' });
    expect(!asJson.success && asJson.message).toContain('otlp_json');
    expect(decodeOtlpTraces(Buffer.from([0xff, 0xff, 0xff, 0x0f]), 'otlp_proto')).toMatchObject({ success: false, code: 'invalid_otlp' });
    expect(decodeOtlpTraces(Buffer.from('{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"zz","spanId":"00"}]}]}]}'), 'otlp_json')).toMatchObject({ success: false, code: 'invalid_otlp' });
    expect(decodeOtlpTraces(Buffer.from('[1,2]'), 'otlp_json')).toMatchObject({ success: false, code: 'invalid_otlp' });
  });

  it('refuses a span without a trace id', () => {
    const bytes = Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ spanId: '0102030405060708', name: 'x' }] }] }] }));
    const result = decodeOtlpTraces(bytes, 'otlp_json');
    expect(result).toMatchObject({ success: false, code: 'invalid_otlp' });
    expect(!result.success && result.message).toContain('trace id');
  });

  it('reads OTLP/JSON as the Collector writes it: hex ids, int64 as strings, enum numbers', () => {
    const bytes = Buffer.from(
      JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
            scopeSpans: [
              {
                scope: { name: 'ai' },
                spans: [
                  {
                    traceId: '5b8efff798038103d269b633813fc60c',
                    spanId: 'eee19b7ec3c1b174',
                    parentSpanId: '',
                    name: 'invoke_agent',
                    kind: 1,
                    startTimeUnixNano: '1733050000000000000',
                    endTimeUnixNano: '1733050001500000000',
                    attributes: [
                      { key: 'gen_ai.usage.input_tokens', value: { intValue: '42' } },
                      { key: 'list', value: { arrayValue: { values: [{ stringValue: 'a' }, { boolValue: true }, { doubleValue: 1.5 }] } } },
                      { key: 'map', value: { kvlistValue: { values: [{ key: 'k', value: { stringValue: 'v' } }] } } },
                    ],
                    status: { code: 2, message: 'boom' },
                  },
                ],
              },
            ],
          },
        ],
      }),
    );
    const [span] = decoded(bytes, 'otlp_json');
    expect(span).toEqual({
      traceId: '5b8efff798038103d269b633813fc60c',
      spanId: 'eee19b7ec3c1b174',
      name: 'invoke_agent',
      startTimeMs: 1733050000000,
      endTimeMs: 1733050001500,
      attributes: { 'gen_ai.usage.input_tokens': 42, list: ['a', true, 1.5], map: { k: 'v' } },
      events: [],
      status: { code: 2, message: 'boom' },
      resource: { 'service.name': 'svc' },
      scope: 'ai',
    });
  });
});
