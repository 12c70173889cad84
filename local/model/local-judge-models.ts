// Judge model ids of the form `local:<catalog name>` (`local:gemma3-270m`, fetched into the cache
// on first use) or `local:<path to a .gguf file>` resolve to models running on this machine.
// `withLocalJudgeModels` puts them in front of whatever resolver the config or the environment
// brings, so a scorer can name `local:…` next to hosted models.
import { isAbsolute, resolve } from 'node:path';
import type { JudgeModelResolver } from '../../src/kit/judge/types.ts';
import { fetchModel } from './fetch-model.ts';
import { loadLlamaRuntime } from './llama-runtime.ts';
import { createLlamaLanguageModel } from './llama-language-model.ts';
import type { LlamaLanguageModel } from './llama-language-model.ts';
import type { GrammarBounds } from './grammar-schema.ts';
import { findCatalogModel, modelCatalog } from './model-catalog.ts';
import { localModelError } from './model-errors.ts';

export const localModelPrefix = 'local:';

export type LocalJudgeModelsOptions = {
  environment?: NodeJS.ProcessEnv;
  /** Where first-use downloads and installs report. */
  onLine?: (line: string) => void;
  threads?: number;
  /** The grammar's bounds on strings and lists (default defaultGrammarBounds). */
  bounds?: GrammarBounds;
  /** Free-text answer length when a call sets none (default 400 tokens). */
  defaultMaxTextTokens?: number;
  /** Relative paths resolve against this folder. Default: the working directory. */
  baseDirectory?: string;
};

export type LocalJudgeModels = JudgeModelResolver & {
  readonly loaded: ReadonlyMap<string, LlamaLanguageModel>;
  dispose(): Promise<void>;
};

export function isLocalModelId(id: string): boolean {
  return id.startsWith(localModelPrefix);
}

export function createLocalJudgeModels(options: LocalJudgeModelsOptions = {}): LocalJudgeModels {
  const environment = options.environment ?? process.env;
  const models = new Map<string, LlamaLanguageModel>();
  const loadRuntime = () => loadLlamaRuntime(environment, options.onLine);
  return {
    loaded: models,
    languageModel(id: string) {
      const existing = models.get(id);
      if (existing !== undefined) return existing;
      const model = createLlamaLanguageModel({
        ...modelSource(id, options, environment),
        loadRuntime,
        ...(options.threads === undefined ? {} : { threads: options.threads }),
        ...(options.bounds === undefined ? {} : { bounds: options.bounds }),
        ...(options.defaultMaxTextTokens === undefined ? {} : { defaultMaxTextTokens: options.defaultMaxTextTokens }),
      });
      models.set(id, model);
      return model;
    },
    async dispose() {
      const all = [...models.values()];
      models.clear();
      await Promise.all(all.map((model) => model.dispose()));
    },
  };
}

function modelSource(id: string, options: LocalJudgeModelsOptions, environment: NodeJS.ProcessEnv): { modelPath: string | (() => Promise<string>); modelId: string } {
  if (!isLocalModelId(id)) throw localModelError('MODEL_UNKNOWN', `'${id}' is not a local model id: local ids start with '${localModelPrefix}'.`);
  const name = id.slice(localModelPrefix.length).trim();
  const catalogModel = findCatalogModel(name);
  if (catalogModel !== undefined) {
    return { modelId: name, modelPath: () => fetchModel(catalogModel, { environment, ...(options.onLine ? { onLine: options.onLine } : {}) }) };
  }
  if (!/\.gguf$/i.test(name)) {
    throw localModelError(
      'MODEL_UNKNOWN',
      `Unknown local model '${name}': use a catalog name (${modelCatalog.map((model) => model.name).join(', ')}) or the path of a .gguf file, e.g. local:/models/judge.gguf.`,
    );
  }
  const path = isAbsolute(name) ? name : resolve(options.baseDirectory ?? process.cwd(), name);
  return { modelId: id.slice(localModelPrefix.length), modelPath: path };
}

/** A resolver that answers `local:…` ids itself and hands every other id to `others`. */
export function withLocalJudgeModels(others: JudgeModelResolver | undefined, local: JudgeModelResolver): JudgeModelResolver {
  return {
    languageModel(id: string) {
      if (isLocalModelId(id)) return local.languageModel(id);
      if (others === undefined) throw new Error(`no judge model resolver is configured for '${id}' (only local:… ids are)`);
      return others.languageModel(id);
    },
  };
}
