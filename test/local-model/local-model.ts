// The real local judge for the local-model tests: the catalog's small model and node-llama-cpp,
// fetched into the cache when missing (CI fetches them before the tests: node local/model/fetch.ts).
import { fetchModel } from '../../local/model/fetch-model.ts';
import { installLlamaRuntime } from '../../local/model/llama-runtime.ts';
import { defaultLocalModelName, findCatalogModel } from '../../local/model/model-catalog.ts';

export const localJudgeId = `local:${defaultLocalModelName}`;

/**
 * Short answers, so the tests fit CI's time on 2 cores: what they check (parseable, schema-valid,
 * recorded, nested, cancelled) does not depend on length, and a 270M model fills whatever room it
 * is given. The defaults (240 characters, 10 items, 400 free-text tokens) are for real use.
 */
export const testAnswerBounds = { bounds: { maxStringLength: 60, maxArrayItems: 3 }, defaultMaxTextTokens: 48 };

export async function ensureLocalModel(): Promise<string> {
  const file = await fetchModel(findCatalogModel(defaultLocalModelName)!, { onLine: (line) => console.error(line) });
  await installLlamaRuntime(process.env, (line) => console.error(line));
  return file;
}
