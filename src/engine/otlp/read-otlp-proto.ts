// Reads an `otlp_proto` ExportTraceServiceRequest straight into spans (otlp-span.ts), with
// protobufjs' Reader doing the wire format (varints, lengths, UTF-8, skipping unknown fields) and
// the field numbers of the official opentelemetry-proto definitions (trace/v1/trace.proto,
// common/v1/common.proto, resource/v1/resource.proto) written out below.
//
// Why not the generated message classes, as the `otlp_json` path uses (decode-otlp.ts): every span
// of every message passes here, nine in ten of them in traces that hold no run, and the generated
// decoder builds a message object per span, attribute, value and status, a Buffer per id and a
// Long per timestamp, all garbage the moment the span is read. This reads each field once into the
// span it belongs to. It reads what the generated decoder reads, the same way (a field with an
// unexpected wire type is read as its declared type, a truncated string is cut, not refused), and
// a test holds the two to the same spans over real traffic and over mutated bytes
// (read-otlp-proto.test.ts).
import protobuf from 'protobufjs/minimal.js';
import type { OtlpAttributes, OtlpSpan, OtlpSpanEvent, OtlpValue } from './otlp-span.ts';
import { nanosToMs, NO_ATTRIBUTES, NO_EVENTS, quotedSpanName, setAttribute, spanStatus } from './span-parts.ts';

type Reader = protobuf.Reader;

/** Deeper nesting of attribute values than protobuf's own default limit is refused, not recursed into. */
const MAX_VALUE_DEPTH = protobuf.util.recursionLimit;

// A declared field this reader does not use is still read as the generated decoder reads it (the
// same reader call, its value dropped), whatever wire type its tag says; only an undeclared field is
// skipped by its tag's wire type. So both accept and refuse the same bytes.

/** The spans of a request's bytes; throws (a RangeError or an Error saying what) on bytes that are not one. */
export function spansOfProto(bytes: Uint8Array): OtlpSpan[] {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const reader = protobuf.Reader.create(buffer);
  const spans: OtlpSpan[] = [];
  const lastTraceId: LastTraceId = { start: -1, hex: '' };
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) readResourceSpans(reader, buffer, delimitedEnd(reader), spans, lastTraceId);
    else reader.skipType(tag & 7);
  }
  return spans;
}

/** The last trace id read (where its bytes are, and as hex): a batch's spans mostly share one, and one string while they are held. */
type LastTraceId = { start: number; hex: string };

/** A nested message's end, the reader at its first field. */
function delimitedEnd(reader: Reader): number {
  const length = reader.uint32();
  return reader.pos + length;
}

/** A bytes field skipped over (as reader.bytes() reads it: refused when it runs past the buffer); returns where its bytes start. */
function skipBytes(reader: Reader): number {
  const length = reader.uint32();
  const start = reader.pos;
  reader.skip(length);
  return start;
}

/**
 * ResourceSpans: 1 resource, 2 scope_spans. Fields are read in place, in any order: the resource
 * may come after the spans, so it is given to the spans read here once the message was read.
 */
function readResourceSpans(reader: Reader, buffer: Buffer, end: number, spans: OtlpSpan[], lastTraceId: LastTraceId): void {
  const first = spans.length;
  let resource: OtlpAttributes = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        resource = readResource(reader, delimitedEnd(reader));
        break;
      case 2:
        readScopeSpans(reader, buffer, delimitedEnd(reader), spans, lastTraceId);
        break;
      case 3: // schema_url
        reader.string();
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  for (let index = first; index < spans.length; index += 1) spans[index]!.resource = resource;
}

/** Resource: 1 attributes. */
function readResource(reader: Reader, end: number): OtlpAttributes {
  const attributes: OtlpAttributes = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) readKeyValue(reader, delimitedEnd(reader), attributes, 0);
    else if (tag >>> 3 === 2) reader.uint32(); // dropped_attributes_count
    else reader.skipType(tag & 7);
  }
  return attributes;
}

