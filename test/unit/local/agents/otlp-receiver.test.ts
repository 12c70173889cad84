// The capture's receiver keeps exactly what an exporter sent, as OTLP/JSON with hex ids: protobuf
// (gzip or not) and OTLP/JSON bodies alike; anything but POST /v1/traces is refused.
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startOtlpReceiver } from '../../../../local/agents/otlp-receiver.ts';
import type { OtlpReceiver } from '../../../../local/agents/otlp-receiver.ts';
import { decodeOtlpTraces } from '../../../../src/engine/otlp/decode-otlp.ts';
import { encodeSpans, runWeatherAgent, spanRecorder } from '../../../helpers/otlp-traces.ts';

let receiver: OtlpReceiver | undefined;
afterEach(() => receiver?.close());

describe('the capture receiver', () => {
  it('records protobuf, gzipped protobuf and OTLP/JSON requests as OTLP/JSON the decoder reads back span for span', async () => {
    receiver = await startOtlpReceiver();
    const recorder = spanRecorder();
    await runWeatherAgent({ telemetry: 'semconv', tracer: recorder.tracer });
    const spans = recorder.spans();
    await recorder.shutdown();
    const send = (body: Buffer, headers: Record<string, string>) => fetch(receiver!.tracesUrl, { method: 'POST', headers, body });
    expect((await send(encodeSpans(spans, 'otlp_proto'), { 'content-type': 'application/x-protobuf' })).status).toBe(200);
    expect((await send(gzipSync(encodeSpans(spans, 'otlp_proto')), { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' })).status).toBe(200);
    expect((await send(encodeSpans(spans, 'otlp_json'), { 'content-type': 'application/json' })).status).toBe(200);
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.spanCount()).toBe(spans.length * 3);
    const original = decodeOtlpTraces(encodeSpans(spans, 'otlp_proto'), 'otlp_proto');
    for (const request of receiver.requests) {
      const decoded = decodeOtlpTraces(Buffer.from(JSON.stringify(request)), 'otlp_json');
      expect(decoded).toEqual(original);
    }
  });

  it('refuses anything but POST /v1/traces, and a body that is not a request', async () => {
    receiver = await startOtlpReceiver();
    expect((await fetch(`${receiver.endpoint}/v1/metrics`, { method: 'POST', body: '' })).status).toBe(400);
    expect((await fetch(receiver.tracesUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{oops' })).status).toBe(400);
    expect(receiver.requests).toHaveLength(0);
  });
});
