// Builds Prometheus' promtool and Alertmanager's amtool from the Go module proxy (each pinned by
// its recipe module: recipe/ and alertmanager-recipe/), once, into
// `${XDG_CACHE_HOME:-~/.cache}/scorestream/promtool-<version>/` and `alertmanager-<version>/`,
// like the Collector (local/go/build-go-binary.ts). The rules and the Alertmanager example in
// dashboard/prometheus/ are checked and tested with them (docs/alerts.md).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureGoBinary } from '../go/build-go-binary.ts';
import type { GoBuildOptions } from '../go/build-go-binary.ts';
import { scorestreamCacheDirectory } from '../kafka/paths.ts';
import { ALERTMANAGER_VERSION, PROMETHEUS_VERSION } from './versions.ts';

type Environment = Record<string, string | undefined>;

const here = dirname(fileURLToPath(import.meta.url));
const RECIPE_FILES = ['go.mod', 'go.sum', 'tools.go'];

export class PromtoolBuildError extends Error {
  override readonly name = 'PromtoolBuildError';
}

export type PrometheusTool = 'promtool' | 'amtool';

// promtool without Prometheus' service-discovery plugins (the `remove_all_sd` build tag): checking
// and testing rules needs none of them, and without the cloud SDKs they pull in the binary is 77 MB
// instead of 123 MB and a cold build takes about 240 CPU-seconds.
const tools: Record<PrometheusTool, { what: string; folder: string; recipe: string; target: string; tags?: string[] }> = {
  promtool: { what: `promtool (Prometheus ${PROMETHEUS_VERSION})`, folder: `promtool-${PROMETHEUS_VERSION}-nosd`, recipe: 'recipe', target: 'github.com/prometheus/prometheus/cmd/promtool', tags: ['remove_all_sd'] },
  amtool: { what: `amtool (Alertmanager ${ALERTMANAGER_VERSION})`, folder: `alertmanager-${ALERTMANAGER_VERSION}`, recipe: 'alertmanager-recipe', target: 'github.com/prometheus/alertmanager/cmd/amtool' },
};

/** Where a tool's binary is (or will be) in the cache. */
export function prometheusToolPath(tool: PrometheusTool, environment: Environment = process.env): string {
  return join(scorestreamCacheDirectory(environment), tools[tool].folder, tool);
}

/** The path of the built tool, building it first when the cache has none. */
export async function ensurePrometheusTool(tool: PrometheusTool, options: GoBuildOptions = {}): Promise<string> {
  const spec = tools[tool];
  return ensureGoBinary(
    {
      what: spec.what,
      directory: dirname(prometheusToolPath(tool, options.environment ?? process.env)),
      binaryName: tool,
      recipeDirectory: join(here, spec.recipe),
      recipeFiles: RECIPE_FILES,
      buildTarget: spec.target,
      ...(spec.tags === undefined ? {} : { tags: spec.tags }),
      error: (message) => new PromtoolBuildError(message),
    },
    options,
  );
}
