// The dashboard's server against the real broker, over plain HTTP: the look-back read from the
// offsets for its start time, invalid messages counted and ignored, the SSE feed resuming from
// Last-Event-ID, paths outside the assets refused, the access token and the Host check.
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { decisionRecord, scoreRecord } from '../../helpers/dashboard-records.ts';
import { publish, useDashboard, useDashboardTopics, useProducer } from './dashboard-helpers.ts';

const hour = 3_600_000;

/** A raw GET (no URL normalisation, any Host header): status, headers and body. */
function get(url: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Reads SSE frames from /api/events until `count` arrived. */
async function readEvents(url: string, count: number, lastEventId?: string): Promise<{ id: string; event: string; data: unknown }[]> {
  const controller = new AbortController();
  const response = await fetch(`${url}api/events`, { headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId }, signal: controller.signal });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const events: { id: string; event: string; data: unknown }[] = [];
  let buffer = '';
  const deadline = Date.now() + 15_000;
  while (events.length < count && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(frame.split('\n').filter((line) => !line.startsWith(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
      if (fields.event !== undefined) events.push({ id: fields.id!, event: fields.event, data: JSON.parse(fields.data!) });
    }
  }
  controller.abort();
  return events;
}

describe('dashboard server', () => {
  it('reads from the offsets of its look-back start, and counts invalid messages without showing them', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const now = Date.now();
    await publish(producer, topics.results, [scoreRecord({ status: 'scored', score: 1 }, { scoreId: 'too-old', at: now - 8 * hour })], now - 8 * hour);
    await publish(producer, topics.results, [scoreRecord({ status: 'scored', score: 0.5 }, { scoreId: 'recent', at: now - hour })], now - hour);
    await producer.send({ topic: topics.results, messages: [{ key: 'x', value: 'not json' }, { key: 'y', value: JSON.stringify({ schemaVersion: 1, status: 'scored' }) }] });
    await publish(producer, topics.decisions, [decisionRecord({ at: now - hour })], now - hour);
    const dashboard = await useDashboard(topics, { sinceMs: 6 * hour });
    await expect.poll(() => dashboard.state.counts().invalid).toBe(2);
    // The 8-hour-old record was never read (not read and then dropped as outside the window).
    expect(dashboard.state.counts()).toMatchObject({ records: 1, decisions: 1, outsideWindow: 0, invalid: 2 });
    const snapshot = JSON.parse((await get(dashboard.url, '/api/snapshot')).body);
    expect(snapshot.recent.map((summary: { scoreId: string }) => summary.scoreId)).toEqual(['recent']);
    expect(JSON.parse((await get(dashboard.url, '/api/records/recent')).body).record.scoreId).toBe('recent');
    expect((await get(dashboard.url, '/api/records/too-old')).status).toBe(404);
  });

  it('resumes the event stream after the Last-Event-ID, and sends a snapshot for an unknown one', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    const dashboard = await useDashboard(topics);
    const [snapshot] = await readEvents(dashboard.url, 1);
    expect(snapshot!.event).toBe('snapshot');
    await publish(producer, topics.results, ['a', 'b', 'c'].map((scoreId) => scoreRecord({ status: 'scored', score: 0.5 }, { scoreId, runId: scoreId, at: Date.now() })));
    await expect.poll(() => dashboard.state.counts().records).toBe(3);
    const all = await readEvents(dashboard.url, 3, snapshot!.id);
    expect(all.map((event) => event.event)).toEqual(['record', 'record', 'record']);
    const resumed = await readEvents(dashboard.url, 2, all[0]!.id);
    expect(resumed.map((event) => event.id)).toEqual([all[1]!.id, all[2]!.id]);
    const [fresh] = await readEvents(dashboard.url, 1, 'deadbeef.7');
    expect(fresh!.event).toBe('snapshot');
    expect((fresh!.data as { recent: unknown[] }).recent).toHaveLength(3);
  });

  it('serves its assets with a strict content security policy and refuses every path outside them', async () => {
    const dashboard = await useDashboard(await useDashboardTopics());
    const page = await get(dashboard.url, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect((await get(dashboard.url, '/vendor/uPlot.esm.js')).body).toContain('uPlot');
    for (const path of ['/assets/../../package.json', '/assets/%2e%2e/%2e%2e/package.json', '/assets/..%2f..%2fpackage.json', '/../package.json', '/vendor/../package.json', '/node_modules/uplot/package.json', '/assets/%00', '/dashboard/http-server.ts']) {
      const response = await get(dashboard.url, path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).not.toContain('"name"');
    }
    expect((await new Promise<number>((resolve, reject) => request(`${dashboard.url}api/snapshot`, { method: 'POST' }, (response) => resolve(response.statusCode ?? 0)).on('error', reject).end()))).toBe(405);
  });

  it('answers only to a loopback Host without a token', async () => {
    const dashboard = await useDashboard(await useDashboardTopics());
    expect((await get(dashboard.url, '/api/snapshot', { host: 'localhost' })).status).toBe(200);
    const rebound = await get(dashboard.url, '/api/snapshot', { host: 'attacker.example' });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain('--token');
  });

  it('with a token: refuses requests without it, takes it once from the page URL as a cookie, or as a bearer header', async () => {
    const dashboard = await useDashboard(await useDashboardTopics(), { token: 'the-token' });
    const host = { host: 'dashboard.internal' };
    expect((await get(dashboard.url, '/', host)).status).toBe(401);
    expect((await get(dashboard.url, '/api/snapshot', { ...host, authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await get(dashboard.url, '/api/snapshot?token=the-token', host)).status).toBe(401);
    const login = await get(dashboard.url, '/?token=the-token&scorer=x', host);
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe('/?scorer=x');
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    expect(String(login.headers['set-cookie'])).toContain('HttpOnly');
    expect((await get(dashboard.url, '/api/snapshot', { ...host, cookie })).status).toBe(200);
    expect((await get(dashboard.url, '/api/snapshot', { ...host, authorization: 'Bearer the-token' })).status).toBe(200);
  });
});
