// A direct OTLP/HTTP receiver that records exactly what an agent's exporters sent: what the
// fixture capture (capture.ts) listens with, so a fixture is the framework's own bytes, not a
// Collector's re-encoding. POST /v1/traces and POST /v1/logs (the log-based events some frameworks
// put a model call's content in), in protobuf (application/x-protobuf, what the Python and JS
// OTLP/HTTP exporters send by default) or OTLP/JSON, gzip or not; each request is kept as OTLP/JSON
// (hex ids), the form the Collector's file exporter writes and decode-otlp reads.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs/minimal.js';
import otlpRoot from 'otlp-transformer-protos/build/src/generated/root.js';

type MessageType = {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): Record<string, unknown>;
};
type ServiceRequests = { trace: { v1: { ExportTraceServiceRequest: MessageType } }; logs: { v1: { ExportLogsServiceRequest: MessageType } } };
const collector = (otlpRoot as unknown as { opentelemetry: { proto: { collector: ServiceRequests } } }).opentelemetry.proto.collector;
const REQUEST_TYPES = { traces: collector.trace.v1.ExportTraceServiceRequest, logs: collector.logs.v1.ExportLogsServiceRequest };

export type OtlpSignal = keyof typeof REQUEST_TYPES;

export type OtlpReceiver = {
  /** e.g. http://127.0.0.1:PORT/v1/traces. */
  readonly tracesUrl: string;
  /** e.g. http://127.0.0.1:PORT/v1/logs. */
  readonly logsUrl: string;
  /** http://127.0.0.1:PORT: for exporters configured with a base endpoint (they append /v1/traces, /v1/logs). */
  readonly endpoint: string;
  /** Every traces request received, in order, as OTLP/JSON ExportTraceServiceRequest objects. */
  readonly requests: ReadonlyArray<Record<string, unknown>>;
  /** Every logs request received, in order, as OTLP/JSON ExportLogsServiceRequest objects. */
  readonly logRequests: ReadonlyArray<Record<string, unknown>>;
  /** The number of spans received so far. */
  spanCount(): number;
  /** The number of log records received so far. */
  logRecordCount(): number;
  close(): Promise<void>;
};

const ID_FIELDS = new Set(['traceId', 'spanId', 'parentSpanId']);

/** protobufjs's object form (ids as base64) → OTLP/JSON (ids as hex). */
function hexIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hexIds);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) copy[key] = ID_FIELDS.has(key) && typeof field === 'string' ? Buffer.from(field, 'base64').toString('hex') : hexIds(field);
  return copy;
}

/** One request body (protobuf or OTLP/JSON) of a signal as OTLP/JSON. */
export function otlpJsonOfRequest(body: Buffer, contentType: string, signal: OtlpSignal = 'traces'): Record<string, unknown> {
  if (contentType.includes('json')) return JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  const requestType = REQUEST_TYPES[signal];
  const object = hexIds(requestType.toObject(requestType.decode(body), { longs: String, bytes: String, enums: Number, defaults: false })) as Record<string, unknown>;
  if (signal === 'logs') withEventNames(object, logRecordEventNames(body));
  return object;
}

type LogsRequest = { resourceLogs?: Array<{ scopeLogs?: Array<{ logRecords?: Array<Record<string, unknown>> }> }> };
const logRecordsOf = (request: Record<string, unknown>) => ((request as LogsRequest).resourceLogs ?? []).flatMap((resource) => (resource.scopeLogs ?? []).flatMap((scope) => scope.logRecords ?? []));

/**
 * LogRecord's `event_name` (field 12) is newer than the generated classes, which skip it: read from
 * the bytes here, one entry per record in the order the request holds them (ExportLogsServiceRequest
 * 1 resource_logs → ResourceLogs 2 scope_logs → ScopeLogs 2 log_records), '' where a record has none.
 */
function logRecordEventNames(body: Uint8Array): string[] {
  const names: string[] = [];
  const reader = protobuf.Reader.create(body);
  const fields = (end: number, visit: (field: number, wireType: number) => boolean) => {
    while (reader.pos < end) {
      const tag = reader.uint32();
      if (!visit(tag >>> 3, tag & 7)) reader.skipType(tag & 7);
    }
  };
  const nested = (field: number, wireType: number, want: number, read: (end: number) => void) => {
    if (field !== want || wireType !== 2) return false;
    const length = reader.uint32();
    read(reader.pos + length);
    return true;
  };
  fields(reader.len, (field, wireType) =>
    nested(field, wireType, 1, (resourceEnd) =>
      fields(resourceEnd, (field, wireType) =>
        nested(field, wireType, 2, (scopeEnd) =>
          fields(scopeEnd, (field, wireType) =>
            nested(field, wireType, 2, (recordEnd) => {
              let name = '';
              fields(recordEnd, (field, wireType) => {
                if (field !== 12 || wireType !== 2) return false;
                name = reader.string();
                return true;
              });
              names.push(name);
            }),
          ),
        ),
      ),
    ),
  );
  return names;
}

/** Each record's eventName where it has one (defaults left out, as for every other field). */
function withEventNames(request: Record<string, unknown>, names: string[]): void {
  const records = logRecordsOf(request);
  if (records.length !== names.length) throw new Error(`a logs request of ${records.length} records, but ${names.length} in its bytes`);
  records.forEach((record, index) => {
    if (names[index] !== '') record.eventName = names[index];
  });
}

function spansIn(request: Record<string, unknown>): number {
  const resourceSpans = (request.resourceSpans ?? []) as Array<{ scopeSpans?: Array<{ spans?: unknown[] }> }>;
  return resourceSpans.reduce((sum, resource) => sum + (resource.scopeSpans ?? []).reduce((inner, scope) => inner + (scope.spans?.length ?? 0), 0), 0);
}

/** The signal a path is for: /v1/traces or /v1/logs. */
function signalOf(method: string | undefined, url: string | undefined): OtlpSignal {
  const path = (url ?? '').split('?')[0];
  if (method === 'POST' && path === '/v1/traces') return 'traces';
  if (method === 'POST' && path === '/v1/logs') return 'logs';
  throw new Error(`only POST /v1/traces and /v1/logs are served, not ${method} ${url}`);
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: Array<Record<string, unknown>> = [];
  const logRequests: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = String(request.headers['content-type'] ?? 'application/x-protobuf');
      try {
        const signal = signalOf(request.method, request.url);
        let body = Buffer.concat(chunks);
        if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        (signal === 'traces' ? requests : logRequests).push(otlpJsonOfRequest(body, contentType, signal));
        response.writeHead(200, { 'content-type': contentType.includes('json') ? 'application/json' : 'application/x-protobuf' });
        response.end(contentType.includes('json') ? '{}' : Buffer.alloc(0));
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' });
        response.end(error instanceof Error ? error.message : String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    tracesUrl: `http://127.0.0.1:${port}/v1/traces`,
    logsUrl: `http://127.0.0.1:${port}/v1/logs`,
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    logRequests,
    spanCount: () => requests.reduce((sum, request) => sum + spansIn(request), 0),
    logRecordCount: () => logRequests.reduce((sum, request) => sum + logRecordsOf(request).length, 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
