// The health endpoints for probes (docs/deployment.md): a small node:http server on its own port,
// answering JSON. `/livez` 200 while the event loop answers; `/startupz` 200 once the service
// started, 503 before; `/readyz` 200 when ready, 503 with the reasons otherwise (health-state.ts).
// Anything else is 404. It starts before the pre-flight, so a startup probe sees "starting" rather
// than a refused connection, and it is closed last at shutdown.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { HealthState } from './health-state.ts';

export type HealthServer = {
  /** The port it listens on (the one asked for, or the one the system chose for port 0). */
  readonly port: number;
  close(): Promise<void>;
};

function send(response: ServerResponse, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

export async function startHealthServer(options: { port: number; host: string; state: HealthState; logger: Logger }): Promise<HealthServer> {
  const { state } = options;
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, { error: 'only GET and HEAD' });
      return;
    }
    switch (path) {
      case '/livez':
        send(response, 200, { status: 'ok', eventLoopDelayMs: state.eventLoopDelayMs() });
        return;
      case '/startupz':
        send(response, state.isStarted ? 200 : 503, { status: state.isStarted ? 'started' : 'starting' });
        return;
      case '/readyz': {
        const { ready, ...details } = await state.readiness();
        send(response, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', ...details });
        return;
      }
      default:
        send(response, 404, { error: 'not found', endpoints: ['/livez', '/readyz', '/startupz'] });
    }
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.logger.warn({ err: error }, 'health endpoint failed');
      if (!response.headersSent) send(response, 500, { error: 'health check failed' });
    });
  });
  // Probes keep no connection open for long; a stop must not wait for an idle keep-alive.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ host: options.host, port, endpoints: ['/livez', '/readyz', '/startupz'] }, 'health endpoints listening');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
