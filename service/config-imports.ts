// A config file lives in the user's own repository, not in Scorestream's, yet it imports
// `scorestream` (defineConfig, createScorer, ...) and usually `zod`. Node resolves those from the
// config's folder, where neither may be installed — and an installed copy of Scorestream under
// node_modules could not even load, since Node does not strip types there. So while a config is
// loaded, a resolve hook (module.registerHooks, in-thread) answers:
//   - `scorestream` and `scorestream/...` always with this installation's modules: the config's
//     scorers must be built by the very library the service runs, not by another copy;
//   - this installation's own dependencies (zod, ai, @ai-sdk/..., ...) with the user's copy when
//     the config's folder has one, else with ours, so a config needs no npm install of its own.
// Everything else resolves as Node would.
import { readFileSync } from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import type { ResolveFnOutput, ResolveHookContext } from 'node:module';
import { pathToFileURL } from 'node:url';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; dependencies?: Record<string, string> };
/** The name configs import us by, and the packages we fall back to: both from our package.json. */
const ownName = manifest.name;
const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));

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
function resolveFromHere(specifier: string, context: ResolveHookContext): ResolveFnOutput {
  resolvingHere = true;
  try {
    const url = context.conditions.includes('require') ? pathToFileURL(requireHere.resolve(specifier)).href : import.meta.resolve(specifier);
    return { url, shortCircuit: true };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw Object.assign(new Error(`cannot resolve '${specifier}' imported from ${context.parentURL ?? 'the config'} with this Scorestream installation: ${reason}`), { code: (error as { code?: unknown }).code });
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
