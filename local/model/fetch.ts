// `node local/model/fetch.ts [name]`: fetches a catalog model (default gemma3-270m) and
// node-llama-cpp's CPU build into the user cache ahead of time (CI runs it before the tests, so
// the local-model tests do not also download). Prints the model's path on stdout; exits 1 with
// the reason when it cannot.
import { fetchModel } from './fetch-model.ts';
import { installLlamaRuntime } from './llama-runtime.ts';
import { defaultLocalModelName, findCatalogModel } from './model-catalog.ts';

const name = process.argv[2] ?? defaultLocalModelName;
try {
  const model = findCatalogModel(name);
  if (model === undefined) throw new Error(`unknown model '${name}'`);
  const started = Date.now();
  const file = await fetchModel(model, { onLine: (line) => console.error(`model: ${line}`) });
  await installLlamaRuntime(process.env, (line) => console.error(`model: ${line}`));
  console.error(`model: ${model.name} and node-llama-cpp ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  console.log(file);
} catch (error) {
  console.error(`model: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
