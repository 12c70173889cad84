// A stand-in for an OpenTelemetry collector: an HTTP server that accepts OTLP/HTTP posts, reads
// each body and discards it. It runs in the benchmark's parent process, so receiving spans costs
// the service nothing it would not pay against a real collector (serialising and sending do).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type OtlpSink = {
  /** The traces endpoint, e.g. http://127.0.0.1:41234/v1/traces. */
  url: string;
  received(): { requests: number; bytes: number };
  close(): Promise<void>;
};

export async function startOtlpSink(): Promise<OtlpSink> {
  let requests = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    requests += 1;
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      // An empty ExportTraceServiceResponse in the encoding the exporter posted.
      if (request.headers['content-type'] === 'application/x-protobuf') response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    received: () => ({ requests, bytes }),
    async close() {
      server.closeAllConnections(); // the exporters' keep-alive sockets would hold close() open
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
