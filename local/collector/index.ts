// The project's OpenTelemetry Collector: built from the Go module proxy with the recipe in recipe/,
// cached, and run with a generated config (docs/otlp.md).
export { COLLECTOR_VERSION } from './versions.ts';
export { CollectorBuildError, collectorBinaryPath, collectorCacheDirectory, ensureCollectorBinary } from './build-collector.ts';
export type { EnsureCollectorOptions } from './build-collector.ts';
export { collectorConfig, startCollector } from './collector-process.ts';
export type { CollectorOptions, RunningCollector } from './collector-process.ts';
