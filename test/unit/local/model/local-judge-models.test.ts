import { describe, expect, it } from 'vitest';
import { createLocalJudgeModels, isLocalModelId, withLocalJudgeModels } from '../../../../local/model/local-judge-models.ts';
import { prebuiltBindingPackage } from '../../../../local/model/llama-runtime.ts';

describe('local judge model ids', () => {
  it('resolves catalog names and .gguf paths (relative to the base folder) to one model each, loading nothing yet', () => {
    const models = createLocalJudgeModels({ baseDirectory: '/srv/app' });
    const gemma = models.languageModel('local:gemma3-270m');
    expect(gemma).toMatchObject({ specificationVersion: 'v4', provider: 'local', modelId: 'gemma3-270m' });
    expect(models.languageModel('local:gemma3-270m')).toBe(gemma);
    expect(models.languageModel('local:models/judge.gguf')).toMatchObject({ modelId: 'models/judge.gguf' });
    expect([...models.loaded.keys()]).toEqual(['local:gemma3-270m', 'local:models/judge.gguf']);
  });

  it('says which names and paths it takes', () => {
    const models = createLocalJudgeModels();
    expect(() => models.languageModel('local:llama-70b')).toThrow(/Unknown local model 'llama-70b': use a catalog name \(gemma3-270m\) or the path of a \.gguf file/);
    expect(() => models.languageModel('openai:gpt-4o')).toThrow(/not a local model id/);
  });

  it('answers local ids itself and hands the others to the configured resolver', () => {
    const hosted = { languageModel: (id: string) => ({ hosted: id }) as never };
    const local = { languageModel: (id: string) => ({ local: id }) as never };
    const resolver = withLocalJudgeModels(hosted, local);
    expect(resolver.languageModel('local:gemma3-270m')).toEqual({ local: 'local:gemma3-270m' });
    expect(resolver.languageModel('judge:llama3.1')).toEqual({ hosted: 'judge:llama3.1' });
    expect(() => withLocalJudgeModels(undefined, local).languageModel('judge:llama3.1')).toThrow(/only local:… ids are/);
    expect(isLocalModelId('local:x.gguf')).toBe(true);
    expect(isLocalModelId('localhost:x')).toBe(false);
  });
});

describe('prebuiltBindingPackage', () => {
  it("names node-llama-cpp's CPU build for each platform it ships, and refuses the rest", () => {
    expect(prebuiltBindingPackage('linux', 'x64')).toBe('@node-llama-cpp/linux-x64');
    expect(prebuiltBindingPackage('linux', 'arm64')).toBe('@node-llama-cpp/linux-arm64');
    expect(prebuiltBindingPackage('darwin', 'arm64')).toBe('@node-llama-cpp/mac-arm64-metal');
    expect(prebuiltBindingPackage('win32', 'x64')).toBe('@node-llama-cpp/win-x64');
    expect(() => prebuiltBindingPackage('freebsd', 'x64')).toThrow(/no prebuilt binary for freebsd-x64/);
  });
});
