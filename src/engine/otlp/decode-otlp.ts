// Decodes one Kafka message written by the OpenTelemetry Collector's Kafka exporter — an OTLP
// ExportTraceServiceRequest, in the `otlp_proto` or the `otlp_json` encoding — into spans
// (otlp-span.ts); an ExportLogsServiceRequest on the same topic into its records, as carrier spans
// (otlp-log-record.ts). `otlp_proto` is read straight into spans on protobufjs' Reader
// (read-otlp-proto.ts: every span of the input passes there). `otlp_json` goes through the
// protobufjs root that the OpenTelemetry JS maintainers generated from the official
// opentelemetry-proto definitions (the npm package @opentelemetry/otlp-transformer 0.200.0,
// installed under the alias `otlp-transformer-protos`), which also holds the proto reader to the
// same spans in its test. OTLP/JSON differs from protobuf's canonical JSON in its ids (hex, not
// base64), so those are turned into bytes before the message type reads the object.
import otlpRoot from 'otlp-transformer-protos/build/src/generated/root.js';
import type { OtlpAttributes, OtlpSpan, OtlpSpanEvent, OtlpValue } from './otlp-span.ts';
import { spansOfProto } from './read-otlp-proto.ts';
import { isOtlpLogsProto, logRecordsOfProto } from './read-otlp-logs.ts';
import { logRecordsOfJson } from './json-log-records.ts';
import { logRecordCarrier } from './otlp-log-record.ts';
import { nanosToMs as fixed64NanosToMs, NO_ATTRIBUTES, NO_EVENTS, quotedSpanName, setAttribute, spanStatus } from './span-parts.ts';

import type { OtlpEncoding } from './otlp-encodings.ts';
import { decodeFailure } from '../../kit/contracts/decode-record.ts';
import type { Decoded } from '../../kit/contracts/decode-record.ts';

export type { OtlpEncoding } from './otlp-encodings.ts';

/** A fixed64 as protobufjs hands it: a Long (its halves signed 32-bit) when the `long` package is present, else a number. */
type Int64 = number | { low: number; high: number; toNumber(): number };

// The fields read here of the generated message classes (opentelemetry/proto/trace/v1/trace.proto,
// common/v1/common.proto, resource/v1/resource.proto). The generated typings declare the root as
// an untyped protobufjs Root, so the shapes used are declared once, here.
type AnyValueMessage = {
  value?: 'stringValue' | 'boolValue' | 'intValue' | 'doubleValue' | 'arrayValue' | 'kvlistValue' | 'bytesValue';
  stringValue?: string | null;
  boolValue?: boolean | null;
  intValue?: Int64 | null;
  doubleValue?: number | null;
  arrayValue?: { values?: AnyValueMessage[] | null } | null;
  kvlistValue?: { values?: KeyValueMessage[] | null } | null;
  bytesValue?: Uint8Array | null;
};
type KeyValueMessage = { key?: string | null; value?: AnyValueMessage | null };
type SpanMessage = {
  traceId?: Uint8Array | null;
  spanId?: Uint8Array | null;
  parentSpanId?: Uint8Array | null;
  traceState?: string | null;
  name?: string | null;
  startTimeUnixNano?: Int64 | null;
  endTimeUnixNano?: Int64 | null;
  attributes?: KeyValueMessage[] | null;
  events?: Array<{ name?: string | null; timeUnixNano?: Int64 | null; attributes?: KeyValueMessage[] | null }> | null;
  status?: { code?: number | null; message?: string | null } | null;
};
type ExportTraceServiceRequestMessage = {
  resourceSpans?: Array<{
    resource?: { attributes?: KeyValueMessage[] | null } | null;
    scopeSpans?: Array<{ scope?: { name?: string | null } | null; spans?: SpanMessage[] | null }> | null;
  }> | null;
};
type MessageType = {
  decode(bytes: Uint8Array): ExportTraceServiceRequestMessage;
  fromObject(object: Record<string, unknown>): ExportTraceServiceRequestMessage;
};

