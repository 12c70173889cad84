// The otlp_proto reader (read-otlp-proto.ts) against the generated protobufjs decoder it replaced
// on the hot path (spansByGeneratedDecoder): the spans must be the same — over the frameworks'
// captured traffic, the benchmark's traffic, and bytes mutated at random (then both refuse them,
// or both read the same spans).
import protobuf from 'protobufjs/minimal.js';
import otlpRoot from 'otlp-transformer-protos/build/src/generated/root.js';
import { describe, expect, it } from 'vitest';
import { decodeOtlpTraces, spansByGeneratedDecoder } from '../../../../../src/engine/otlp/decode-otlp.ts';
import type { DecodedOtlp } from '../../../../../src/engine/otlp/decode-otlp.ts';
import { fixtureManifest, fixtureRequests } from '../../../../helpers/framework-fixtures.ts';
import { otlpTraffic } from '../../../../helpers/otlp-traces.ts';

type GeneratedType = {
  decode(bytes: Uint8Array): object;
  fromObject(object: object): object;
  encode(message: object): { finish(): Uint8Array };
  toObject(message: object, options: object): Record<string, unknown>;
};
const requestType = (otlpRoot as unknown as { opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: GeneratedType } } } } } }).opentelemetry.proto.collector.trace.v1
  .ExportTraceServiceRequest;

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

function expectSameAsGenerated(bytes: Uint8Array): DecodedOtlp {
  const read = decodeOtlpTraces(bytes, 'otlp_proto');
  let reference: ReturnType<typeof spansByGeneratedDecoder>;
  try {
    reference = spansByGeneratedDecoder(bytes);
  } catch (error) {
    // Not always for the same reason: the reader checks each span's ids as it reads the span, the generated decoder only after the whole request.
    expect(read.success, `the generated decoder refused these bytes (${(error as Error).message}); so must the reader`).toBe(false);
    expect(read).toMatchObject({ code: 'invalid_otlp' });
    return read;
  }
  expect(read).toEqual({ success: true, data: reference });
  return read;
}

