// CPU time of this process and of the broker's JVM over a scenario: on a 2-core machine both
// share the same cores, so where the time goes explains the rates.
import { readFileSync } from 'node:fs';

export type CpuSample = { nodeMs: number; mainThreadMs: number; brokerMs: number | undefined; at: number };

const clockTicksPerSecond = 100; // USER_HZ on Linux

function processCpuMs(pid: number): number | undefined {
  try {
    // Fields after the parenthesised command name: utime is field 14, stime 15 (1-based).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
  } catch {
    return undefined;
  }
}

export function sampleCpu(brokerPid: number | undefined): CpuSample {
  const usage = process.cpuUsage();
  const mainThread = process.threadCpuUsage();
  return { nodeMs: (usage.user + usage.system) / 1000, mainThreadMs: (mainThread.user + mainThread.system) / 1000, brokerMs: brokerPid === undefined ? undefined : processCpuMs(brokerPid), at: performance.now() };
}

/**
 * Cores used on average by each side between two samples, e.g. { node: 1.4, mainThread: 0.98,
 * broker: 0.5 }: `node` counts every thread of this process (V8's GC helpers, libuv), `mainThread`
 * the JavaScript thread alone — near 1, the scenario is bound by that one thread.
 */
export function coresUsed(from: CpuSample, to: CpuSample): { node: number; mainThread: number; broker: number | undefined } {
  const wallMs = Math.max(1, to.at - from.at);
  return {
    node: (to.nodeMs - from.nodeMs) / wallMs,
    mainThread: (to.mainThreadMs - from.mainThreadMs) / wallMs,
    broker: from.brokerMs === undefined || to.brokerMs === undefined ? undefined : (to.brokerMs - from.brokerMs) / wallMs,
  };
}

/**
 * Waits until the broker's JVM used less than `maxCores` over a `windowMs` window, for at most
 * `timeoutMs`, and says how long that took, so that no scenario pays for the broker's work on the
 * one before (a scenario produces tens of thousands of records; once, a broker was still busy
 * 1.5 s after). Two full runs had measured (c), which followed a producing scenario, with 0.12–0.14
 * of a broker core where the same service after one without Kafka had 0.07. Without a known
 * broker process (KAFKA_BROKERS) there is nothing to wait for.
 */
export async function untilBrokerQuiet(brokerPid: number | undefined, options: { windowMs?: number; maxCores?: number; timeoutMs?: number } = {}): Promise<number> {
  if (brokerPid === undefined) return 0;
  const windowMs = options.windowMs ?? 250;
  const maxCores = options.maxCores ?? 0.05;
  const deadline = performance.now() + (options.timeoutMs ?? 10_000);
  const startedAt = performance.now();
  for (;;) {
    const before = sampleCpu(brokerPid);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const { broker } = coresUsed(before, sampleCpu(brokerPid));
    if (broker === undefined || broker < maxCores || performance.now() > deadline) return performance.now() - startedAt;
  }
}
