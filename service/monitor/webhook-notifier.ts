// Delivers monitor notices to the configured webhook (alerts.webhook; docs/alerts.md), in order,
// on a queue of its own: the monitor hands a notice over and moves on, so a slow or failing
// webhook holds up neither the evaluation nor the alerts topic. Each notice is attempted up to
// maxAttempts times; only what can succeed later is retried (a network error, a timeout, 408,
// 425, 429, 5xx), after the server's Retry-After or 1 s, 2 s, 4 s, … (at most 30 s); any other
// answer fails the notice at once. Every outcome is counted and a failure is logged, without the
// URL's secrets or the headers.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import type { AlertRecord } from '../../src/kit/contracts/alert-record.ts';
import type { WebhookConfig } from '../../src/engine/monitors/alerts-schema.ts';
import { webhookBody } from '../../src/engine/monitors/webhook-body.ts';
import { backoffDelayMs } from '../../src/kit/backoff.ts';

export type WebhookOutcome = 'delivered' | 'failed' | 'dropped';

export type WebhookNotifierOptions = {
  webhook: WebhookConfig;
  logger: Pick<Logger, 'warn' | 'info'>;
  /** Notices waiting at most; past it new ones are dropped and counted (default 100). */
  maxQueue?: number;
  /** Injected in tests. */
  fetch?: typeof fetch;
  sleep?: (ms: number, signal: AbortSignal) => Promise<unknown>;
  onOutcome?: (outcome: WebhookOutcome, notice: AlertRecord) => void;
};

export type WebhookNotifier = {
  notify(notice: AlertRecord): void;
  readonly stats: { delivered: number; failed: number; dropped: number; attempts: number };
  /** Stops taking notices; waits up to `timeoutMs` for the queue to drain, then gives up on the rest. */
  close(timeoutMs?: number): Promise<void>;
};

const RETRYABLE_STATUSES = new Set([408, 425, 429]);
/** The pause after a webhook's first failure without Retry-After; doubled after each further one. */
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/** The URL as logged: scheme, host and path, never the query (tokens live there). */
const safeUrl = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname.length > 1 ? '/…' : ''}`;
};

export function createWebhookNotifier(options: WebhookNotifierOptions): WebhookNotifier {
  const { webhook, logger } = options;
  const fetchImpl = options.fetch ?? fetch;
  const wait = options.sleep ?? ((ms: number, signal: AbortSignal) => sleep(ms, undefined, { signal }));
  const maxQueue = options.maxQueue ?? 100;
  const queue: AlertRecord[] = [];
  const stats = { delivered: 0, failed: 0, dropped: 0, attempts: 0 };
  const stopping = new AbortController();
  let closed = false;
  let working: Promise<void> | undefined;
  const target = safeUrl(webhook.url);

  const settle = (outcome: WebhookOutcome, notice: AlertRecord) => {
    stats[outcome] += 1;
    options.onOutcome?.(outcome, notice);
  };

  async function deliver(notice: AlertRecord): Promise<void> {
    const body = webhookBody(notice, webhook.format);
    for (let attempt = 1; ; attempt += 1) {
      stats.attempts += 1;
      let why: string;
      let delayMs: number | undefined;
      try {
        const response = await fetchImpl(webhook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...webhook.headers },
          body,
          signal: AbortSignal.any([AbortSignal.timeout(webhook.timeoutMs), stopping.signal]),
        });
        await response.arrayBuffer().catch(() => undefined);
        if (response.ok) return settle('delivered', notice);
        why = `answered ${response.status}`;
        if (!RETRYABLE_STATUSES.has(response.status) && response.status < 500) {
          logger.warn({ monitor: notice.monitor.name, kind: notice.kind, webhook: target, status: response.status }, `the alert webhook ${why}; not retried (fix the webhook's URL or headers)`);
          return settle('failed', notice);
        }
        delayMs = retryAfterMs(response.headers.get('retry-after'), Date.now());
      } catch (error) {
        if (stopping.signal.aborted) return settle('failed', notice);
        why = error instanceof Error && error.name === 'TimeoutError' ? `did not answer within ${webhook.timeoutMs} ms` : `could not be reached (${error instanceof Error ? error.message : String(error)})`;
      }
      if (attempt >= webhook.maxAttempts) {
        logger.warn({ monitor: notice.monitor.name, kind: notice.kind, webhook: target, attempts: attempt }, `the alert webhook ${why}; gave up after ${attempt} attempts`);
        return settle('failed', notice);
      }
      // The webhook's own Retry-After if it sent one, else the backoff; never past MAX_DELAY_MS.
      const pause = Math.min(MAX_DELAY_MS, delayMs ?? backoffDelayMs({ firstDelayMs: FIRST_DELAY_MS, maxDelayMs: MAX_DELAY_MS }, attempt));
      try {
        await wait(pause, stopping.signal);
      } catch {
        return settle('failed', notice);
      }
    }
  }

  async function work(): Promise<void> {
    while (queue.length > 0) await deliver(queue.shift()!);
    working = undefined;
  }

  return {
    stats,
    notify(notice) {
      if (closed || queue.length >= maxQueue) {
        logger.warn({ monitor: notice.monitor.name, kind: notice.kind, webhook: target, queued: queue.length }, 'the alert webhook is behind: notice dropped (it is on the alerts topic)');
        return settle('dropped', notice);
      }
      queue.push(notice);
      working ??= work();
    },
    async close(timeoutMs = 10_000) {
      closed = true;
      if (working === undefined) return;
      const timer = setTimeout(() => stopping.abort(), timeoutMs);
      await working;
      clearTimeout(timer);
      for (const notice of queue.splice(0)) settle('failed', notice);
    },
  };
}
