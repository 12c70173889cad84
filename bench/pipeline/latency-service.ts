// Child side of the latency run: the service with the three code scorers on a topic the parent
// fills at a paced rate. Every record's event-to-result latency (the event's own `timestamp` to
// the record's acknowledgement by Kafka, as the service measures it for stats.latenciesMs) is
// kept, not only the last 4,096 the stats ring holds, for events stamped after `measure-from`.
import type { RunningService } from '../../service/start-service.ts';
import type { LatencyCommand, LatencyResult } from './child-protocol.ts';
import { coresUsed, sampleCpu } from './cpu-usage.ts';
import type { CpuSample } from './cpu-usage.ts';
import { waitFor } from './measurement.ts';

export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!;
}

export type LatencyCollector = {
  handle(command: LatencyCommand): void;
  /** Resolves with the percentiles once every produced event completed. */
  finished: Promise<{ latency: LatencyResult; completed: number }>;
};

export function collectLatencies(service: RunningService, timeoutMs: number, brokerPid?: number): LatencyCollector {
  const latencies: number[] = [];
  let measureFrom = Number.POSITIVE_INFINITY;
  let maxBehind = 0;
  let behindAtStart = 0;
  let behindAtEnd = 0;
  let windowCpu: CpuSample | undefined;
  let windowCores: LatencyResult['cores'] = { mainThread: Number.NaN, broker: undefined };
  const behind = () => service.stats.totalLag() + service.stats.inFlight;
  // Whether the service kept up: its consumer lag (from the latest fetch) while measuring.
  const lagSampler = setInterval(() => {
    if (Date.now() >= measureFrom) maxBehind = Math.max(maxBehind, behind());
  }, 100);
  const original = service.stats.recordLatency.bind(service.stats);
  // The service hands each acknowledged record's latency to its stats; listening there measures
  // exactly what the service reports, at no extra cost to it.
  service.stats.recordLatency = (ms: number) => {
    original(ms);
    if (Date.now() - ms >= measureFrom) latencies.push(ms);
  };
  let finish!: (produced: number) => void;
  const produced = new Promise<number>((resolve) => (finish = resolve));
  const finished = produced.then(async (count) => {
    await waitFor(() => service.stats.completed >= count, `the latency run to complete ${count} events`, timeoutMs, 10);
    clearInterval(lagSampler);
    const sorted = Float64Array.from(latencies).sort();
    return {
      completed: service.stats.completed,
      latency: {
        samples: sorted.length,
        p50Ms: percentile(sorted, 0.5),
        p99Ms: percentile(sorted, 0.99),
        maxMs: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!,
        maxBehind,
        behindAtStart,
        behindAtEnd,
        cores: windowCores,
      },
    };
  });
  return {
    finished,
    handle(command) {
      if (command.command === 'measure-from') {
        measureFrom = command.epochMs;
        behindAtStart = behind();
        windowCpu = sampleCpu(brokerPid);
      } else {
        behindAtEnd = behind();
        if (windowCpu !== undefined) {
          const { mainThread, broker } = coresUsed(windowCpu, sampleCpu(brokerPid));
          windowCores = { mainThread, broker };
        }
        finish(command.produced);
      }
    },
  };
}