/** A seeded generator (mulberry32): the same mutations on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('the otlp_proto reader', () => {
  it.each(fixtureManifest().map((entry) => entry.id))('reads the same spans as the generated decoder from what %s exported', (id) => {
    let spans = 0;
    for (const request of fixtureRequests(id)) {
      const proto = requestType.encode(requestType.fromObject(protobufObject(request))).finish();
      const read = expectSameAsGenerated(proto);
      expect(read.success).toBe(true);
      if (read.success) spans += read.data.length;
    }
    expect(spans).toBeGreaterThan(0);
  });

  it('reads the same spans as the generated decoder from the benchmark traffic (agent runs, late tool spans, plain traces)', () => {
    const traffic = otlpTraffic({ traces: 300, agentEvery: 10, encoding: 'otlp_proto', tracesPerMessage: 25 });
    let spans = 0;
    for (const message of traffic.messages) {
      const read = expectSameAsGenerated(message.value);
      if (read.success) spans += read.data.length;
    }
    // Each plain trace holds two spans, each agent run three.
    expect(spans).toBe(traffic.traces * 2 + traffic.agents.length);
  });

  it('fails where the generated decoder fails, and reads the same spans where it does not, over 3,000 mutated requests', () => {
    const random = seeded(28);
    const requests = [...otlpTraffic({ traces: 20, agentEvery: 4, encoding: 'otlp_proto', tracesPerMessage: 5 }).messages.map((message) => message.value), ...fixtureSample()];
    const outcomes = { bothRead: 0, bothRefused: 0 };
    for (let round = 0; round < 3_000; round += 1) {
      const bytes = Buffer.from(requests[round % requests.length]!);
      const mutated = mutate(bytes, random);
      const read = expectSameAsGenerated(mutated);
      if (read.success) outcomes.bothRead += 1;
      else outcomes.bothRefused += 1;
    }
    // Both kinds of outcome were exercised, not only one.
    expect(outcomes.bothRead).toBeGreaterThan(300);
    expect(outcomes.bothRefused).toBeGreaterThan(300);
  });

  it('reads a resource that comes after its scope spans, and a scope after its spans', () => {
    const writer = protobuf.Writer.create();
    // ResourceSpans { scope_spans { spans { ... } scope { name } } resource { attributes } }
    writer.uint32((1 << 3) | 2).fork();
    writer.uint32((2 << 3) | 2).fork();
    writer.uint32((2 << 3) | 2).fork();
    writer.uint32((1 << 3) | 2).bytes(Buffer.from('5b8efff798038103d269b633813fc60c', 'hex'));
    writer.uint32((2 << 3) | 2).bytes(Buffer.from('eee19b7ec3c1b174', 'hex'));
    writer.uint32((5 << 3) | 2).string('invoke_agent');
    writer.ldelim();
    writer.uint32((1 << 3) | 2).fork().uint32((1 << 3) | 2).string('ai').ldelim();
    writer.ldelim();
    writer.uint32((1 << 3) | 2).fork();
    writer.uint32((1 << 3) | 2).fork().uint32((1 << 3) | 2).string('service.name').uint32((2 << 3) | 2).fork().uint32((1 << 3) | 2).string('svc').ldelim().ldelim();
    writer.ldelim();
    writer.ldelim();
    const bytes = writer.finish();
    const read = expectSameAsGenerated(bytes);
    expect(read).toMatchObject({ success: true, data: [{ name: 'invoke_agent', resource: { 'service.name': 'svc' }, scope: 'ai' }] });
  });

  it('keeps an attribute named __proto__ as an attribute, not as the prototype of the span’s attributes', () => {
    const bytes = requestWithAttribute({ key: '__proto__', value: { kvlistValue: { values: [{ key: 'gen_ai.operation.name', value: { stringValue: 'invoke_agent' } }] } } });
    const read = expectSameAsGenerated(bytes);
    {
      const [span] = read.success ? read.data : [];
      expect(Object.getPrototypeOf(span!.attributes)).toBe(Object.prototype);
      expect(span!.attributes['gen_ai.operation.name']).toBeUndefined();
      expect(Object.keys(span!.attributes)).toEqual(['__proto__']);
    }
  });

  it('picks the generated decoder’s value when an attribute value repeats its oneof (the field first seen last, with its last value)', () => {
    // AnyValue { string_value 'a', bool_value true, string_value 'b' }: protobufjs keeps bool_value, set last as a new property.
    const value = protobuf.Writer.create().uint32((1 << 3) | 2).string('a').uint32((2 << 3) | 0).bool(true).uint32((1 << 3) | 2).string('b').finish();
    const keyValue = protobuf.Writer.create().uint32((1 << 3) | 2).string('k').uint32((2 << 3) | 2).bytes(value).finish();
    const span = protobuf.Writer.create()
      .uint32((1 << 3) | 2).bytes(Buffer.from('5b8efff798038103d269b633813fc60c', 'hex'))
      .uint32((2 << 3) | 2).bytes(Buffer.from('eee19b7ec3c1b174', 'hex'))
      .uint32((9 << 3) | 2).bytes(keyValue)
      .finish();
    const scopeSpans = protobuf.Writer.create().uint32((2 << 3) | 2).bytes(span).finish();
    const resourceSpans = protobuf.Writer.create().uint32((2 << 3) | 2).bytes(scopeSpans).finish();
    const read = expectSameAsGenerated(protobuf.Writer.create().uint32((1 << 3) | 2).bytes(resourceSpans).finish());
    expect(read).toMatchObject({ success: true, data: [{ attributes: { k: true } }] });
  });

  it('refuses an attribute value nested deeper than protobuf’s recursion limit, saying so', () => {
    let value: object = { stringValue: 'bottom' };
    for (let depth = 0; depth < 150; depth += 1) value = { arrayValue: { values: [value] } };
    const read = decodeOtlpTraces(requestWithAttribute({ key: 'deep', value }), 'otlp_proto');
    expect(read).toMatchObject({ success: false, code: 'invalid_otlp' });
    expect(!read.success && read.message).toContain('nested deeper than 100 levels');
  });
});

/** A request of one span carrying one attribute, as the generated class encodes it. */
function requestWithAttribute(attribute: object): Uint8Array {
  const span = { traceId: Buffer.from('5b8efff798038103d269b633813fc60c', 'hex'), spanId: Buffer.from('eee19b7ec3c1b174', 'hex'), name: 'x', attributes: [attribute] };
  return requestType.encode(requestType.fromObject({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] })).finish();
}

/** An OTLP/JSON request line as the object protobufjs' fromObject reads (hex ids as bytes). */
function protobufObject(line: Buffer): object {
  return JSON.parse(line.toString('utf8'), (key, value: unknown) => (ID_FIELDS.has(key) && typeof value === 'string' ? Buffer.from(value, 'hex') : value)) as object;
}

/** A few captured requests of each framework, re-encoded as otlp_proto. */
function fixtureSample(): Uint8Array[] {
  return fixtureManifest().flatMap((entry) =>
    fixtureRequests(entry.id)
      .slice(0, 3)
      .map((request) => requestType.encode(requestType.fromObject(protobufObject(request))).finish()),
  );
}

/** One to three of: a byte changed, a run of bytes cut out, random bytes put in, the tail cut off. */
function mutate(bytes: Buffer, random: () => number): Buffer {
  let result = bytes;
  const times = 1 + Math.floor(random() * 3);
  for (let time = 0; time < times && result.length > 0; time += 1) {
    const at = Math.floor(random() * result.length);
    const kind = Math.floor(random() * 4);
    if (kind === 0) {
      result = Buffer.from(result);
      result[at] = Math.floor(random() * 256);
    } else if (kind === 1) result = Buffer.concat([result.subarray(0, at), result.subarray(Math.min(result.length, at + 1 + Math.floor(random() * 8)))]);
    else if (kind === 2) result = Buffer.concat([result.subarray(0, at), Buffer.from(Array.from({ length: 1 + Math.floor(random() * 4) }, () => Math.floor(random() * 256))), result.subarray(at)]);
    else result = result.subarray(0, at);
  }
  return result;
}
