// The alert webhook against a real local HTTP server that fails on demand: in-order delivery, JSON
// and Slack bodies, retries of what can succeed later (5xx, 429 with Retry-After, a timeout) but
// not of a 4xx, giving up after maxAttempts, dropping past the queue bound, and notify() never
// waiting on the webhook. Waits between attempts go through an injected sleep (no real backoff).
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { AlertRecord } from '../../../src/kit/contracts/alert-record.ts';
import { webhookSchema } from '../../../src/engine/monitors/alerts-schema.ts';
import { createWebhookNotifier, retryAfterMs } from '../../../service/monitor/webhook-notifier.ts';

type Answer = { status: number; headers?: Record<string, string> } | 'hang';

async function webhookServer(answers: Answer[]) {
  const requests: { body: string; headers: IncomingMessage['headers'] }[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      requests.push({ body, headers: request.headers });
      const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
      if (answer === 'hang') return;
      response.writeHead(answer.status, answer.headers).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.closeAllConnections() ?? server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/T000/secret-token?x=1`, requests };
}

const notice = (name: string, kind: 'breach' | 'recovered' = 'breach'): AlertRecord => ({
  schemaVersion: 1,
  alertId: `id-${name}-${kind}`,
  kind,
  monitor: { name, scorer: 'completeness', agent: '<@U123> & co', aggregation: 'mean', windowMs: 60_000, threshold: { below: 0.25 }, forMs: 15_000, cooldownMs: 0, noData: 'keep', minSamples: 1 },
  value: 0.125,
  samples: 40,
  noData: false,
  since: '2026-12-01T10:00:00.000Z',
  at: '2026-12-01T10:00:15.000Z',
});

function setup(url: string, extra: Record<string, unknown> = {}, options: { maxQueue?: number } = {}) {
  const warnings: { fields: Record<string, unknown>; message: string }[] = [];
  const sleeps: number[] = [];
  const outcomes: string[] = [];
  const notifier = createWebhookNotifier({
    webhook: webhookSchema.parse({ url, ...extra }),
    logger: { warn: (fields: Record<string, unknown>, message: string) => warnings.push({ fields, message }), info: () => undefined } as never,
    sleep: async (ms) => void sleeps.push(ms),
    onOutcome: (outcome) => outcomes.push(outcome),
    ...options,
  });
  onTestFinished(() => notifier.close(1_000));
  return { notifier, warnings, sleeps, outcomes };
}

const settled = async (outcomes: string[], count: number) => {
  for (let i = 0; i < 500 && outcomes.length < count; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
};

describe('the alert webhook', () => {
  it('posts each notice as JSON, in order, with the configured headers', async () => {
    const server = await webhookServer([{ status: 204 }]);
    const { notifier, outcomes } = setup(server.url, { headers: { authorization: 'Bearer t0ken' } });
    notifier.notify(notice('a'));
    notifier.notify(notice('a', 'recovered'));
    notifier.notify(notice('b'));
    await settled(outcomes, 3);
    expect(server.requests.map((request) => JSON.parse(request.body) as AlertRecord).map((body) => `${body.monitor.name}:${body.kind}`)).toEqual(['a:breach', 'a:recovered', 'b:breach']);
    expect(server.requests[0]!.headers).toMatchObject({ 'content-type': 'application/json', authorization: 'Bearer t0ken' });
    expect(JSON.parse(server.requests[0]!.body)).toEqual(notice('a'));
    expect(notifier.stats).toMatchObject({ delivered: 3, failed: 0, attempts: 3 });
  });

  it('sends Slack a message whose names cannot become mentions or links', async () => {
    const server = await webhookServer([{ status: 200 }]);
    const { notifier, outcomes } = setup(server.url, { format: 'slack' });
    notifier.notify(notice('support<https://evil.example|click>'));
    await settled(outcomes, 1);
    const { text } = JSON.parse(server.requests[0]!.body) as { text: string };
    expect(text).toBe(':rotating_light: support&lt;https://evil.example|click&gt; breached: mean of completeness (agent &lt;@U123&gt; &amp; co) 0.125 &lt; 0.25 over 1m (40 samples; since 2026-12-01T10:00:00.000Z)');
  });

  it('retries 5xx and 429 (honouring Retry-After), then delivers', async () => {
    const server = await webhookServer([{ status: 503 }, { status: 429, headers: { 'retry-after': '7' } }, { status: 500 }, { status: 200 }]);
    const { notifier, outcomes, sleeps } = setup(server.url);
    notifier.notify(notice('a'));
    await settled(outcomes, 1);
    expect(outcomes).toEqual(['delivered']);
    expect(sleeps).toEqual([1_000, 7_000, 4_000]);
    expect(notifier.stats.attempts).toBe(4);
  });

  it('does not retry a 4xx, and says what to fix without the URL secrets', async () => {
    const server = await webhookServer([{ status: 404 }]);
    const { notifier, outcomes, warnings } = setup(server.url);
    notifier.notify(notice('a'));
    await settled(outcomes, 1);
    expect(outcomes).toEqual(['failed']);
    expect(server.requests).toHaveLength(1);
    expect(warnings[0]!.message).toContain('not retried (fix the webhook');
    expect(JSON.stringify(warnings)).not.toContain('secret-token');
  });

  it('gives up after maxAttempts on a webhook that keeps failing or does not answer, and goes on with the next notice', async () => {
    const server = await webhookServer(['hang', 'hang', { status: 502 }, { status: 200 }]);
    // Long enough for the 502 to arrive on a loaded machine: it answers at once, the hangs never do.
    const { notifier, outcomes, warnings } = setup(server.url, { maxAttempts: 3, timeoutMs: 1_000 });
    notifier.notify(notice('a'));
    notifier.notify(notice('b'));
    await settled(outcomes, 2);
    expect(outcomes).toEqual(['failed', 'delivered']);
    expect(warnings[0]!.message).toMatch(/answered 502; gave up after 3 attempts/);
  });

  it('never makes notify() wait, and drops past the queue bound, counting it', async () => {
    const server = await webhookServer(['hang']);
    const { notifier, outcomes } = setup(server.url, { timeoutMs: 60_000 }, { maxQueue: 2 });
    // notify() returns nothing to wait on: the fourth notice is dropped before any request answered.
    for (const name of ['a', 'b', 'c']) expect(notifier.notify(notice(name))).toBeUndefined();
    notifier.notify(notice('d'));
    expect(outcomes).toEqual(['dropped']);
    await notifier.close(100);
    expect(notifier.stats).toMatchObject({ dropped: 1, failed: 3, delivered: 0 });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-12-01T10:00:00.000Z');
    expect(retryAfterMs('3', now)).toBe(3_000);
    expect(retryAfterMs('Tue, 01 Dec 2026 10:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
