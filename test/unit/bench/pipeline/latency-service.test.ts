import { describe, expect, it } from 'vitest';
import { collectLatencies } from '../../../../bench/pipeline/latency-service.ts';
import type { RunningService } from '../../../../service/start-service.ts';

/** The part of the service's stats the collector reads: lag, runs in flight, completed events, latencies. */
function fakeService() {
  const stats = {
    lag: 0,
    inFlight: 0,
    completed: 0,
    recorded: [] as number[],
    totalLag() {
      return this.lag;
    },
    recordLatency(ms: number) {
      this.recorded.push(ms);
    },
  };
  return { stats, service: { stats } as unknown as RunningService };
}

describe('collectLatencies', () => {
  it('keeps the latencies of events stamped after the window opened, and the backlog at both ends', async () => {
    const { stats, service } = fakeService();
    const collector = collectLatencies(service, 5_000);
    stats.recordLatency(5); // before the window: the service's stats see it, the measurement does not
    stats.lag = 900;
    stats.inFlight = 256;
    collector.handle({ command: 'measure-from', epochMs: Date.now() - 1_000 });
    for (const ms of [40, 10, 30, 20]) stats.recordLatency(ms);
    stats.lag = 3_000;
    stats.inFlight = 100;
    collector.handle({ command: 'finish', produced: 10 });
    stats.completed = 10;
    const { latency, completed } = await collector.finished;
    expect(completed).toBe(10);
    expect(stats.recorded).toEqual([5, 40, 10, 30, 20]);
    expect(latency).toMatchObject({ samples: 4, p50Ms: 20, p99Ms: 40, maxMs: 40, behindAtStart: 1_156, behindAtEnd: 3_100 });
    expect(latency.cores.mainThread).toBeGreaterThanOrEqual(0);
  });

  it('waits for every produced event to complete before it answers', async () => {
    const { stats, service } = fakeService();
    const collector = collectLatencies(service, 5_000);
    collector.handle({ command: 'measure-from', epochMs: Date.now() });
    collector.handle({ command: 'finish', produced: 3 });
    let answered = false;
    void collector.finished.then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answered).toBe(false);
    stats.completed = 3;
    await collector.finished;
    expect(answered).toBe(true);
  });
});
