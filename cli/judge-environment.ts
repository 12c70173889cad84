// Judge models of the command line: an OpenAI-compatible server from SCORESTREAM_JUDGE_BASE_URL
// (Ollama, vLLM, llama.cpp, or a hosted API; SCORESTREAM_JUDGE_API_KEY), and models on this
// machine by `local:…` id (local/model) — a catalog name such as `local:gemma3-270m`, or a .gguf
// path. SCORESTREAM_JUDGE_MODEL names the default model, of either kind.
//
// They become the process's default judge models (a config file can use them through
// getDefaultJudgeModels), and the config's resolver when the config brings none; `local:…` ids
// resolve even when it does. Nothing is downloaded or loaded until a scorer calls a local model.
import { setDefaultJudgeModels } from '../src/kit/judge/model-resolution.ts';
import { judgeModelsFromEnv } from '../src/kit/judge/openai-compatible.ts';
import type { JudgeModelResolver } from '../src/kit/judge/types.ts';
import type { ScorestreamConfigInput } from '../src/engine/config/config-types.ts';
import { createLocalJudgeModels, withLocalJudgeModels } from '../local/model/local-judge-models.ts';
import type { LocalJudgeModels } from '../local/model/local-judge-models.ts';

export type CliJudgeModels = {
  /** Server models (when configured) and local ones. */
  models: JudgeModelResolver;
  local: LocalJudgeModels;
  defaultModelId: string | undefined;
};

export function setUpJudgeModels(environment: Record<string, string | undefined>, onLine?: (line: string) => void): CliJudgeModels {
  const local = createLocalJudgeModels({ environment, ...(onLine === undefined ? {} : { onLine }) });
  const models = withLocalJudgeModels(judgeModelsFromEnv(environment)?.models, local);
  setDefaultJudgeModels(models);
  return { models, local, defaultModelId: environment.SCORESTREAM_JUDGE_MODEL?.trim() || undefined };
}

export function applyJudgeEnvironment(config: ScorestreamConfigInput, judge: CliJudgeModels): ScorestreamConfigInput {
  const models = config.judge?.models === undefined ? judge.models : withLocalJudgeModels(config.judge.models, judge.local);
  return { ...config, judge: { ...config.judge, models, ...(config.judge?.model === undefined && judge.defaultModelId !== undefined ? { model: judge.defaultModelId } : {}) } };
}