/** ScopeSpans: 1 scope (InstrumentationScope: 1 name), 2 spans; the scope may come after the spans, as the resource may. */
function readScopeSpans(reader: Reader, buffer: Buffer, end: number, spans: OtlpSpan[], lastTraceId: LastTraceId): void {
  const first = spans.length;
  let scope: string | undefined;
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        scope = readScopeName(reader, delimitedEnd(reader));
        break;
      case 2:
        spans.push(readSpan(reader, buffer, delimitedEnd(reader), lastTraceId));
        break;
      case 3: // schema_url
        reader.string();
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  if (scope !== undefined) for (let index = first; index < spans.length; index += 1) spans[index]!.scope = scope;
}

function readScopeName(reader: Reader, end: number): string | undefined {
  let name = '';
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        name = reader.string();
        break;
      case 2: // version
        reader.string();
        break;
      case 3: // attributes
        readKeyValue(reader, delimitedEnd(reader), {}, 0);
        break;
      case 4: // dropped_attributes_count
        reader.uint32();
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return name === '' ? undefined : name;
}

/**
 * Span: 1 trace_id, 2 span_id, 3 trace_state, 4 parent_span_id, 5 name, 7 start_time_unix_nano,
 * 8 end_time_unix_nano, 9 attributes, 11 events, 15 status (Status: 2 message, 3 code); kind,
 * links and the dropped counts are read and dropped, and flags (16), which the generated decoder of
 * this version does not know, is skipped as any undeclared field.
 */
function readSpan(reader: Reader, buffer: Buffer, end: number, lastTraceId: LastTraceId): OtlpSpan {
  // Where each id's bytes start, and how many there are (-1: absent): no object per id.
  let traceIdAt = 0;
  let traceIdLength = -1;
  let spanIdAt = 0;
  let spanIdLength = -1;
  let parentAt = 0;
  let parentLength = -1;
  let traceState = '';
  let name = '';
  let startTimeMs = 0;
  let endTimeMs = 0;
  let attributes: OtlpAttributes = NO_ATTRIBUTES;
  let events: OtlpSpanEvent[] = NO_EVENTS as OtlpSpanEvent[];
  let statusCode = 0;
  let statusMessage = '';
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        traceIdAt = skipBytes(reader);
        traceIdLength = reader.pos - traceIdAt;
        break;
      case 2:
        spanIdAt = skipBytes(reader);
        spanIdLength = reader.pos - spanIdAt;
        break;
      case 3:
        traceState = reader.string();
        break;
      case 4:
        parentAt = skipBytes(reader);
        parentLength = reader.pos - parentAt;
        break;
      case 5:
        name = reader.string();
        break;
      case 7:
        startTimeMs = fixed64Ms(reader);
        break;
      case 8:
        endTimeMs = fixed64Ms(reader);
        break;
      case 9:
        if (attributes === NO_ATTRIBUTES) attributes = {};
        readKeyValue(reader, delimitedEnd(reader), attributes, 0);
        break;
      case 11:
        if (events === NO_EVENTS) events = [];
        events.push(readEvent(reader, delimitedEnd(reader)));
        break;
      case 6: // kind
        reader.int32();
        break;
      case 10: // dropped_attributes_count
      case 12: // dropped_events_count
      case 14: // dropped_links_count
        reader.uint32();
        break;
      case 13:
        readLink(reader, delimitedEnd(reader));
        break;
      case 15: {
        // A status field replaces the one before it, as the generated decoder's does.
        const statusEnd = delimitedEnd(reader);
        statusCode = 0;
        statusMessage = '';
        while (reader.pos < statusEnd) {
          const statusTag = reader.uint32();
          if (statusTag >>> 3 === 2) statusMessage = reader.string();
          else if (statusTag >>> 3 === 3) statusCode = reader.int32();
          else reader.skipType(statusTag & 7);
        }
        break;
      }
      default:
        reader.skipType(tag & 7);
    }
  }
  if (!isId(buffer, traceIdAt, traceIdLength, 16)) throw new Error(`span ${quotedSpanName(name)} has no valid trace id`);
  if (!isId(buffer, spanIdAt, spanIdLength, 8)) throw new Error(`span ${quotedSpanName(name)} has no valid span id`);
  if (lastTraceId.start < 0 || !sameId(buffer, lastTraceId.start, traceIdAt)) {
    lastTraceId.start = traceIdAt;
    lastTraceId.hex = hex16(buffer, traceIdAt);
  }
  const span: OtlpSpan = {
    traceId: lastTraceId.hex,
    spanId: hex8(buffer, spanIdAt),
    name,
    startTimeMs,
    endTimeMs,
    attributes,
    events,
    status: spanStatus(statusCode, statusMessage),
    resource: NO_ATTRIBUTES, // its ResourceSpans' own, once that was read
  };
  // A root span has no parent: absent, empty or all zeros.
  if (isId(buffer, parentAt, parentLength, 8)) span.parentSpanId = hex8(buffer, parentAt);
  if (traceState !== '') span.traceState = traceState;
  return span;
}

