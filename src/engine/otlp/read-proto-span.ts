// One span of an otlp_proto request read straight into an OtlpSpan (read-otlp-proto.ts reads the
// messages around it): its ids are left in the request's bytes until the span is complete, then
// checked and hexed once (proto-ids.ts); its events are read with it, its links read and dropped.
// Every span of the input passes here, so nothing is built that the span does not keep.
import type { OtlpAttributes, OtlpSpan, OtlpSpanEvent } from './otlp-span.ts';
import { hex16, hex8, isId, sameId } from './proto-ids.ts';
import { readKeyValue } from './read-proto-attributes.ts';
import { delimitedEnd, fixed64Ms, skipBytes } from './proto-wire.ts';
import type { Reader } from './proto-wire.ts';
import { NO_ATTRIBUTES, NO_EVENTS, quotedSpanName, spanStatus } from './span-parts.ts';

/** The last trace id read (where its bytes are, and as hex): a batch's spans mostly share one, and one string while they are held. */
export type LastTraceId = { start: number; hex: string };

/**
 * Span: 1 trace_id, 2 span_id, 3 trace_state, 4 parent_span_id, 5 name, 7 start_time_unix_nano,
 * 8 end_time_unix_nano, 9 attributes, 11 events, 15 status (Status: 2 message, 3 code); kind,
 * links and the dropped counts are read and dropped, and flags (16), which the generated decoder of
 * this version does not know, is skipped as any undeclared field.
 */
export function readSpan(reader: Reader, buffer: Buffer, end: number, lastTraceId: LastTraceId): OtlpSpan {
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
