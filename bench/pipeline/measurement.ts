// What a throughput scenario reports, and how it is clocked: a counter of completed events
// (results acknowledged) is watched, and the rate is taken between the moment it passes a
// warm-up count and the moment it reaches the target. Group joins, topic creation and JIT
// warm-up — the same fixed costs for every scenario — stay out of the rate. CPU use of this
// process and of the broker over the same span says which side was the bottleneck.
import { coresUsed, sampleCpu } from './cpu-usage.ts';
export type Throughput = {
  /** Events counted in the measured span (after warm-up). */
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /**
   * Average cores busy in the measuring process (all its threads, and its JavaScript thread
   * alone) and in the broker (undefined when not known).
   */
  cores: { node: number; mainThread?: number; broker: number | undefined };
};

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves when `condition()` holds, checking every `intervalMs`; rejects after `timeoutMs`. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs: number, intervalMs = 5): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`benchmark: timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export type MeasureOptions = {
  /** Completed events so far (read often; must be cheap). */
  completed: () => number;
  warmUpEvents: number;
  targetEvents: number;
  /** Stop early after this many measured seconds (slow scenarios). */
  maxSeconds?: number;
  what: string;
  timeoutMs: number;
  /** The broker's process id (JVM mode), to report its CPU use too. */
  brokerPid?: number | undefined;
};

/** Watches `completed()` every 2 ms and returns the rate between warm-up and target. */
export async function measureRate(options: MeasureOptions): Promise<Throughput> {
  await waitFor(() => options.completed() >= options.warmUpEvents, `${options.what} to warm up (${options.warmUpEvents} events)`, options.timeoutMs, 2);
  const startedAt = performance.now();
  const startCpu = sampleCpu(options.brokerPid);
  const startCount = options.completed();
  const stopAt = options.maxSeconds === undefined ? Number.POSITIVE_INFINITY : startedAt + options.maxSeconds * 1000;
  await waitFor(() => options.completed() >= options.targetEvents || performance.now() >= stopAt, `${options.what} to complete ${options.targetEvents} events`, options.timeoutMs, 2);
  const finishedAt = performance.now();
  const events = options.completed() - startCount;
  const seconds = (finishedAt - startedAt) / 1000;
  return { events, seconds, eventsPerSecond: events / seconds, cores: coresUsed(startCpu, sampleCpu(options.brokerPid)) };
}
