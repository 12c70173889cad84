// The dashboard's HTTP server (Node's own): the page and its assets, a JSON snapshot, one record
// by scoreId, one run by id, and the live feed as Server-Sent Events. Each event has an `id:`; a
// page reconnecting with Last-Event-ID gets the events it missed, or a fresh snapshot when the
// server no longer has them (restarted, or the page was away too long). A page that cannot keep up
// is disconnected rather than buffered without bound; it reconnects and resumes the same way.
import { createReadStream } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackAddress, isLoopbackHostHeader, requestToken, TOKEN_COOKIE, tokenMatches } from './access.ts';
import type { DashboardEvent } from './dashboard-event.ts';
import type { DashboardState } from './dashboard-state.ts';
import type { AssetRoots } from './static-assets.ts';
import { resolveAsset } from './static-assets.ts';

export type DashboardServerOptions = {
  state: DashboardState;
  assets: AssetRoots;
  host: string;
  port: number;
  token?: string | undefined;
  /** A page whose unsent events exceed this many bytes is disconnected (it reconnects and resumes). */
  maxBufferedBytes?: number;
  heartbeatMs?: number;
  /** The monitors and their recent notices (alert-feed.ts), for /api/alerts. */
  alerts?: () => unknown;
};

export type DashboardServer = { readonly url: string; readonly port: number; close(): Promise<void> };

const securityHeaders = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

function frame(event: DashboardEvent | { id: string; type: 'snapshot'; data: unknown }): string {
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

export async function startDashboardServer(options: DashboardServerOptions): Promise<DashboardServer> {
  const { state } = options;
  const maxBuffered = options.maxBufferedBytes ?? 8 * 1024 * 1024;
  const clients = new Set<ServerResponse>();
  // Serialized once per event, whatever the number of pages.
  const unsubscribe = state.subscribe((event) => {
    const text = frame(event);
    for (const client of clients) send(client, text);
  });
  const send = (client: ServerResponse, text: string) => {
    if (client.writableLength > maxBuffered) {
      clients.delete(client);
      client.destroy();
      return;
    }
    client.write(text);
  };
  const heartbeat = setInterval(() => {
    for (const client of clients) send(client, ': keep-alive\n\n');
  }, options.heartbeatMs ?? 15_000);
  heartbeat.unref();

  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { ...securityHeaders, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    response.end(JSON.stringify(body));
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://dashboard.invalid');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...securityHeaders, allow: 'GET, HEAD' }).end();
      return;
    }
    if (options.token === undefined) {
      if (!isLoopbackHostHeader(request.headers.host)) return json(response, 403, { error: 'this dashboard answers only to localhost; to reach it from elsewhere, start it with --host and --token' });
    } else if (!tokenMatches(options.token, requestToken(request))) {
      const queryToken = url.searchParams.get('token') ?? undefined;
      if (tokenMatches(options.token, queryToken) && (url.pathname === '/' || url.pathname === '/index.html')) {
        url.searchParams.delete('token');
        response.writeHead(303, {
          ...securityHeaders,
          'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(options.token)}; HttpOnly; SameSite=Strict; Path=/`,
          location: `${url.pathname}${url.search}`,
        });
        response.end();
        return;
      }
      return json(response, 401, { error: 'this dashboard needs its access token: open it as /?token=<token> once, or send Authorization: Bearer <token>' });
    }

    const path = url.pathname;
    if (path === '/favicon.ico') return void response.writeHead(204, securityHeaders).end();
    if (path === '/api/snapshot') return json(response, 200, state.snapshot());
    if (path === '/api/alerts') return json(response, 200, options.alerts?.() ?? { monitors: [], notices: [] });
    if (path === '/api/events') return openEvents(request, response, url);
    if (path.startsWith('/api/records/')) {
      const detail = state.recordDetail(decodeSegment(path.slice('/api/records/'.length)));
      return detail === undefined
        ? json(response, 404, { error: 'this record is no longer kept (the dashboard keeps the most recent ones); find it on the results topic by its scoreId' })
        : json(response, 200, detail);
    }
    if (path.startsWith('/api/runs/')) {
      const runId = decodeSegment(path.slice('/api/runs/'.length));
      const run = state.run(runId);
      return json(response, 200, { runId, found: run !== undefined, entries: run?.entries ?? [], openable: run?.kept ?? [], windowMs: state.limits.windowMs, maxRuns: state.limits.maxRuns });
    }
    const asset = resolveAsset(path, options.assets);
    if (asset === undefined) return json(response, 404, { error: 'not found' });
    const stream = createReadStream(asset.file);
    stream.once('open', () => {
      response.writeHead(200, { ...securityHeaders, 'content-type': asset.contentType, 'cache-control': 'no-cache' });
      if (request.method === 'HEAD') {
        stream.destroy();
        response.end();
      } else stream.pipe(response);
    });
    stream.once('error', () => {
      if (!response.headersSent) json(response, 404, { error: 'not found' });
      else response.destroy();
    });
  };

  const openEvents = (request: IncomingMessage, response: ServerResponse, url: URL) => {
    response.writeHead(200, { ...securityHeaders, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    response.write('retry: 1000\n\n');
    const lastEventId = (request.headers['last-event-id'] as string | undefined) ?? url.searchParams.get('lastEventId') ?? undefined;
    const missed = lastEventId === undefined ? undefined : state.eventsAfter(lastEventId);
    if (missed === undefined) {
      const snapshot = state.snapshot();
      response.write(frame({ id: snapshot.lastEventId, type: 'snapshot', data: snapshot }));
    } else {
      for (const event of missed) response.write(frame(event));
    }
    clients.add(response);
    request.once('close', () => clients.delete(response));
  };

  const server: Server = createServer(handle);
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostInUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const shownHost = isLoopbackAddress(options.host) ? (options.host === 'localhost' ? 'localhost' : hostInUrl) : options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : hostInUrl;
  return {
    url: `http://${shownHost}:${address.port}/`,
    port: address.port,
    async close() {
      unsubscribe();
      clearInterval(heartbeat);
      for (const client of clients) client.end();
      clients.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
