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
import { registerHooks } from 'node:module';
import type { ResolveFnOutput, ResolveHookContext } from 'node:module';

const OWN_NAME = 'scorestream';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; dependencies?: Record<string, string> };
const dependencies = new Set(Object.keys(manifest.dependencies ?? {}));

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`; undefined for relative, absolute and URL specifiers. */
export function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export function resolveConfigImport(
  specifier: string,
  context: ResolveHookContext,
  nextResolve: (specifier: string, context?: Partial<ResolveHookContext>) => ResolveFnOutput,
): ResolveFnOutput {
  const name = packageNameOf(specifier);
  // As if imported by this module: our own exports by self-reference, our dependencies from our node_modules.
  const fromHere = () => nextResolve(specifier, { ...context, parentURL: import.meta.url });
  if (name === OWN_NAME) return fromHere();
  if (name === undefined || !dependencies.has(name)) return nextResolve(specifier, context);
  try {
    return nextResolve(specifier, context);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    return fromHere();
  }
}

let registered = false;

/** Idempotent: the hook stays for the process (configs import lazily, e.g. inside a scorer). */
export function registerConfigImports(): void {
  if (registered) return;
  if (manifest.name !== OWN_NAME) throw new Error(`config imports: expected this installation's package.json to be '${OWN_NAME}', found '${manifest.name}'`);
  registerHooks({ resolve: resolveConfigImport });
  registered = true;
}
