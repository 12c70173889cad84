// A stand-in judge model for dry runs (`scorestream replay --dry-run`): it calls nothing. Each call
// reports the usage the budget estimate expects (input from the prompt's length, output from
// `maxOutputTokens` or the configured expectation: token-estimate.ts) and answers the smallest
// value its response schema accepts, so a scorer's pipeline runs through every prompt step it
// would call the judge for, and the calls are priced like real ones.
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult } from '@ai-sdk/provider';
import type { PricingConfig } from './budget-schema.ts';

type JsonSchema = { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; enum?: unknown[]; const?: unknown; minimum?: number; exclusiveMinimum?: number; minItems?: number; items?: JsonSchema; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; minLength?: number };

/** The simplest JSON value `schema` accepts, for the common shapes of judge answers. */
export function minimalValue(schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return {};
  if (schema.const !== undefined) return schema.const;
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants !== undefined && variants.length > 0) return minimalValue(variants[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = minimalValue(schema.properties?.[key]);
      return value;
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => minimalValue(schema.items));
    case 'string':
      return 'x'.repeat(schema.minLength ?? 0);
    case 'number':
    case 'integer':
      return schema.minimum ?? (schema.exclusiveMinimum === undefined ? 0 : schema.exclusiveMinimum + 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return {};
  }
}

function promptCharacters(options: LanguageModelV4CallOptions): number {
  let characters = 0;
  for (const message of options.prompt) {
    if (typeof message.content === 'string') characters += message.content.length;
    else for (const part of message.content) if (part.type === 'text') characters += part.text.length;
  }
  return characters;
}

/** A model with the identity of the one it stands in for; `calls` counts what it was asked. */
export function createEstimatingModel(identity: { provider: string; modelId: string }, estimate: PricingConfig['estimate']): LanguageModelV4 & { calls: number } {
  const model = {
    specificationVersion: 'v4' as const,
    provider: identity.provider,
    modelId: identity.modelId,
    supportedUrls: {},
    calls: 0,
    async doGenerate(options: LanguageModelV4CallOptions): Promise<LanguageModelV4GenerateResult> {
      model.calls += 1;
      const format = options.responseFormat;
      const text = format?.type === 'json' ? JSON.stringify(minimalValue(format.schema as JsonSchema | undefined)) : 'dry run';
      return {
        content: [{ type: 'text', text }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: Math.ceil(promptCharacters(options) / estimate.charsPerToken), noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: options.maxOutputTokens ?? estimate.outputTokensPerCall, text: undefined, reasoning: undefined },
        },
        warnings: [],
      };
    },
    doStream(): never {
      throw new Error('a dry run estimates generate calls only');
    },
  };
  return model as LanguageModelV4 & { calls: number };
}
