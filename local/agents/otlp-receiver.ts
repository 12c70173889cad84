// A direct OTLP/HTTP traces receiver that records exactly what an agent's exporter sent: what
// the fixture capture (capture.ts) listens with, so a fixture is the framework's own bytes, not a
// Collector's re-encoding. POST /v1/traces in protobuf (application/x-protobuf, what the Python
// and JS OTLP/HTTP exporters send by default) or OTLP/JSON, gzip or not; each request is kept as
// OTLP/JSON (hex ids), the form the Collector's file exporter writes and decode-otlp reads.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import otlpRoot from 'otlp-transformer-protos/build/src/generated/root.js';

type MessageType = {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): Record<string, unknown>;
};
const requestType = (otlpRoot as unknown as { opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: MessageType } } } } } })
  .opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

export type OtlpReceiver = {
  /** e.g. http://127.0.0.1:PORT/v1/traces. */
  readonly tracesUrl: string;
  /** http://127.0.0.1:PORT: for exporters configured with a base endpoint (they append /v1/traces). */
  readonly endpoint: string;
  /** Every request received, in order, as OTLP/JSON ExportTraceServiceRequest objects. */
  readonly requests: ReadonlyArray<Record<string, unknown>>;
  /** The number of spans received so far. */
  spanCount(): number;
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

/** One request body (protobuf or OTLP/JSON) as OTLP/JSON. */
export function otlpJsonOfRequest(body: Buffer, contentType: string): Record<string, unknown> {
  if (contentType.includes('json')) return JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  const message = requestType.decode(body);
  return hexIds(requestType.toObject(message, { longs: String, bytes: String, enums: Number, defaults: false })) as Record<string, unknown>;
}

function spansIn(request: Record<string, unknown>): number {
  const resourceSpans = (request.resourceSpans ?? []) as Array<{ scopeSpans?: Array<{ spans?: unknown[] }> }>;
  return resourceSpans.reduce((sum, resource) => sum + (resource.scopeSpans ?? []).reduce((inner, scope) => inner + (scope.spans?.length ?? 0), 0), 0);
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const contentType = String(request.headers['content-type'] ?? 'application/x-protobuf');
      try {
        if (request.method !== 'POST' || !(request.url ?? '').startsWith('/v1/traces')) throw new Error(`only POST /v1/traces is served, not ${request.method} ${request.url}`);
        let body = Buffer.concat(chunks);
        if (request.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
        requests.push(otlpJsonOfRequest(body, contentType));
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
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    spanCount: () => requests.reduce((sum, request) => sum + spansIn(request), 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
