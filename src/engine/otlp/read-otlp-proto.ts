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
//
// This file reads the messages around the spans (the request, ResourceSpans, ScopeSpans, the
// resource and scope); a span is read by read-proto-span.ts, attributes by
// read-proto-attributes.ts, the wire steps between Reader calls are proto-wire.ts, ids proto-ids.ts.
import protobuf from 'protobufjs/minimal.js';
import type { OtlpAttributes, OtlpSpan } from './otlp-span.ts';
import { readKeyValue } from './read-proto-attributes.ts';
import { readSpan } from './read-proto-span.ts';
import type { LastTraceId } from './read-proto-span.ts';
import { delimitedEnd } from './proto-wire.ts';
import type { Reader } from './proto-wire.ts';

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
export function readResource(reader: Reader, end: number): OtlpAttributes {
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

export function readScopeName(reader: Reader, end: number): string | undefined {
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
