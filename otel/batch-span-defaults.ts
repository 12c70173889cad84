// Scorestream's defaults for the batch span processor's OTEL_BSP_* variables, filled in before the
// SDK reads them (setup.ts) where the environment leaves them unset.

/**
 * Batch span processor defaults sized for a stream: the SDK's own (queue 2,048, 5 s delay) drop
 * most spans at a few thousand events/s with a dozen spans each (docs/benchmarks.md). The queue
 * holds 1.5 s of spans at full rate with three spans per event, and bounds what a slow receiver
 * can make the service hold: ~2.7 kB a span, so ~45 MB full (65,536 held 175 MB and took the
 * service past its 400 MB bound when spans came faster than they were exported). Only fills in
 * what the environment leaves unset; sdk-node reads them.
 */
export const BATCH_SPAN_DEFAULTS = {
  OTEL_BSP_MAX_QUEUE_SIZE: '16384',
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
  OTEL_BSP_SCHEDULE_DELAY: '1000',
} as const;

export function applyBatchSpanDefaults(environment: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(BATCH_SPAN_DEFAULTS)) {
    if (environment[name] === undefined || environment[name] === '') environment[name] = value;
  }
}
