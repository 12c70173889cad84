// The health endpoints (docs/deployment.md). Over real HTTP on a port the system chose: status
// codes and JSON bodies of /livez, /startupz and /readyz as the state changes, 404 and 405 for
// anything else, a port already in use refused. Then the service under a real broker of the test's
// own: not ready (503, starting) while it starts, ready only once its group member was assigned
// partitions — of two members on a one-partition topic, the one without it stays not ready until
// the owner leaves — and not ready while the broker is down, ready again once it is back.
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHealthState } from '../../../service/health-state.ts';
import { startHealthServer } from '../../../service/health-server.ts';
import { resolveConfig } from '../../../src/engine/config/resolve-config.ts';
import { startService } from '../../../service/start-service.ts';
import type { RunningService } from '../../../service/start-service.ts';
import { answerLengthScorer } from '../../fixtures/scorers.ts';
import { createTopicsWithLeaders } from '../../helpers/kafka.ts';
import { useRestartableBroker } from '../../helpers/restartable-broker.ts';
import { silentLogger, testServiceFetchWait } from '../../helpers/service.ts';

const logger = pino({ level: 'silent' });

async function serve(probe: () => Promise<void> = async () => undefined) {
  const state = createHealthState({ runsTopic: 'runs', probeBroker: probe });
  const server = await startHealthServer({ port: 0, host: '127.0.0.1', state, logger });
  onTestFinished(async () => {
    await server.close();
    state.close();
  });
  const get = async (path: string, method = 'GET') => {
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { method });
    return { status: response.status, body: method === 'HEAD' ? undefined : ((await response.json()) as Record<string, unknown>) };
  };
  return { state, get };
}