/** Whether the `length` bytes at `at` are an id of `size` bytes that is not all zeros (the W3C invalid id). */
function isId(buffer: Buffer, at: number, length: number, size: number): boolean {
  if (length !== size) return false;
  for (let index = at; index < at + size; index += 1) if (buffer[index] !== 0) return true;
  return false;
}

/** Whether the 16 bytes of two trace ids are the same. */
function sameId(buffer: Buffer, a: number, b: number): boolean {
  for (let index = 0; index < 16; index += 1) if (buffer[a + index] !== buffer[b + index]) return false;
  return true;
}

/** The two hex digits of each byte value, as character codes: [high, low] at 2 × byte. */
const HEX_CODES = new Uint16Array(512);
for (let byte = 0; byte < 256; byte += 1) {
  const digits = byte.toString(16).padStart(2, '0');
  HEX_CODES[2 * byte] = digits.charCodeAt(0);
  HEX_CODES[2 * byte + 1] = digits.charCodeAt(1);
}

/**
 * Eight bytes from `start` as lowercase hex, in one string: a third of Buffer#toString('hex')'s
 * time for an id this short (a span id, half a trace id), which goes through the C++ binding.
 */
function hex8(buffer: Buffer, start: number): string {
  const c = HEX_CODES;
  const b0 = 2 * buffer[start]!, b1 = 2 * buffer[start + 1]!, b2 = 2 * buffer[start + 2]!, b3 = 2 * buffer[start + 3]!;
  const b4 = 2 * buffer[start + 4]!, b5 = 2 * buffer[start + 5]!, b6 = 2 * buffer[start + 6]!, b7 = 2 * buffer[start + 7]!;
  return String.fromCharCode(c[b0]!, c[b0 + 1]!, c[b1]!, c[b1 + 1]!, c[b2]!, c[b2 + 1]!, c[b3]!, c[b3 + 1]!, c[b4]!, c[b4 + 1]!, c[b5]!, c[b5 + 1]!, c[b6]!, c[b6 + 1]!, c[b7]!, c[b7 + 1]!);
}

/** Sixteen bytes from `start` as lowercase hex, in one flat string (two hex8 joined would be a rope, flattened again when the id is first looked up). */
function hex16(buffer: Buffer, start: number): string {
  const c = HEX_CODES;
  const b0 = 2 * buffer[start]!, b1 = 2 * buffer[start + 1]!, b2 = 2 * buffer[start + 2]!, b3 = 2 * buffer[start + 3]!;
  const b4 = 2 * buffer[start + 4]!, b5 = 2 * buffer[start + 5]!, b6 = 2 * buffer[start + 6]!, b7 = 2 * buffer[start + 7]!;
  const b8 = 2 * buffer[start + 8]!, b9 = 2 * buffer[start + 9]!, b10 = 2 * buffer[start + 10]!, b11 = 2 * buffer[start + 11]!;
  const b12 = 2 * buffer[start + 12]!, b13 = 2 * buffer[start + 13]!, b14 = 2 * buffer[start + 14]!, b15 = 2 * buffer[start + 15]!;
  // prettier-ignore
  return String.fromCharCode(
    c[b0]!, c[b0 + 1]!, c[b1]!, c[b1 + 1]!, c[b2]!, c[b2 + 1]!, c[b3]!, c[b3 + 1]!, c[b4]!, c[b4 + 1]!, c[b5]!, c[b5 + 1]!, c[b6]!, c[b6 + 1]!, c[b7]!, c[b7 + 1]!,
    c[b8]!, c[b8 + 1]!, c[b9]!, c[b9 + 1]!, c[b10]!, c[b10 + 1]!, c[b11]!, c[b11 + 1]!, c[b12]!, c[b12 + 1]!, c[b13]!, c[b13 + 1]!, c[b14]!, c[b14 + 1]!, c[b15]!, c[b15 + 1]!,
  );
}

