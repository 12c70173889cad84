// Who may read the dashboard. Bound to a loopback address without a token, only requests whose
// Host header names a loopback host are answered (a web page elsewhere cannot rebind a DNS name to
// 127.0.0.1 and read the records). With a token — required by the CLI on any other address — a
// request carries it as `Authorization: Bearer`, as the `scorestream_dashboard` cookie, or once as
// `?token=` on the page, which sets the cookie and redirects to the URL without it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'scorestream_dashboard';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function tokenMatches(expected: string, given: string | undefined): boolean {
  return given !== undefined && timingSafeEqual(digest(expected), digest(given));
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function requestToken(request: IncomingMessage): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim();
  return cookieValue(request.headers.cookie, TOKEN_COOKIE);
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackHostHeader(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
  return loopbackHosts.has(name.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(name);
}

export function isLoopbackAddress(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
