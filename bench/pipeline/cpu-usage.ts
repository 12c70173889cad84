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
