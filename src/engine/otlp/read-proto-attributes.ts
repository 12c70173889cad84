// Attributes as the otlp_proto reader (read-otlp-proto.ts) reads them: a KeyValue set on the
// object it belongs to (a span's, an event's, a resource's, or a kvlist's), and an AnyValue with
// the generated decoder's rule for a oneof that appears more than once, so that both readers give
// the same value for the same bytes (read-otlp-proto.test.ts holds them to it).
import protobuf from 'protobufjs/minimal.js';
import type { OtlpAttributes, OtlpValue } from './otlp-span.ts';
import { delimitedEnd, skipBytes } from './proto-wire.ts';
import type { Reader } from './proto-wire.ts';
import { setAttribute } from './span-parts.ts';

/** Deeper nesting of attribute values than protobuf's own default limit is refused, not recursed into. */
const MAX_VALUE_DEPTH = protobuf.util.recursionLimit;

/** KeyValue: 1 key, 2 value; set on `into` unless the key is empty (a later value of a key wins). */
export function readKeyValue(reader: Reader, end: number, into: OtlpAttributes, depth: number): void {
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
export function readAnyValue(reader: Reader, end: number, depth: number): OtlpValue {
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
