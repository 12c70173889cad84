// The process's memory as metrics, read when a reader collects: the resident set, and the memory
// target's state (service/memory-target.ts) — its size and V8's heap growth in force. A growth
// below the shipped 200% means the service is collecting sooner because its resident set nears
// the target; at 25% with the resident set at the target, what it holds does not fit.
import type { Meter, ObservableResult } from '@opentelemetry/api';

/** What the instruments read of a memory target (MemoryTarget has this shape). */
export type MemoryTargetState = { readonly targetBytes: number; readonly growthPercent: number };

export function registerMemoryMetrics(meter: Meter, target: () => MemoryTargetState | undefined, readRss: () => number = () => process.memoryUsage.rss()): { unregister(): void } {
  const resident = meter.createObservableGauge('scorestream.memory.resident', { description: "The process's resident set", unit: 'By' });
  const targetGauge = meter.createObservableGauge('scorestream.memory.target', { description: 'The memory target (SCORESTREAM_MEMORY_TARGET_MB); absent without one', unit: 'By' });
  const growth = meter.createObservableGauge('scorestream.memory.heap_growth', { description: "V8's heap growth in force under the memory target: 200 as shipped, lower as the resident set nears the target; absent without one", unit: '%' });
  const observeResident = (result: ObservableResult) => result.observe(readRss());
  const observeTarget = (result: ObservableResult) => {
    const state = target();
    if (state !== undefined) result.observe(state.targetBytes);
  };
  const observeGrowth = (result: ObservableResult) => {
    const state = target();
    if (state !== undefined) result.observe(state.growthPercent);
  };
  resident.addCallback(observeResident);
  targetGauge.addCallback(observeTarget);
  growth.addCallback(observeGrowth);
  return {
    unregister: () => {
      resident.removeCallback(observeResident);
      targetGauge.removeCallback(observeTarget);
      growth.removeCallback(observeGrowth);
    },
  };
}
