// Turns whatever a Classifier was given as `model` into one decision model, telling the kinds
// apart by shape: `doDecide` (ai@7 decision model), `doEvaluate` (its deprecated form) or
// `doGenerate` (a chat model, wrapped by the language-model decider). A string is a model id,
// which only the caller's resolver can turn into a model.

import type { Experimental_DecisionModelV4 } from '@ai-sdk/provider';
import { createLanguageModelDecider } from './language-model-decider.ts';
import type { ChatModel, ClassifierModel, ClassifierModelResolver } from './types.ts';

export function resolveDecisionModel(
  classifierId: string,
  model: ClassifierModel,
  resolveModel?: ClassifierModelResolver,
): Experimental_DecisionModelV4 {
  let instance: unknown = model;
  if (typeof model === 'string') {
    if (resolveModel === undefined) {
      throw new TypeError(
        `Classifier '${classifierId}' was given the model id '${model}' but no resolveModel option. Pass a model instance, or a resolveModel function that returns one for this id.`,
      );
    }
    instance = resolveModel(model);
    if (instance == null) {
      throw new TypeError(`Classifier '${classifierId}': resolveModel returned no model for the id '${model}'.`);
    }
  }
  if (isObject(instance) && typeof instance.doDecide === 'function') {
    return instance as unknown as Experimental_DecisionModelV4;
  }
  if (isObject(instance) && typeof instance.doEvaluate === 'function') {
    const legacy = instance as Omit<Experimental_DecisionModelV4, 'doDecide'> & {
      doEvaluate: Experimental_DecisionModelV4['doDecide'];
    };
    return {
      specificationVersion: 'v4',
      provider: legacy.provider,
      modelId: legacy.modelId,
      supportedQuestionTypes: legacy.supportedQuestionTypes,
      doDecide: (options) => legacy.doEvaluate(options),
    };
  }
  if (isObject(instance) && typeof instance.doGenerate === 'function') {
    return createLanguageModelDecider(instance as unknown as ChatModel);
  }
  throw new TypeError(
    `Classifier '${classifierId}' needs a decision model (with doDecide) or a language model (with doGenerate) as its model.`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
