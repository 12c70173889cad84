// Child side of the latency runs: the service — with the three code scorers, or one judge scorer
// — on a topic the parent fills at a paced rate. Every record's event-to-result latency (the
// event's own `timestamp` to the record's acknowledgement by Kafka, as the service measures it for
// stats.latenciesMs) is kept, not only the last 4,096 the stats ring holds, for events stamped
// after `measure-from`; and beside it the record's latency stages (latency-stages.ts).
import type { RunningService } from '../../service/start-service.ts';
import type { LatencyCommand, LatencyResult } from './child-protocol.ts';
import { coresUsed, sampleCpu } from './cpu-usage.ts';
import type { CpuSample } from './cpu-usage.ts';
import { waitFor } from './measurement.ts';
import { createStageCollector, percentile } from './latency-stages.ts';
import type { AcknowledgedRecordFields } from '../../consumers/emitter/record-emitter.ts';

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
  const stages = createStageCollector();
  const originalCount = service.stats.countRecord.bind(service.stats);
  const original = service.stats.recordLatency.bind(service.stats);
  // The service counts each acknowledged record, then hands its latency to its stats, in one
  // synchronous step (score-records.ts, publishScore): listening there measures exactly what the
  // service reports, at no extra cost to it. The record's fields are read at the count, its
  // produce (scoredAt → acknowledged, on the same clock) then too.
  let counted: { fields: AcknowledgedRecordFields; produceMs: number } | undefined;
  service.stats.countRecord = (fields) => {
    originalCount(fields);
    const acknowledged = fields as AcknowledgedRecordFields;
    counted = { fields: acknowledged, produceMs: Date.now() - acknowledged.scoredAtMs };
  };
  service.stats.recordLatency = (ms: number) => {
    original(ms);
    if (Date.now() - ms >= measureFrom) {
      latencies.push(ms);
      if (counted !== undefined) stages.add(counted.fields.latency, counted.produceMs, ms);
    }
    counted = undefined;
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
        stages: stages.result(),
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
