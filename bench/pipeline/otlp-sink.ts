// A stand-in for an OpenTelemetry collector: an HTTP server that accepts OTLP/HTTP posts, counts
// the spans of each body and discards it. It runs in the benchmark's parent process, so receiving
// spans costs the service nothing it would not pay against a real collector (serialising and
// sending do) — but on a machine whose cores the child and the broker share, the parent's CPU is
// theirs too: spans are counted by walking the message structure (ResourceSpans → ScopeSpans →
// Span, nothing inside a span read), 0.1–0.4 µs a span where decoding them took 2 µs, and every
// sixteenth body is decoded whole as well, its spans counted only if the two counts agree.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs/minimal.js';
import { decodeOtlpTraces } from '../../src/engine/otlp/decode-otlp.ts';

/** Field numbers of opentelemetry-proto: ExportTraceServiceRequest.resource_spans, ResourceSpans.scope_spans, ScopeSpans.spans. */
const RESOURCE_SPANS = 1;
const SCOPE_SPANS = 2;
const SPANS = 2;
const LENGTH_DELIMITED = 2;

/** Calls `each` with the [start, end) of every length-delimited field `field` of the message in reader's [pos, end). */
function eachField(reader: protobuf.Reader, end: number, field: number, each: (start: number, end: number) => void): void {
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === field && (tag & 7) === LENGTH_DELIMITED) {
      const length = reader.uint32();
      const start = reader.pos;
      if (start + length > end) throw new RangeError(`field ${field} runs past its message (${start + length} > ${end})`);
      each(start, start + length);
      reader.pos = start + length;
    } else reader.skipType(tag & 7);
  }
}

/** The spans an OTLP protobuf ExportTraceServiceRequest holds, counted without decoding one (throws on bytes that are not one). */
export function countOtlpProtoSpans(bytes: Uint8Array): number {
  const reader = protobuf.Reader.create(bytes);
  let spans = 0;
  eachField(reader, bytes.length, RESOURCE_SPANS, (_, resourceEnd) =>
    eachField(reader, resourceEnd, SCOPE_SPANS, (_, scopeEnd) =>
      eachField(reader, scopeEnd, SPANS, () => {
        spans += 1;
      }),
    ),
  );
  return spans;
}

/** A body's spans: walked, and when `check`, decoded too; a body whose counts disagree, or that is no request, counts none. */
function spansOf(body: Buffer, check: boolean): number {
  try {
    const walked = countOtlpProtoSpans(body);
    if (!check) return walked;
    const decoded = decodeOtlpTraces(body, 'otlp_proto');
    return decoded.success && decoded.data.length === walked ? walked : 0;
  } catch {
    return 0;
  }
}

export type OtlpSink = {
  /** The traces endpoint, e.g. http://127.0.0.1:41234/v1/traces. */
  url: string;
  /** Requests, bytes, and the spans in the protobuf ones (what an exporter really delivered). */
  received(): { requests: number; bytes: number; spans: number };
  close(): Promise<void>;
};

export async function startOtlpSink(): Promise<OtlpSink> {
  let requests = 0;
  let bytes = 0;
  let spans = 0;
  const server = createServer((request, response) => {
    requests += 1;
    const check = requests % 16 === 1; // the first body, the seventeenth, …
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      chunks.push(chunk);
    });
    request.on('end', () => {
      // An empty ExportTraceServiceResponse in the encoding the exporter posted.
      if (request.headers['content-type'] === 'application/x-protobuf') {
        spans += spansOf(Buffer.concat(chunks), check);
        response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      } else response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    received: () => ({ requests, bytes, spans }),
    async close() {
      server.closeAllConnections(); // the exporters' keep-alive sockets would hold close() open
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
