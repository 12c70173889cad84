// Reads an `otlp_json` ExportLogsServiceRequest (OTLP/JSON: ids in hex, 64-bit integers as decimal
// strings, AnyValue as `{ stringValue | intValue | … }`) into log records (otlp-log-record.ts), the
// records without a trace and a span id left out (they cannot be joined to a span). Throws on an
// object that is not one.
import type { OtlpLogRecord } from './otlp-log-record.ts';
import type { OtlpAttributes, OtlpValue } from './otlp-span.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown, what: string): unknown[] => {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`${what} is not a list`);
  return value;
};

function anyValue(value: unknown, depth = 0): OtlpValue {
  if (!isObject(value) || depth > 32) return null;
  if (typeof value.stringValue === 'string') return value.stringValue;
  if (typeof value.boolValue === 'boolean') return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return Number(value.doubleValue);
  if (isObject(value.arrayValue)) return list(value.arrayValue.values, 'arrayValue.values').map((item) => anyValue(item, depth + 1));
  if (isObject(value.kvlistValue)) return attributes(value.kvlistValue.values, depth + 1);
  if (typeof value.bytesValue === 'string') return value.bytesValue;
  return null;
}

function attributes(value: unknown, depth = 0): OtlpAttributes {
  const into: OtlpAttributes = {};
  for (const entry of list(value, 'attributes')) if (isObject(entry) && typeof entry.key === 'string' && entry.key !== '') into[entry.key] = anyValue(entry.value, depth);
  return into;
}

const hexId = (value: unknown, length: number): string | undefined => (typeof value === 'string' && value.length === length && /^[0-9a-fA-F]+$/.test(value) && !/^0+$/.test(value) ? value.toLowerCase() : undefined);
const nanosToMs = (value: unknown): number => (value === undefined || value === null ? 0 : Number(BigInt(String(value)) / 1000n) / 1000);

export function logRecordsOfJson(request: Json): OtlpLogRecord[] {
  const records: OtlpLogRecord[] = [];
  for (const resourceLogs of list(request.resourceLogs, 'resourceLogs')) {
    if (!isObject(resourceLogs)) throw new Error('a resourceLogs entry is not an object');
    const resource = attributes(isObject(resourceLogs.resource) ? resourceLogs.resource.attributes : undefined);
    for (const scopeLogs of list(resourceLogs.scopeLogs, 'scopeLogs')) {
      if (!isObject(scopeLogs)) throw new Error('a scopeLogs entry is not an object');
      const scope = isObject(scopeLogs.scope) && typeof scopeLogs.scope.name === 'string' && scopeLogs.scope.name !== '' ? scopeLogs.scope.name : undefined;
      for (const record of list(scopeLogs.logRecords, 'logRecords')) {
        if (!isObject(record)) throw new Error('a log record is not an object');
        const traceId = hexId(record.traceId, 32);
        const spanId = hexId(record.spanId, 16);
        if (traceId === undefined || spanId === undefined) continue;
        const timeMs = nanosToMs(record.timeUnixNano) || nanosToMs(record.observedTimeUnixNano);
        records.push({ traceId, spanId, timeMs, eventName: typeof record.eventName === 'string' ? record.eventName : '', attributes: attributes(record.attributes), body: anyValue(record.body), resource, ...(scope === undefined ? {} : { scope }) });
      }
    }
  }
  return records;
}
