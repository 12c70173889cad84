// Loads a deployment config file (.ts, .mts, .mjs or .js) without a build step: Node strips
// TypeScript types itself. The file default-exports defineConfig({...}) (or exports `config`), and
// may live anywhere: its imports of `scorestream` (and of our dependencies, such as zod, when its
// folder has none) resolve to this installation (config-imports.ts).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../src/engine/config/config-error.ts';
import { registerConfigImports } from './config-imports.ts';
import type { ScorestreamConfigInput } from '../src/engine/config/config-types.ts';

const SUPPORTED = ['.ts', '.mts', '.mjs', '.js'];

export async function loadConfigFile(file: string): Promise<ScorestreamConfigInput> {
  const path = resolve(file);
  if (!SUPPORTED.some((extension) => path.endsWith(extension))) {
    throw new ConfigError([{ path: '', message: `config files must end in ${SUPPORTED.join(', ')}; got '${file}'` }], file);
  }
  if (!existsSync(path)) throw new ConfigError([{ path: '', message: `no such file '${path}'` }], file);
  let module: { default?: unknown; config?: unknown };
  registerConfigImports();
  try {
    module = (await import(pathToFileURL(path).href)) as typeof module;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError([{ path: '', message: `the file could not be loaded: ${reason}` }], file);
  }
  const config = module.default ?? module.config;
  if (typeof config !== 'object' || config === null) {
    throw new ConfigError([{ path: '', message: 'the file must `export default defineConfig({...})` (or export `config`)' }], file);
  }
  return config as ScorestreamConfigInput;
}
