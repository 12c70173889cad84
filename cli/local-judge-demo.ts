// `scorestream demo --local-judge`: fetches the catalog's small model and node-llama-cpp into the
// cache (once, with a progress bar), loads the model before the live view starts, and turns the
// example config's judges on for it — sampled down so that one CPU model serving one call at a
// time keeps up with the demo's traffic.
import { availableParallelism } from 'node:os';
import { fetchModel } from '../local/model/fetch-model.ts';
import { installLlamaRuntime } from '../local/model/llama-runtime.ts';
import { defaultLocalModelName, findCatalogModel } from '../local/model/model-catalog.ts';
import { createProgressBar } from '../local/model/progress-bar.ts';
import type { LocalJudgeModels } from '../local/model/local-judge-models.ts';
import type { LlamaLanguageModel } from '../local/model/llama-language-model.ts';

/**
 * The example config's judge sampling (10% and 5% of runs) times this. At the demo's 25 runs/s,
 * about one judged run every 5 s: each run costs one or two 2–3 s calls on 2 cores.
 */
const localJudgeSampleRate = '0.02';

export type LocalJudgeDemo = {
  environment: Record<string, string>;
  notice: string[];
  /** Loads the model now, so the first sampled run does not wait for it. */
  load(models: LocalJudgeModels): Promise<void>;
};

export async function prepareLocalJudge(environment: NodeJS.ProcessEnv): Promise<LocalJudgeDemo> {
  const model = findCatalogModel(defaultLocalModelName)!;
  console.error(`[local judge] ${model.name}: ${model.description}. Licence: ${model.licence}.`);
  await fetchModel(model, { environment, progress: createProgressBar() });
  await installLlamaRuntime(environment, (line) => console.error(`[local judge] ${line}`));
  const id = `local:${model.name}`;
  return {
    async load(models) {
      const started = Date.now();
      console.error(`[local judge] loading ${model.name} on ${availableParallelism()} CPU threads`);
      await (models.languageModel(id) as LlamaLanguageModel).load();
      console.error(`[local judge] loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
    environment: { SCORESTREAM_JUDGE_MODEL: id, SCORESTREAM_JUDGE_SAMPLE_RATE: environment.SCORESTREAM_JUDGE_SAMPLE_RATE ?? localJudgeSampleRate },
    notice: [
      `judges: local ${model.name} on ${availableParallelism()} CPU threads, one call at a time — it shows the pipeline (evidence, tokens, spans, latency), not judging quality`,
    ],
  };
}
