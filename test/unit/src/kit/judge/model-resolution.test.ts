import { afterEach, describe, expect, it } from 'vitest';
import { createProviderRegistry, customProvider } from 'ai';
import { mockJudge } from '../../../../../src/kit/testing/mock-judge.ts';
import { ScorestreamError } from '../../../../../src/kit/errors.ts';
import { getDefaultJudgeModels, resolveJudgeModel, setDefaultJudgeModels } from '../../../../../src/kit/judge/model-resolution.ts';

afterEach(() => setDefaultJudgeModels(undefined));

const model = mockJudge({ modelId: 'small', provider: 'local.chat' });
const registry = createProviderRegistry({ local: customProvider({ languageModels: { small: model } }) });

describe('resolveJudgeModel', () => {
  it('uses a model object as is, with its id and provider', () => {
    expect(resolveJudgeModel(model)).toEqual({ model, modelId: 'small', provider: 'local.chat' });
  });

  it('resolves a string id through the given resolver, and caches per resolver and id', () => {
    let lookups = 0;
    const counting = {
      languageModel: (id: string) => {
        lookups += 1;
        return registry.languageModel(id as 'local:small');
      },
    };
    const first = resolveJudgeModel('local:small', counting);
    const second = resolveJudgeModel('local:small', counting);
    expect(first.model.modelId).toBe('small');
    expect(second).toBe(first);
    expect(lookups).toBe(1);
  });

  it('falls back to the application default resolver', () => {
    expect(getDefaultJudgeModels()).toBeUndefined();
    setDefaultJudgeModels(registry);
    expect(getDefaultJudgeModels()).toBe(registry);
    expect(resolveJudgeModel('local:small').modelId).toBe('small');
  });

  it('fails with JUDGE_MODEL_NOT_CONFIGURED, saying how to configure models, when no resolver is set', () => {
    let thrown: unknown;
    try {
      resolveJudgeModel('openai/gpt-5-mini');
    } catch (error) {
      thrown = error;
    }
    expect(ScorestreamError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({ code: 'JUDGE_MODEL_NOT_CONFIGURED', canRetry: false });
    expect((thrown as Error).message).toMatch(/no judge model resolver is configured/);
    expect((thrown as Error).message).toMatch(/setDefaultJudgeModels/);
  });

  it('fails clearly for an unknown id or a resolver returning no model, keeping the resolver error as cause', () => {
    expect(() => resolveJudgeModel('local:large', registry)).toThrow(/'local:large' is not known to the configured model resolver/);
    const broken = { languageModel: () => undefined as never };
    expect(() => resolveJudgeModel('x', broken)).toThrow(/the resolver returned no language model for 'x'/);
  });
});

describe('resolveJudgeModel with prepareModel', () => {
  it('wraps a model object given directly, and leaves models resolved by id to the resolver', () => {
    const direct = mockJudge({ modelId: 'direct-judge' });
    const wrapped = mockJudge({ modelId: 'direct-judge' });
    const seen: unknown[] = [];
    const prepareModel = (model: unknown) => {
      seen.push(model);
      return wrapped;
    };
    expect(resolveJudgeModel(direct, undefined, prepareModel as never).model).toBe(wrapped);
    expect(seen).toEqual([direct]);

    const byId = mockJudge({ modelId: 'by-id' });
    const resolved = resolveJudgeModel('by-id', { languageModel: () => byId }, prepareModel as never);
    expect(resolved.model).toBe(byId);
    expect(seen).toHaveLength(1);
  });
});
