// The real local judge for the local-model tests: the catalog's small model and node-llama-cpp,
// fetched into the cache when missing (CI fetches them before the tests: node local/model/fetch.ts).
import { fetchModel } from '../../local/model/fetch-model.ts';
import { installLlamaRuntime } from '../../local/model/llama-runtime.ts';
import { defaultLocalModelName, findCatalogModel } from '../../local/model/model-catalog.ts';

export const localJudgeId = `local:${defaultLocalModelName}`;

export async function ensureLocalModel(): Promise<string> {
  const file = await fetchModel(findCatalogModel(defaultLocalModelName)!, { onLine: (line) => console.error(line) });
  await installLlamaRuntime(process.env, (line) => console.error(line));
  return file;
}
