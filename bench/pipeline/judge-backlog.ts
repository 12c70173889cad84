// Child side of (d) and (d-backlog): the service with one LLM-judge scorer whose mock judge
// answers after a fixed delay, draining the big backlog topic for a bounded time. RSS is sampled
// every 250 ms from start-up (process.memoryUsage.rss(), this process only: the service runs
// in-process here and nothing else does). The rate is taken after a warm-up, when the judge
// cap is saturated and steady.
import { createSlowJudge } from './bench-scorers.ts';
import type { JudgeBacklogResult } from './child-protocol.ts';
import { sleep, waitFor } from './measurement.ts';
import { startBenchService } from './scorestream-run.ts';
import type { ServiceSetup } from './scorestream-run.ts';

export type JudgeBacklogOptions = Omit<ServiceSetup, 'scorers' | 'models' | 'runsInFlight' | 'judgeCallsPerModel'> & {
  judgeDelayMs: number;
  judgeCallsPerModel: number;
  runsInFlight: number;
  warmUpSeconds: number;
  /** Measured seconds after the warm-up. */
  seconds: number;
  rssIntervalMs: number;
  timeoutMs: number;
};

const megabytes = (bytes: number) => bytes / 2 ** 20;

export async function runJudgeBacklog(options: JudgeBacklogOptions): Promise<JudgeBacklogResult> {
  const baselineRss = process.memoryUsage.rss();
  let peakRss = baselineRss;
  let atPeak = process.memoryUsage();
  let rssSamples = 0;
  let maxActiveJudgeCalls = 0;
  const judge = createSlowJudge(options.judgeDelayMs);
  const service = await startBenchService({
    ...options,
    scorers: [judge.scorer],
    models: judge.models,
    runsInFlight: options.runsInFlight,
    judgeCallsPerModel: options.judgeCallsPerModel,
  });
  const sampler = setInterval(() => {
    rssSamples += 1;
    const rss = process.memoryUsage.rss();
    if (rss > peakRss) {
      peakRss = rss;
      atPeak = process.memoryUsage();
    }
    for (const limiter of service.models.limiters.values()) maxActiveJudgeCalls = Math.max(maxActiveJudgeCalls, limiter.activeCalls);
  }, options.rssIntervalMs);
  try {
    await waitFor(() => service.stats.consumed > 0, '(d) to consume its first event', options.timeoutMs);
    await sleep(options.warmUpSeconds * 1000);
    const startCount = service.stats.completed;
    const startedAt = performance.now();
    await sleep(options.seconds * 1000);
    const events = service.stats.completed - startCount;
    const seconds = (performance.now() - startedAt) / 1000;
    return {
      events,
      seconds,
      eventsPerSecond: events / seconds,
      completedTotal: service.stats.completed,
      lagAtEnd: service.stats.totalLag(),
      judgeCalls: judge.calls(),
      maxActiveJudgeCalls,
      peakRssMb: megabytes(peakRss),
      rssBeforeServiceMb: megabytes(baselineRss),
      rssAtEndMb: megabytes(process.memoryUsage.rss()),
      atPeakMb: { heapUsed: megabytes(atPeak.heapUsed), heapTotal: megabytes(atPeak.heapTotal), external: megabytes(atPeak.external), arrayBuffers: megabytes(atPeak.arrayBuffers) },
      rssSamples,
      failedRecords: service.stats.totals().failed,
    };
  } finally {
    clearInterval(sampler);
    // In-flight judge calls are abandoned rather than awaited: the measurement is over.
    await service.stop({ timeoutMs: 1_000 });
  }
}
