// Reads an `otlp_proto` ExportLogsServiceRequest into log records (otlp-log-record.ts), on
// protobufjs' Reader with the field numbers of the official opentelemetry-proto definitions
// (logs/v1/logs.proto; `event_name`, field 12, is newer than the generated classes this project
// has, which is why the records are read here rather than by them). And tells a logs request from a
// traces request, which the Collector may write to the same topic: the first record of a traces
// request is a Span, whose field 1 (trace_id) is length-delimited; a LogRecord's field 1
// (time_unix_nano) is a fixed64, and a record without it is no span (a span always has a trace id).
import protobuf from 'protobufjs/minimal.js';
import type { OtlpLogRecord } from './otlp-log-record.ts';
import type { OtlpAttributes, OtlpValue } from './otlp-span.ts';
import { hex16, hex8, isId } from './proto-ids.ts';
import { delimitedEnd, fixed64Ms, skipBytes } from './proto-wire.ts';
import type { Reader } from './proto-wire.ts';
import { readAnyValue, readKeyValue } from './read-proto-attributes.ts';
import { readResource, readScopeName } from './read-otlp-proto.ts';

const LENGTH_DELIMITED = 2;
const FIXED64 = 1;

function readerOf(bytes: Uint8Array): { reader: Reader; buffer: Buffer } {
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { reader: protobuf.Reader.create(buffer), buffer };
}

/** The first length-delimited field `field` of the message at the reader (up to `end`), the reader at its content; undefined when none. */
function enterField(reader: Reader, end: number, field: number): number | undefined {
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === field && (tag & 7) === LENGTH_DELIMITED) return delimitedEnd(reader);
    reader.skipType(tag & 7);
  }
  return undefined;
}

/** Whether `bytes` are a logs request rather than a traces one (both: 1 resource_*, in it 2 scope_*, in it 2 the records). Never throws: bytes it cannot tell are traces. */
export function isOtlpLogsProto(bytes: Uint8Array): boolean {
  try {
    const { reader } = readerOf(bytes);
    const resourceEnd = enterField(reader, reader.len, 1);
    const scopeEnd = resourceEnd === undefined ? undefined : enterField(reader, resourceEnd, 2);
    const recordEnd = scopeEnd === undefined ? undefined : enterField(reader, scopeEnd, 2);
    if (recordEnd === undefined) return false;
    while (reader.pos < recordEnd) {
      const tag = reader.uint32();
      if (tag >>> 3 === 1) return (tag & 7) === FIXED64;
      reader.skipType(tag & 7);
    }
    return true;
  } catch {
    return false;
  }
}

/** The log records of a request's bytes that carry a trace and a span id (others cannot be joined to a span); throws on bytes that are not one. */
export function logRecordsOfProto(bytes: Uint8Array): OtlpLogRecord[] {
  const { reader, buffer } = readerOf(bytes);
  const records: OtlpLogRecord[] = [];
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) readResourceLogs(reader, buffer, delimitedEnd(reader), records);
    else reader.skipType(tag & 7);
  }
  return records;
}

/** ResourceLogs: 1 resource, 2 scope_logs, 3 schema_url; the resource may come after the records. */
function readResourceLogs(reader: Reader, buffer: Buffer, end: number, records: OtlpLogRecord[]): void {
  const first = records.length;
  let resource: OtlpAttributes = {};
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) resource = readResource(reader, delimitedEnd(reader));
    else if (tag >>> 3 === 2) readScopeLogs(reader, buffer, delimitedEnd(reader), records);
    else reader.skipType(tag & 7);
  }
  for (let index = first; index < records.length; index += 1) records[index]!.resource = resource;
}

/** ScopeLogs: 1 scope, 2 log_records, 3 schema_url. */
function readScopeLogs(reader: Reader, buffer: Buffer, end: number, records: OtlpLogRecord[]): void {
  const first = records.length;
  let scope: string | undefined;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1) scope = readScopeName(reader, delimitedEnd(reader));
    else if (tag >>> 3 === 2) {
      const record = readLogRecord(reader, buffer, delimitedEnd(reader));
      if (record !== undefined) records.push(record);
    } else reader.skipType(tag & 7);
  }
  if (scope !== undefined) for (let index = first; index < records.length; index += 1) records[index]!.scope = scope;
}

/** LogRecord: 1 time, 2 severity_number, 3 severity_text, 5 body, 6 attributes, 7 dropped, 8 flags, 9 trace_id, 10 span_id, 11 observed_time, 12 event_name. */
function readLogRecord(reader: Reader, buffer: Buffer, end: number): OtlpLogRecord | undefined {
  let timeMs = 0;
  let observedMs = 0;
  let body: OtlpValue = null;
  let eventName = '';
  const attributes: OtlpAttributes = {};
  let traceId: string | undefined;
  let spanId: string | undefined;
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        timeMs = fixed64Ms(reader);
        break;
      case 5:
        body = readAnyValue(reader, delimitedEnd(reader), 0);
        break;
      case 6:
        readKeyValue(reader, delimitedEnd(reader), attributes, 0);
        break;
      case 9: {
        const length = buffer.length;
        const start = skipBytes(reader);
        traceId = reader.pos - start === 16 && isId(buffer, start, 16, 16) && start + 16 <= length ? hex16(buffer, start) : undefined;
        break;
      }
      case 10: {
        const start = skipBytes(reader);
        spanId = reader.pos - start === 8 && isId(buffer, start, 8, 8) ? hex8(buffer, start) : undefined;
        break;
      }
      case 11:
        observedMs = fixed64Ms(reader);
        break;
      case 12:
        eventName = reader.string();
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  if (traceId === undefined || spanId === undefined) return undefined;
  return { traceId, spanId, timeMs: timeMs !== 0 ? timeMs : observedMs, eventName, attributes, body, resource: {} };
}