describe('startHealthServer', () => {
  it('answers liveness at once, startup and readiness once the service started and owns partitions', async () => {
    const { state, get } = await serve();
    expect(await get('/livez')).toMatchObject({ status: 200, body: { status: 'ok', eventLoopDelayMs: expect.any(Number) } });
    expect(await get('/startupz')).toEqual({ status: 503, body: { status: 'starting' } });
    expect(await get('/readyz')).toEqual({ status: 503, body: { status: 'not_ready', reasons: ['starting', 'no_partitions'], partitions: 0 } });
    state.started();
    expect(await get('/startupz')).toEqual({ status: 200, body: { status: 'started' } });
    expect(await get('/readyz')).toMatchObject({ status: 503, body: { reasons: ['no_partitions'] } });
    state.assigned({ runs: [0, 1] });
    expect(await get('/readyz')).toEqual({ status: 200, body: { status: 'ready', partitions: 2 } });
    expect((await get('/readyz?verbose=1', 'HEAD')).status).toBe(200);
  });

  it('says the broker is unreachable, with its error', async () => {
    const { state, get } = await serve(() => Promise.reject(new Error('connect ECONNREFUSED')));
    state.started();
    state.assigned({ runs: [0] });
    expect(await get('/readyz')).toEqual({ status: 503, body: { status: 'not_ready', reasons: ['broker_unreachable'], partitions: 1, brokerError: 'connect ECONNREFUSED' } });
  });

  it('answers 404 with the endpoints for other paths and 405 for other methods', async () => {
    const { get } = await serve();
    expect(await get('/healthz')).toEqual({ status: 404, body: { error: 'not found', endpoints: ['/livez', '/readyz', '/startupz'] } });
    expect((await get('/livez', 'POST')).status).toBe(405);
  });

  it('rejects when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const state = createHealthState({ runsTopic: 'runs', probeBroker: async () => undefined });
    onTestFinished(() => state.close());
    await expect(startHealthServer({ port: (blocker.address() as AddressInfo).port, host: '127.0.0.1', state, logger })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});


/** A port that was free a moment ago, so a test can probe it before startService resolves. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

type Probe = { status: number; body: Record<string, unknown> };
async function probe(port: number, path: string): Promise<Probe | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(5_000) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } catch {
    return undefined; // not listening (yet)
  }
}

describe.skipIf(process.env.KAFKA_BROKERS !== undefined)('health endpoints of the service, under a real broker', () => {
  it('is ready only once assigned partitions, and not ready while the broker is down', async () => {
    const broker = await useRestartableBroker('health');
    const runs = `health-runs-${randomBytes(3).toString('hex')}`;
    await createTopicsWithLeaders(broker.kafka, [{ topic: runs, numPartitions: 1 }]);
    const groupId = `health-group-${randomBytes(3).toString('hex')}`;
    const logger = silentLogger();
    const start = async (port: number): Promise<RunningService> => {
      const config = resolveConfig({
        kafka: { brokers: broker.brokers, clientId: 'health-test' },
        groupId,
        topics: { ...broker.topics, runs },
        retries: { enabled: false },
        health: { port, host: '127.0.0.1' },
        scorers: [{ scorer: answerLengthScorer }],
      });
      const service = await startService({ config, logger, ...testServiceFetchWait, consumer: { commitIntervalMs: 200, sessionTimeoutMs: 10_000 } });
      onTestFinished(async () => {
        await service.stop({ timeoutMs: 5_000 });
      });
      return service;
    };

    // The first instance: probed from before startService resolves; readiness never precedes startup.
    const firstPort = await freePort();
    const seen: Probe[] = [];
    let starting = true;
    const watching = (async () => {
      while (starting) {
        const answer = await probe(firstPort, '/readyz');
        if (answer !== undefined) seen.push(answer);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const first = await start(firstPort);
    starting = false;
    await watching;
    expect(first.health?.port).toBe(firstPort);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toMatchObject({ status: 503, body: { status: 'not_ready', reasons: expect.arrayContaining(['starting']) } });
    await expect.poll(async () => (await probe(firstPort, '/readyz'))?.status, { timeout: 30_000, interval: 200 }).toBe(200);
    expect(await probe(firstPort, '/readyz')).toEqual({ status: 200, body: { status: 'ready', partitions: 1 } });
    expect(await probe(firstPort, '/startupz')).toEqual({ status: 200, body: { status: 'started' } });

    // A second member of the group on a one-partition topic: one of the two owns the partition and
    // is ready; the other is started and alive, but not ready, for want of partitions.
    const secondPort = await freePort();
    const second = await start(secondPort);
    expect((await probe(secondPort, '/startupz'))?.status).toBe(200);
    expect((await probe(secondPort, '/livez'))?.status).toBe(200);
    const members = [
      { service: first, port: firstPort },
      { service: second, port: secondPort },
    ];
    const readiness = async () => Promise.all(members.map(async ({ port }) => (await probe(port, '/readyz'))?.body));
    await expect
      .poll(async () => (await readiness()).map((body) => body?.reasons ?? body?.status).sort((a, b) => String(a).localeCompare(String(b))), { timeout: 30_000, interval: 200 })
      .toEqual([['no_partitions'], 'ready']);
    // The owner leaves: the partition moves, and the idle member becomes ready.
    const bodies = await readiness();
    const owner = members[bodies.findIndex((body) => body?.status === 'ready')]!;
    const idle = members.find((member) => member !== owner)!;
    await owner.service.stop({ timeoutMs: 5_000 });
    expect(await probe(owner.port, '/readyz')).toBeUndefined(); // closed with the service
    await expect.poll(async () => (await probe(idle.port, '/readyz'))?.status, { timeout: 60_000, interval: 200 }).toBe(200);

    // The broker goes away: not ready (broker_unreachable) while it is down, ready once it is back.
    const answers: Probe[] = [];
    let restarting = true;
    const polling = (async () => {
      while (restarting) {
        const answer = await probe(idle.port, '/readyz');
        if (answer !== undefined) answers.push(answer);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    await broker.restart(6_000);
    await expect.poll(async () => (await probe(idle.port, '/readyz'))?.status, { timeout: 90_000, interval: 500 }).toBe(200);
    restarting = false;
    await polling;
    const down = answers.filter((answer) => answer.status === 503);
    expect(down.length).toBeGreaterThan(0);
    expect(down.some((answer) => (answer.body.reasons as string[]).includes('broker_unreachable'))).toBe(true);
    expect(down.find((answer) => answer.body.brokerError !== undefined)?.body.brokerError).toEqual(expect.any(String));
    // Liveness never depended on the broker.
    expect((await probe(idle.port, '/livez'))?.status).toBe(200);
    await idle.service.stop({ timeoutMs: 5_000 });
  });
});
