// Builds the project's own OpenTelemetry Collector (recipe/: an OTLP receiver, the batch
// processor, the contrib Kafka exporter) from the Go module proxy, once, into
// `${XDG_CACHE_HOME:-~/.cache}/scorestream/collector-<version>/` (local/go/build-go-binary.ts).
// The build takes a few minutes of both cores on a fresh machine; later calls find the binary.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureGoBinary } from '../go/build-go-binary.ts';
import type { GoBuildOptions } from '../go/build-go-binary.ts';
import { scorestreamCacheDirectory } from '../kafka/paths.ts';
import { COLLECTOR_VERSION } from './versions.ts';

type Environment = Record<string, string | undefined>;

const RECIPE = join(dirname(fileURLToPath(import.meta.url)), 'recipe');
const BINARY = 'otelcol-scorestream';

export class CollectorBuildError extends Error {
  override readonly name = 'CollectorBuildError';
}

/** `${XDG_CACHE_HOME:-~/.cache}/scorestream/collector-<version>`. */
export function collectorCacheDirectory(environment: Environment = process.env): string {
  return join(scorestreamCacheDirectory(environment), `collector-${COLLECTOR_VERSION}`);
}

export function collectorBinaryPath(environment: Environment = process.env): string {
  return join(collectorCacheDirectory(environment), BINARY);
}

export type EnsureCollectorOptions = GoBuildOptions;

/** The path of the built Collector, building it first when the cache has none. */
export async function ensureCollectorBinary(options: EnsureCollectorOptions = {}): Promise<string> {
  return ensureGoBinary(
    {
      what: `the OpenTelemetry Collector ${COLLECTOR_VERSION}`,
      directory: collectorCacheDirectory(options.environment ?? process.env),
      binaryName: BINARY,
      recipeDirectory: RECIPE,
      recipeFiles: ['go.mod', 'go.sum', 'main.go'],
      buildTarget: '.',
      error: (message) => new CollectorBuildError(message),
    },
    options,
  );
}
