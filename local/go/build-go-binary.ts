// Builds a Go program from a recipe module (go.mod and go.sum pinning every module, checked in
// beside its caller) with the Go module proxy, once, into a folder of the cache, like the Kafka
// jars: the project's OpenTelemetry Collector (local/collector/) and promtool (local/promtool/).
// Concurrent callers take turns (a directory lock), and the binary appears atomically (renamed
// into place), so a later call or another process finds it whole or not at all. Needs Go (PATH,
// else /usr/local/go/bin/go); GOPROXY and the other Go variables come from the environment.
import { existsSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { withDirectoryLock } from '../kafka/directory-lock.ts';
import { lastLines, runCommand } from '../kafka/run-command.ts';

type Environment = Record<string, string | undefined>;

export type GoBinaryRecipe = {
  /** What is built, for messages: 'the OpenTelemetry Collector 0.165.0'. */
  what: string;
  /** The cache folder of this version; the binary is `directory/binaryName`. */
  directory: string;
  binaryName: string;
  /** The folder holding the recipe module, and its files copied for the build. */
  recipeDirectory: string;
  recipeFiles: readonly string[];
  /** The package to build: '.' (the recipe's main), or an import path required by the recipe. */
  buildTarget: string;
  /** Build tags, e.g. Prometheus' `remove_all_sd`. */
  tags?: readonly string[];
  /** Makes the error thrown when Go is missing or the build fails. */
  error: (message: string) => Error;
};

export type GoBuildOptions = {
  environment?: Environment;
  /** Told once when a build starts (it takes minutes). */
  onBuild?: (message: string) => void;
  /** Bound on the build (default 30 minutes). */
  timeoutMs?: number;
};

/** The path of the built binary, building it first when the cache has none. */
export async function ensureGoBinary(recipe: GoBinaryRecipe, options: GoBuildOptions = {}): Promise<string> {
  const environment = options.environment ?? process.env;
  const binary = join(recipe.directory, recipe.binaryName);
  if (existsSync(binary)) return binary;
  await mkdir(recipe.directory, { recursive: true });
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  return withDirectoryLock(
    join(recipe.directory, '.build-lock'),
    async () => {
      if (existsSync(binary)) return binary; // built by whoever held the lock before us
      const go = await findGo(environment, recipe);
      options.onBuild?.(`building ${recipe.what} with ${go} (once; a few minutes) into ${recipe.directory}`);
      const source = join(recipe.directory, 'recipe');
      await rm(source, { recursive: true, force: true });
      await mkdir(source, { recursive: true });
      for (const file of recipe.recipeFiles) await copyFile(join(recipe.recipeDirectory, file), join(source, file));
      const partial = `${binary}.partial-${process.pid}`;
      const tags = recipe.tags === undefined || recipe.tags.length === 0 ? [] : ['-tags', recipe.tags.join(',')];
      const result = await runCommand(go, ['build', ...tags, '-o', partial, recipe.buildTarget], {
        cwd: source,
        timeoutMs,
        env: { ...process.env, ...environment, GOFLAGS: [environment.GOFLAGS, '-mod=mod'].filter(Boolean).join(' ') },
      });
      if (result.code !== 0) {
        await rm(partial, { force: true });
        const why = result.timedOut ? 'timed out' : `exited with ${result.code}`;
        throw recipe.error(`building ${recipe.what} ${why}; check that the Go module proxy is reachable (GOPROXY) and Go is 1.26 or newer:\n${lastLines(result.stderr, 15)}`);
      }
      await rename(partial, binary);
      return binary;
    },
    { timeoutMs },
  );
}

async function findGo(environment: Environment, recipe: GoBinaryRecipe): Promise<string> {
  for (const candidate of ['go', '/usr/local/go/bin/go']) {
    const result = await runCommand(candidate, ['version'], { env: { ...process.env, ...environment } });
    if (result.code === 0) return candidate;
  }
  throw recipe.error(`Go is needed to build ${recipe.what} (1.26 or newer): install it (the golang package, or /usr/local/go) and try again`);
}