const requestType = (otlpRoot as unknown as { opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: MessageType } } } } } })
  .opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** One message's spans, or why they could not be read (the one Decoded<T>; its code the OTLP input's dead letter's). */
export type DecodedOtlp = Decoded<OtlpSpan[], 'invalid_otlp'>;

/** Bytes of one message in `encoding` → its spans, or why they could not be read. */
export function decodeOtlpTraces(bytes: Uint8Array, encoding: OtlpEncoding): DecodedOtlp {
  if (encoding === 'otlp_proto') {
    try {
      // A logs request on the same topic (docs/otlp.md): its records travel as carrier spans (otlp-log-record.ts).
      if (isOtlpLogsProto(bytes)) return { success: true, data: logRecordsOfProto(bytes).map(logRecordCarrier) };
      return { success: true, data: spansOfProto(bytes) };
    } catch (error) {
      return decodeFailure('invalid_otlp', `not an OTLP ExportTraceServiceRequest in ${encoding}: ${error instanceof Error ? error.message : String(error)} (check the Collector's kafka exporter \`encoding\` against input.encoding)`);
    }
  }
  let request: ExportTraceServiceRequestMessage;
  try {
    const object = parseJsonObject(bytes);
    if (object.resourceLogs !== undefined && object.resourceSpans === undefined) return { success: true, data: logRecordsOfJson(object).map(logRecordCarrier) };
    request = requestType.fromObject(hexIdsToBytes(object));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return decodeFailure('invalid_otlp', `not an OTLP ExportTraceServiceRequest in ${encoding}: ${reason} (check the Collector's kafka exporter \`encoding\` against input.encoding)`);
  }
  try {
    return { success: true, data: spansOf(request) };
  } catch (error) {
    return decodeFailure('invalid_otlp', `an OTLP span could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * `otlp_proto` read by the generated message class instead: what the proto reader replaced on the
 * hot path, kept as the reference its test holds it to (read-otlp-proto.test.ts). Throws as decode does.
 */
export function spansByGeneratedDecoder(bytes: Uint8Array): OtlpSpan[] {
  return spansOf(requestType.decode(bytes));
}

function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('expected a JSON object');
  return parsed as Record<string, unknown>;
}

const HEX_ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** OTLP/JSON writes trace and span ids as hex; protobuf JSON means base64 for bytes. */
function hexIdsToBytes(object: Record<string, unknown>): Record<string, unknown> {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      if (HEX_ID_FIELDS.has(key) && typeof field === 'string') {
        if (!/^([0-9a-fA-F]{2})*$/.test(field)) throw new Error(`${key} '${field}' is not hex`);
        copy[key] = Buffer.from(field, 'hex');
      } else copy[key] = visit(field);
    }
    return copy;
  };
  return visit(object) as Record<string, unknown>;
}

/** The last trace id read, as bytes and as hex: the spans of a trace mostly come together (one trace per message with the exporter's partition_traces_by_id) and share one string while they are held. */
type LastTraceId = { bytes: Uint8Array | undefined; hex: string };

function spansOf(request: ExportTraceServiceRequestMessage): OtlpSpan[] {
  const spans: OtlpSpan[] = [];
  const lastTraceId: LastTraceId = { bytes: undefined, hex: '' };
  for (const resourceSpans of request.resourceSpans ?? []) {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
      const scope = nonEmpty(scopeSpans.scope?.name);
      for (const span of scopeSpans.spans ?? []) spans.push(spanOf(span, resource, scope, lastTraceId));
    }
  }
  return spans;
}

// The object is built in the proto reader's shape, with plain assignments, so that spans of both encodings are alike to V8.

function spanOf(span: SpanMessage, resource: OtlpAttributes, scope: string | undefined, lastTraceId: LastTraceId): OtlpSpan {
  if (!isId(span.traceId, 16)) throw new Error(`span ${quotedSpanName(span.name ?? '')} has no valid trace id`);
  if (!isId(span.spanId, 8)) throw new Error(`span ${quotedSpanName(span.name ?? '')} has no valid span id`);
  if (lastTraceId.bytes === undefined || !sameBytes(span.traceId, lastTraceId.bytes)) {
    lastTraceId.bytes = span.traceId;
    lastTraceId.hex = hexOf(span.traceId);
  }
  const events = span.events;
  const decoded: OtlpSpan = {
    traceId: lastTraceId.hex,
    spanId: hexOf(span.spanId),
    name: span.name ?? '',
    startTimeMs: nanosToMs(span.startTimeUnixNano),
    endTimeMs: nanosToMs(span.endTimeUnixNano),
    attributes: ownAttributesOf(span.attributes),
    events: events === null || events === undefined || events.length === 0 ? (NO_EVENTS as OtlpSpanEvent[]) : events.map(eventOf),
    status: statusOf(span.status),
    resource,
  };
  // A root span has no parent: absent, empty or all zeros.
  if (isId(span.parentSpanId, 8)) decoded.parentSpanId = hexOf(span.parentSpanId);
  if (span.traceState !== null && span.traceState !== undefined && span.traceState !== '') decoded.traceState = span.traceState;
  if (scope !== undefined) decoded.scope = scope;
  return decoded;
}

/** Bytes of an id of `length` that is not all zeros (the W3C invalid id). */
function isId(bytes: Uint8Array | null | undefined, length: number): bytes is Uint8Array {
  if (bytes === null || bytes === undefined || bytes.length !== length) return false;
  for (let index = 0; index < length; index += 1) if (bytes[index] !== 0) return true;
  return false;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

function eventOf(event: NonNullable<SpanMessage['events']>[number]): OtlpSpanEvent {
  return { name: event.name ?? '', timeMs: nanosToMs(event.timeUnixNano), attributes: ownAttributesOf(event.attributes) };
}

function statusOf(status: SpanMessage['status']): OtlpSpan['status'] {
  return spanStatus(status?.code ?? 0, status?.message ?? '');
}

/** A span's or an event's attributes (never handed on as a value of their own). */
function ownAttributesOf(list: KeyValueMessage[] | null | undefined): OtlpAttributes {
  return list === null || list === undefined || list.length === 0 ? NO_ATTRIBUTES : attributesOf(list);
}

function attributesOf(list: KeyValueMessage[] | null | undefined): OtlpAttributes {
  const attributes: OtlpAttributes = {};
  for (const { key, value } of list ?? []) if (key) setAttribute(attributes, key, valueOf(value));
  return attributes;
}

function valueOf(value: AnyValueMessage | null | undefined): OtlpValue {
  switch (value?.value) {
    case 'stringValue':
      return value.stringValue ?? '';
    case 'boolValue':
      return value.boolValue ?? false;
    case 'intValue':
      return int64(value.intValue);
    case 'doubleValue':
      return value.doubleValue ?? 0;
    case 'arrayValue':
      return (value.arrayValue?.values ?? []).map(valueOf);
    case 'kvlistValue':
      return attributesOf(value.kvlistValue?.values);
    case 'bytesValue':
      return Buffer.from(value.bytesValue ?? []).toString('base64');
    default:
      return null;
  }
}

function int64(value: Int64 | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value : value.toNumber();
}

/** Nanoseconds since the epoch → milliseconds, the whole milliseconds exact from a Long's halves (span-parts.ts). */
function nanosToMs(value: Int64 | null | undefined): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'number' ? value / 1e6 : fixed64NanosToMs(value.high >>> 0, value.low >>> 0);
}

function hexOf(bytes: Uint8Array): string {
  // protobufjs hands bytes out as Buffers under Node; a view is made only for a plain Uint8Array (fromObject).
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('hex');
}

function nonEmpty(text: string | null | undefined): string | undefined {
  return text === null || text === undefined || text === '' ? undefined : text;
}
