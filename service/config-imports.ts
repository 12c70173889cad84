// A config file lives in the user's own repository, not in Scorestream's, yet it imports
// `scorestream` (defineConfig, createScorer, ...) and usually `zod`. Node resolves those from the
// config's folder, where neither may be installed — and an installed copy of Scorestream under
// node_modules could not even load, since Node does not strip types there. So while a config is
// loaded, a resolve hook (module.registerHooks, in-thread) answers:
//   - `scorestream` and `scorestream/...` always with this installation's modules: the config's
//     scorers must be built by the very library the service runs, not by another copy;
//   - this installation's own dependencies and peers (zod, ai, @ai-sdk/..., ...) with the user's
//     copy when the config's folder has one, else with ours, so a config needs no npm install of
//     its own.
// Everything else resolves as Node would. Run from the sources (bin/scorestream, tests), our own
// entries resolve with the `scorestream-source` export condition (package.json), i.e. to the
// TypeScript files, so a fresh clone needs no build; run from the package, to dist/.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import type { ResolveFnOutput, ResolveHookContext } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Manifest = {
  name: string;
  exports?: Record<string, string | Record<string, string>>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};

/** Our package.json and its folder: the nearest one above this module (service/ in the sources, dist/service/ in the package). */
function readOwnManifest(): { manifest: Manifest; root: URL } {
  for (let folder = new URL('./', import.meta.url); ; folder = new URL('../', folder)) {
    const file = new URL('package.json', folder);
    if (existsSync(file)) return { manifest: JSON.parse(readFileSync(file, 'utf8')) as Manifest, root: folder };
    if (folder.pathname === '/') throw new Error(`no package.json above ${import.meta.url}`);
  }
}

const { manifest, root } = readOwnManifest();
/** The name configs import us by, and the packages we fall back to: both from our package.json. */
const ownName = manifest.name;
const dependencies = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
/** The export condition that maps our entries to their TypeScript sources (package.json "exports"). */
export const SOURCE_CONDITION = 'scorestream-source';
const runsFromSources = import.meta.url.endsWith('.ts');

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; undefined for relative, absolute and URL specifiers. */
export function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const requireHere = createRequire(import.meta.url);
/** Set while we resolve on the config's behalf: import.meta.resolve and require.resolve run the hooks too. */
let resolvingHere = false;

/**
 * `specifier` as if this module imported (or required) it: our own exports by self-reference, our
 * dependencies from our node_modules. Errors name the config's file, not this module.
 */
/**
 * The TypeScript source of one of our entries (`scorestream`, `scorestream/producer`, ...), by the
 * `scorestream-source` condition of package.json's exports. Read here rather than through Node's
 * resolver, whose CommonJS side does not take conditions from a hook.
 */
function sourceEntry(specifier: string): string {
  const subpath = `.${specifier.slice(ownName.length)}`;
  const target = manifest.exports?.[subpath];
  const file = typeof target === 'object' ? target[SOURCE_CONDITION] : undefined;
  if (file === undefined) {
    throw Object.assign(new Error(`Package subpath '${subpath}' is not defined by "exports" in ${fileURLToPath(new URL('package.json', root))}`), {
      code: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    });
  }
  return new URL(file, root).href;
}

function resolveFromHere(specifier: string, context: ResolveHookContext): ResolveFnOutput {
  // Read before resolving: the loader may reuse the context object for the nested resolution.
  const importedFrom = context.parentURL ?? 'the config';
  resolvingHere = true;
  try {
    if (runsFromSources && packageNameOf(specifier) === ownName) return { url: sourceEntry(specifier), shortCircuit: true };
    const url = context.conditions.includes('require') ? pathToFileURL(requireHere.resolve(specifier)).href : import.meta.resolve(specifier);
    return { url, shortCircuit: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw Object.assign(new Error(`cannot resolve '${specifier}' imported from ${importedFrom} with this Scorestream installation: ${reason}`), { code: (error as { code?: unknown }).code });
  } finally {
    resolvingHere = false;
  }
}

/** Package not found, by ESM (import) or CommonJS (require) resolution. */
function isNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

export function resolveConfigImport(
  specifier: string,
  context: ResolveHookContext,
  nextResolve: (specifier: string, context?: Partial<ResolveHookContext>) => ResolveFnOutput,
): ResolveFnOutput {
  if (resolvingHere) return nextResolve(specifier, context);
  const name = packageNameOf(specifier);
  if (name === ownName) return resolveFromHere(specifier, context);
  if (name === undefined || !dependencies.has(name)) return nextResolve(specifier, context);
  try {
    return nextResolve(specifier, context);
  } catch (error) {
    if (!isNotFound(error)) throw error;
    return resolveFromHere(specifier, context);
  }
}

let registered = false;

/** Idempotent: the hook stays for the process (configs import lazily, e.g. inside a scorer). */
export function registerConfigImports(): void {
  if (registered) return;
  registerHooks({ resolve: resolveConfigImport });
  registered = true;
}
