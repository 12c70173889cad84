// The dashboard's failure paths: a page that does not read its event stream is disconnected once
// its unsent events pass the bound (instead of being buffered without end), and a reader started
// on topics that do not exist says so — skipping a missing decisions or agreements topic, refusing
// when none exists.
import { connect } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_LIMITS } from '../../../dashboard/dashboard-limits.ts';
import { DashboardState } from '../../../dashboard/dashboard-state.ts';
import { startDashboardServer } from '../../../dashboard/http-server.ts';
import { startKafkaReader } from '../../../dashboard/kafka-reader.ts';
import { defaultAssetRoots } from '../../../dashboard/static-assets.ts';
import { scoreRecord } from '../../helpers/dashboard-records.ts';
import { uniqueName, testEdge } from '../../helpers/kafka.ts';
import { publish, useDashboard, useDashboardTopics, useProducer } from './dashboard-helpers.ts';

describe('dashboard bounds and failures', () => {
  it('disconnects a page whose unsent events pass the bound, and keeps serving the others', async () => {
    const state = new DashboardState({ ...DEFAULT_LIMITS, windowMs: 3_600_000, bucketMs: 60_000 });
    const server = await startDashboardServer({ state, assets: defaultAssetRoots(), host: '127.0.0.1', port: 0, maxBufferedBytes: 64 * 1024 });
    onTestFinished(() => server.close());
    // A client that asks for the stream and never reads it.
    const stalled = connect(server.port, '127.0.0.1');
    stalled.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`);
    stalled.pause();
    let closed = false;
    stalled.on('close', () => (closed = true));
    stalled.on('error', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const reason = 'x'.repeat(4_000);
    for (let index = 0; index < 2_000; index += 1) {
      state.ingestScore({ ...scoreRecord({ status: 'scored', score: 0.5 }, { scoreId: `s-${index}`, at: Date.now() }), reason }, 5_000);
      if (index % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    // Reading again: what was buffered drains, then the stream ends — the server dropped the page.
    // (Without the bound the stream would stay open, and this would time out.)
    stalled.resume();
    stalled.on('data', () => undefined);
    await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
    const response = await fetch(`${server.url}api/snapshot`);
    expect(response.status).toBe(200);
  });

  it('reads the results topic, warns when the decisions topic does not exist, and tells the page when the agreements topic does not', async () => {
    const topics = await useDashboardTopics();
    const producer = await useProducer();
    await publish(producer, topics.results, [scoreRecord({ status: 'scored', score: 1 }, { scoreId: 'only', at: Date.now() })]);
    const warnings: string[] = [];
    const missing = uniqueName('dashboard-missing-decisions');
    const agreements = uniqueName('dashboard-missing-agreements');
    const dashboard = await useDashboard({ results: topics.results, decisions: missing, agreements }, { onWarning: (message) => warnings.push(message) });
    await expect.poll(() => dashboard.state.counts().records).toBe(1);
    expect(warnings.join('\n')).toContain(`topic '${missing}' does not exist (yet); the dashboard does not read it`);
    // No agreements topic is the norm until the feedback join exists: no warning, the feedback view says it.
    expect(warnings.join('\n')).not.toContain(agreements);
    expect(dashboard.state.snapshot().agreements).toMatchObject({ topic: agreements, state: 'missing' });
  });

  it('refuses to start when none of its topics exist, saying what to do', async () => {
    const state = new DashboardState({ ...DEFAULT_LIMITS, windowMs: 3_600_000, bucketMs: 60_000 });
    await expect(
      startKafkaReader({ edge: testEdge('dashboard-missing'), resultsTopic: uniqueName('no-such-results'), decisionsTopic: uniqueName('no-such-decisions'), sinceMs: Date.now() - 60_000, state }),
    ).rejects.toThrow(/none of the topics exist .*start the service \(or the demo\) first/);
  });
});
