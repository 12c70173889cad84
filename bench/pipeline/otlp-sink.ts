// A stand-in for an OpenTelemetry collector: an HTTP server that accepts OTLP/HTTP posts, counts
// the spans of each body and discards it. It runs in the benchmark's parent process, so receiving
// spans costs the service nothing it would not pay against a real collector (serialising and
// sending do).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeOtlpTraces } from '../../src/otlp/decode-otlp.ts';

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
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      chunks.push(chunk);
    });
    request.on('end', () => {
      // An empty ExportTraceServiceResponse in the encoding the exporter posted.
      if (request.headers['content-type'] === 'application/x-protobuf') {
        const decoded = decodeOtlpTraces(Buffer.concat(chunks), 'otlp_proto');
        if (decoded.success) spans += decoded.spans.length;
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
