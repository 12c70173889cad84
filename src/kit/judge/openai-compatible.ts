// Judges on any OpenAI-compatible server (Ollama, vLLM, llama.cpp server, hosted APIs) by base URL.
//
// Environment (read by judgeModelsFromEnv, never by the library on its own):
//   SCORESTREAM_JUDGE_BASE_URL  the server's OpenAI-compatible base URL, e.g. http://localhost:11434/v1 (Ollama)
//   SCORESTREAM_JUDGE_API_KEY   bearer token, if the server wants one
//   SCORESTREAM_JUDGE_MODEL     the default judge model id on that server, e.g. llama3.1:8b
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { OpenAICompatibleProvider } from '@ai-sdk/openai-compatible';
import type { JudgeModelResolver } from './types.ts';

export type OpenAICompatibleJudgeOptions = {
  baseURL: string;
  apiKey?: string;
  /** Provider name shown in judge records and spans. Default 'judge'. */
  name?: string;
  /** Custom fetch (proxies, tests). */
  fetch?: typeof globalThis.fetch;
};

/** A provider whose `languageModel(id)` asks the server for model `id`, with native structured outputs. */
export function createOpenAICompatibleJudgeProvider(options: OpenAICompatibleJudgeOptions): OpenAICompatibleProvider {
  if (typeof options?.baseURL !== 'string' || options.baseURL.trim() === '') {
    throw new TypeError(
      'createOpenAICompatibleJudgeProvider needs a baseURL, e.g. http://localhost:11434/v1 for Ollama or http://localhost:8000/v1 for vLLM.',
    );
  }
  return createOpenAICompatible({
    baseURL: options.baseURL,
    name: options.name ?? 'judge',
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    supportsStructuredOutputs: true,
  });
}

export type JudgeModelsFromEnv = {
  /** Resolves any model id on the configured server. */
  models: JudgeModelResolver;
  /** SCORESTREAM_JUDGE_MODEL, when set. */
  defaultModelId?: string;
  baseURL: string;
};

/** Judge models from SCORESTREAM_JUDGE_*; undefined when SCORESTREAM_JUDGE_BASE_URL is not set. */
export function judgeModelsFromEnv(env: Record<string, string | undefined>): JudgeModelsFromEnv | undefined {
  const baseURL = env.SCORESTREAM_JUDGE_BASE_URL?.trim();
  if (!baseURL) return undefined;
  const apiKey = env.SCORESTREAM_JUDGE_API_KEY?.trim();
  const defaultModelId = env.SCORESTREAM_JUDGE_MODEL?.trim();
  const provider = createOpenAICompatibleJudgeProvider({ baseURL, ...(apiKey ? { apiKey } : {}) });
  return {
    models: { languageModel: (id: string) => provider.languageModel(id) },
    ...(defaultModelId ? { defaultModelId } : {}),
    baseURL,
  };
}