/** A fixed64 of nanoseconds since the epoch → milliseconds: the two halves, without a Long per value. */
function fixed64Ms(reader: Reader): number {
  const low = reader.fixed32();
  const high = reader.fixed32();
  return nanosToMs(high, low);
}

/** Span.Event: 1 time_unix_nano, 2 name, 3 attributes. */
function readEvent(reader: Reader, end: number): OtlpSpanEvent {
  let name = '';
  let timeMs = 0;
  let attributes: OtlpAttributes = NO_ATTRIBUTES;
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        timeMs = fixed64Ms(reader);
        break;
      case 2:
        name = reader.string();
        break;
      case 3:
        if (attributes === NO_ATTRIBUTES) attributes = {};
        readKeyValue(reader, delimitedEnd(reader), attributes, 0);
        break;
      case 4: // dropped_attributes_count
        reader.uint32();
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return { name, timeMs, attributes };
}

/** Span.Link (1 trace_id, 2 span_id, 3 trace_state, 4 attributes, 5 dropped_attributes_count): read and dropped, links are not part of a run. */
function readLink(reader: Reader, end: number): void {
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
      case 2:
        skipBytes(reader);
        break;
      case 3:
        reader.string();
        break;
      case 4:
        readKeyValue(reader, delimitedEnd(reader), {}, 0);
        break;
      case 5:
        reader.uint32();
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
}

/** KeyValue: 1 key, 2 value; set on `into` unless the key is empty (a later value of a key wins). */
function readKeyValue(reader: Reader, end: number, into: OtlpAttributes, depth: number): void {
  let key = '';
  let value: OtlpValue = null;
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        key = reader.string();
        break;
      case 2:
        value = readAnyValue(reader, delimitedEnd(reader), depth);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  if (key !== '') setAttribute(into, key, value);
}

/**
 * AnyValue (a oneof): 1 string, 2 bool, 3 int64, 4 double, 5 array (ArrayValue: 1 values),
 * 6 kvlist (KeyValueList: 1 values), 7 bytes (as base64); none present is null.
 *
 * When more than one is present, which wins is the generated decoder's rule, kept so that both
 * read the same value: the field that first appeared last, with its last value (protobufjs sets
 * each as an own property, and its oneof getter takes the last property set). Protobuf's own rule,
 * the last field on the wire, differs only for bytes that repeat a field after another one.
 */
function readAnyValue(reader: Reader, end: number, depth: number): OtlpValue {
  if (depth >= MAX_VALUE_DEPTH) throw new Error(`an attribute value is nested deeper than ${MAX_VALUE_DEPTH} levels`);
  let value: OtlpValue = null;
  let winner = 0;
  let seen = 0;
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    let read: OtlpValue;
    switch (field) {
      case 1:
        read = reader.string();
        break;
      case 2:
        read = reader.bool();
        break;
      case 3: {
        const long = reader.int64() as unknown as number | { toNumber(): number };
        read = typeof long === 'number' ? long : long.toNumber();
        break;
      }
      case 4:
        read = reader.double();
        break;
      case 5: {
        const listEnd = delimitedEnd(reader);
        const list: OtlpValue[] = [];
        while (reader.pos < listEnd) {
          const listTag = reader.uint32();
          if (listTag >>> 3 === 1) list.push(readAnyValue(reader, delimitedEnd(reader), depth + 1));
          else reader.skipType(listTag & 7);
        }
        read = list;
        break;
      }
      case 6: {
        const mapEnd = delimitedEnd(reader);
        const map: OtlpAttributes = {};
        while (reader.pos < mapEnd) {
          const mapTag = reader.uint32();
          if (mapTag >>> 3 === 1) readKeyValue(reader, delimitedEnd(reader), map, depth + 1);
          else reader.skipType(mapTag & 7);
        }
        read = map;
        break;
      }
      case 7: {
        const start = skipBytes(reader);
        read = (reader.buf as Buffer).toString('base64', start, reader.pos);
        break;
      }
      default:
        reader.skipType(tag & 7);
        continue;
    }
    const bit = 1 << field;
    if ((seen & bit) === 0) {
      seen |= bit;
      winner = field;
      value = read;
    } else if (field === winner) value = read;
  }
  return value;
}
