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
    counted: [] as unknown[],
    recordLatency(ms: number) {
      this.recorded.push(ms);
    },
    countRecord(fields: unknown) {
      this.counted.push(fields);
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

  it("pairs each record's latency stages, read when it is counted, with the latency handed over right after", async () => {
    const { stats, service } = fakeService();
    const collector = collectLatencies(service, 5_000);
    collector.handle({ command: 'measure-from', epochMs: Date.now() - 60_000 });
    // As publishScore does: counted, then its event-to-result latency; a record without one (a thread score) is not paired.
    const acknowledged = (latency: object, scoredAgoMs: number) => ({ scorerId: 's', status: 'scored', score: 1, latency, scoredAtMs: Date.now() - scoredAgoMs });
    stats.countRecord(acknowledged({ kafkaMs: 30, runSlotMs: 2, scoringMs: 1 }, 7));
    stats.recordLatency(40);
    stats.countRecord(acknowledged({ threadWaitMs: 1_000, scoringMs: 1 }, 2));
    stats.countRecord(acknowledged({ kafkaMs: 10, scoringMs: 1 }, 4));
    stats.recordLatency(15);
    collector.handle({ command: 'finish', produced: 2 });
    stats.completed = 2;
    const { latency } = await collector.finished;
    expect(stats.counted).toHaveLength(3);
    expect(latency.stages.records).toBe(2);
    expect(latency.stages.stages.map((figures) => [figures.stage, figures.records])).toEqual([['kafka', 2], ['runSlot', 1], ['scoring', 2], ['produce', 2]]);
    // Produce is read on the wall clock at the count: at least the time since scoredAt.
    expect(latency.stages.stagedMs).toBeGreaterThanOrEqual(30 + 2 + 1 + 7 + 10 + 1 + 4);
    expect(latency.stages.endToEndMs).toBe(55);
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
