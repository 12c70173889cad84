// Builds the project's own OpenTelemetry Collector (recipe/: an OTLP receiver, the batch
// processor, the contrib Kafka exporter) from the Go module proxy, once, into
// `${XDG_CACHE_HOME:-~/.cache}/scorestream/collector-<version>/`, like the Kafka jars. The build
// takes a few minutes of both cores on a fresh machine; later calls find the binary. Concurrent
// callers take turns (a directory lock), and the binary appears atomically (renamed into place).
// Needs Go (PATH, else /usr/local/go/bin/go); GOPROXY and the other Go variables come from the
// environment.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withDirectoryLock } from '../kafka/directory-lock.ts';
import { scorestreamCacheDirectory } from '../kafka/paths.ts';
import { lastLines, runCommand } from '../kafka/run-command.ts';
import { COLLECTOR_VERSION } from './versions.ts';

type Environment = Record<string, string | undefined>;

const RECIPE = join(dirname(fileURLToPath(import.meta.url)), 'recipe');
const RECIPE_FILES = ['go.mod', 'go.sum', 'main.go'];
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

export type EnsureCollectorOptions = {
  environment?: Environment;
  /** Told once when a build starts (it takes minutes). */
  onBuild?: (message: string) => void;
  /** Bound on the build (default 30 minutes). */
  timeoutMs?: number;
};

/** The path of the built Collector, building it first when the cache has none. */
export async function ensureCollectorBinary(options: EnsureCollectorOptions = {}): Promise<string> {
  const environment = options.environment ?? process.env;
  const binary = collectorBinaryPath(environment);
  if (existsSync(binary)) return binary;
  const directory = collectorCacheDirectory(environment);
  await mkdir(directory, { recursive: true });
  return withDirectoryLock(
    join(directory, '.build-lock'),
    async () => {
      if (existsSync(binary)) return binary; // built by whoever held the lock before us
      const go = await findGo(environment);
      options.onBuild?.(`building the OpenTelemetry Collector ${COLLECTOR_VERSION} with ${go} (once; a few minutes) into ${directory}`);
      const source = join(directory, 'recipe');
      await rm(source, { recursive: true, force: true });
      await mkdir(source, { recursive: true });
      for (const file of RECIPE_FILES) await copyFile(join(RECIPE, file), join(source, file));
      const partial = `${binary}.partial-${process.pid}`;
      const result = await runCommand(go, ['build', '-o', partial, '.'], {
        cwd: source,
        timeoutMs: options.timeoutMs ?? 30 * 60_000,
        env: { ...process.env, ...environment, GOFLAGS: [environment.GOFLAGS, '-mod=mod'].filter(Boolean).join(' ') },
      });
      if (result.code !== 0) {
        await rm(partial, { force: true });
        const why = result.timedOut ? 'timed out' : `exited with ${result.code}`;
        throw new CollectorBuildError(
          `building the OpenTelemetry Collector ${why}; check that the Go module proxy is reachable (GOPROXY) and Go is 1.26 or newer:\n${lastLines(result.stderr, 15)}`,
        );
      }
      await rename(partial, binary);
      return binary;
    },
    { timeoutMs: options.timeoutMs ?? 30 * 60_000 },
  );
}

async function findGo(environment: Environment): Promise<string> {
  for (const candidate of ['go', '/usr/local/go/bin/go']) {
    const result = await runCommand(candidate, ['version'], { env: { ...process.env, ...environment } });
    if (result.code === 0) return candidate;
  }
  throw new CollectorBuildError('Go is needed to build the OpenTelemetry Collector (1.26 or newer): install it (the golang package, or /usr/local/go) and try again');
}
