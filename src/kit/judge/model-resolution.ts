// Turns a judge's `model` (an AI SDK model, or a string id) into a model object. String ids go
// through a resolver the application configures: per run (`run(input, { models })`) or as the
// process-wide default (`setDefaultJudgeModels`). Resolved models are cached per resolver.
import type { LanguageModel } from 'ai';
import { judgeNotConfiguredError } from './judge-errors.ts';
import type { JudgeModelResolver } from './types.ts';

export type ResolvedJudgeModel = {
  model: Exclude<LanguageModel, string>;
  modelId: string;
  provider: string | undefined;
};

/**
 * Wraps a model object given directly in a judge config (not resolved by id), so that the
 * application's per-model limits and measurements apply to it too. Should return the same
 * wrapper for the same model (cache it), as it is called once per judge call.
 */
export type PrepareJudgeModel = (model: Exclude<LanguageModel, string>) => Exclude<LanguageModel, string>;

let defaultResolver: JudgeModelResolver | undefined;
const resolvedByResolver = new WeakMap<JudgeModelResolver, Map<string, ResolvedJudgeModel>>();

/** Sets (or with `undefined` clears) the resolver used for string ids when a run passes none. */
export function setDefaultJudgeModels(resolver: JudgeModelResolver | undefined): void {
  defaultResolver = resolver;
}

export function getDefaultJudgeModels(): JudgeModelResolver | undefined {
  return defaultResolver;
}

const howToConfigure =
  'Configure judge models with run(input, { models: createProviderRegistry({ ... }) }), ' +
  'setDefaultJudgeModels(...), or SCORESTREAM_JUDGE_BASE_URL for an OpenAI-compatible server (judgeModelsFromEnv), ' +
  'or give the judge a model object instead of a string.';

/** @throws ScorestreamError `JUDGE_MODEL_NOT_CONFIGURED` when a string id cannot be resolved. */
export function resolveJudgeModel(model: LanguageModel, resolver?: JudgeModelResolver, prepareModel?: PrepareJudgeModel): ResolvedJudgeModel {
  if (typeof model !== 'string') return describeModel(prepareModel === undefined ? model : prepareModel(model));
  const models = resolver ?? defaultResolver;
  if (models === undefined) {
    throw judgeNotConfiguredError(`Judge model '${model}' cannot be resolved: no judge model resolver is configured. ${howToConfigure}`);
  }
  let cache = resolvedByResolver.get(models);
  if (cache === undefined) {
    cache = new Map();
    resolvedByResolver.set(models, cache);
  }
  const cached = cache.get(model);
  if (cached !== undefined) return cached;
  const resolved = describeModel(lookUp(models, model));
  cache.set(model, resolved);
  return resolved;
}

/** Also accepts Mastra-style 'provider/model' ids on a registry that expects 'provider:model'. */
function lookUp(models: JudgeModelResolver, id: string): Exclude<LanguageModel, string> {
  try {
    return asModel(models.languageModel(id), id);
  } catch (error) {
    const slash = id.indexOf('/');
    if (slash > 0 && !id.includes(':')) {
      try {
        return asModel(models.languageModel(`${id.slice(0, slash)}:${id.slice(slash + 1)}`), id);
      } catch {
        // report the error of the id as written
      }
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw judgeNotConfiguredError(`Judge model '${id}' is not known to the configured model resolver (${reason}). ${howToConfigure}`, error);
  }
}

function asModel(model: unknown, id: string): Exclude<LanguageModel, string> {
  if (typeof model === 'object' && model !== null && typeof (model as { doGenerate?: unknown }).doGenerate === 'function') {
    return model as Exclude<LanguageModel, string>;
  }
  throw new TypeError(`the resolver returned no language model for '${id}'`);
}

function describeModel(model: Exclude<LanguageModel, string>): ResolvedJudgeModel {
  return { model, modelId: model.modelId, provider: typeof model.provider === 'string' ? model.provider : undefined };
}
