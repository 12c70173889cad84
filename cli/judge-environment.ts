// Judge models from the environment: SCORESTREAM_JUDGE_BASE_URL (an OpenAI-compatible server:
// Ollama, vLLM, llama.cpp, or a hosted API), SCORESTREAM_JUDGE_API_KEY and SCORESTREAM_JUDGE_MODEL.
// They give the config a provider registry when the config file did not bring its own.
import { judgeModelsFromEnv } from '../src/judge/openai-compatible.ts';
import type { ScorestreamConfigInput } from '../src/config/config-types.ts';

export function applyJudgeEnvironment(config: ScorestreamConfigInput, environment: Record<string, string | undefined>): ScorestreamConfigInput {
  if (config.judge?.models !== undefined) return config;
  const fromEnvironment = judgeModelsFromEnv(environment);
  if (fromEnvironment === undefined) return config;
  return { ...config, judge: { ...config.judge, models: fromEnvironment.models, ...(config.judge?.model === undefined ? { model: fromEnvironment.defaultModelId } : {}) } };
}
